// default_scene.cpp — a build without the GUI records the default scene on
// the command line and prints what it recorded.
#include "app/cli/default_scene.h"

#include <chrono>
#include <cstdio>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/record_options.h"
#include "app/core/replay.h"
#include "app/core/stats.h"
#include "app/core/trace_index.h"
#include "kernels/recorder.h"

namespace ts::cli {

DefaultScene add_default_scene_options(CLI::App& app) {
  auto opts = std::make_shared<RecordOptions>();
  add_record_options(app, *opts);
  return {[opts]() -> int {
    RecordParams params;
    if (std::string err = to_record_params(*opts, params); !err.empty()) return fail(err);
    std::printf("tilescope was built without the GUI: recording the scene on the command line instead.\n");
    try {
      const auto t0 = std::chrono::steady_clock::now();
      const Trace trace = record(params);
      const TraceIndex index(trace);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      const TraceCounts s = count_events(trace, index);
      std::printf("%s %s M=%d N=%d K=%d on %s: %llu events in %.1f ms\n", trace.launch.kernel.c_str(),
                  tiling_label(trace.launch).c_str(), trace.launch.m, trace.launch.n, trace.launch.k,
                  trace.launch.device_name.c_str(), static_cast<unsigned long long>(trace.events.size()), ms);
      std::printf("global loads per element: A %u..%u, B %u..%u\n", s.a_loads_min, s.a_loads_max, s.b_loads_min,
                  s.b_loads_max);
    } catch (const RecordError& e) {
      return e.kind() == RecordError::Kind::KernelCompile ? fail_with_details(e.what()) : fail(e.what());
    }
    return 0;
  }};
}

}  // namespace ts::cli
