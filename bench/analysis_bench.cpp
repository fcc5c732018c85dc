// analysis_bench.cpp — how fast the memory analysis runs on a large trace.
//
//   analysis_bench [--json FILE] [--size 256] [--workers N]
//
// Records tiled TILE 16 and naive TILE 16 at N = 256 (~36 million events each)
// on the emulator, then times the whole-trace analysis (requests, sectors,
// wavefronts; one worker and all of them), the reuse pass (loads per
// element, shared reuse), and the queries the app makes while the user clicks
// (one block, one step; one warp in program order).
// Targets (issue 6): whole-trace analysis <= 1 s on 2 cores at N = 256; a
// block or warp query well inside a 16 ms frame.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/reuse.h"
#include "app/core/safe_file.h"
#include "kernels/catalog.h"
#include "kernels/recorder.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

template <class F>
double median_ms(int runs, F&& f) {
  std::vector<double> v;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    f();
    v.push_back(ms_since(t0));
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Memory analysis timings"};
  std::string json_path;
  int size = 256;
  unsigned workers = 0;
  app.add_option("--json", json_path, "Also write the figures here");
  app.add_option("--size", size, "M = N = K")->check(CLI::Range(16, 1024));
  app.add_option("--workers", workers, "Analysis threads (0: one per core)");
  CLI11_PARSE(app, argc, argv);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  nlohmann::json out = {{"size", size}, {"cores", cores}, {"scenes", nlohmann::json::array()}};
  std::printf("analysis of N = %d traces, %u cores\n", size, cores);
  for (ts::KernelKind kind : {ts::KernelKind::Tiled, ts::KernelKind::Naive}) {
    ts::RecordParams p;
    p.kernel = kind;
    p.tile = 16;
    p.m = p.n = p.k = size;
    p.device = ts::DeviceChoice::Cpu;
    ts::Trace trace;
    try {
      trace = ts::record(p);
    } catch (const ts::RecordError& e) {
      std::fprintf(stderr, "analysis_bench: %s\n", e.what());
      return 1;
    }
    const std::uint64_t events = trace.events.size();
    const double one = median_ms(3, [&] { ts::analyze_memory(trace, 1); });
    const double all = median_ms(3, [&] { ts::analyze_memory(trace, workers); });
    const double reuse = median_ms(3, [&] { ts::analyze_reuse(trace); });
    const std::uint32_t blocks = static_cast<std::uint32_t>(trace.launch.grid.count());
    const double block_query = median_ms(9, [&] { ts::analyze_block(trace, blocks / 2, 3); });
    ts::WarpAligner aligner(trace);
    const double warp_query = median_ms(9, [&] { aligner.align(blocks / 2, 0, true); });
    const std::string name(ts::kernel_info(kind).name);
    std::printf("%-6s %10llu events  memory %7.1f ms (1 worker) %7.1f ms (%u)  reuse %7.1f ms  "
                "block+step %6.2f ms  warp %6.2f ms  -> %.1f ns/event\n",
                name.c_str(), static_cast<unsigned long long>(events), one, all, workers ? workers : cores, reuse,
                block_query, warp_query, (all + reuse) * 1e6 / static_cast<double>(events));
    out["scenes"].push_back({{"kernel", name},
                             {"tile", 16},
                             {"events", events},
                             {"memory_ms_1_worker", one},
                             {"memory_ms", all},
                             {"reuse_ms", reuse},
                             {"block_step_query_ms", block_query},
                             {"warp_query_ms", warp_query}});
  }
  if (!json_path.empty()) {
    if (const std::string error = ts::try_write_file_atomically(json_path, out.dump(2) + "\n"); !error.empty()) {
      std::fprintf(stderr, "analysis_bench: %s\n", error.c_str());
      return 1;
    }
  }
  return 0;
}
