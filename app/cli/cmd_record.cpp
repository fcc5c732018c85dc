// cmd_record.cpp — `tilescope record`: record a trace on the GPU or the emulator.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/record_options.h"
#include "app/core/trace_file.h"
#include "app/core/block_selection.h"
#include "app/core/gpu_presets.h"
#include "app/core/safe_file.h"
#include "kernels/catalog.h"
#include "kernels/counter.h"
#include "kernels/focused.h"
#include "kernels/recorder.h"

namespace ts::cli {
namespace {

// Fails before a long recording rather than after it.
std::string unwritable_reason(const std::filesystem::path& out) {
  std::error_code ec;
  if (std::filesystem::is_directory(out, ec)) return "it is a directory";
  std::filesystem::path dir = out.parent_path();
  if (dir.empty()) dir = ".";
  if (!std::filesystem::is_directory(dir, ec)) return "no directory " + dir.string();
  if (access(dir.c_str(), W_OK) != 0) return "the directory " + dir.string() + " is not writable";
  if (std::filesystem::exists(out, ec) && access(out.c_str(), W_OK) != 0) return "the file is not writable";
  return {};
}

struct FocusOptions {
  std::string blocks, preset = "h100";
  bool counters = false;
};

// `record --blocks`: the chosen blocks' events, and with --counters the whole launch's numbers beside them.
int record_focused_trace(const RecordParams& params, const FocusOptions& focus, const std::string& out) {
  try {
    validate_shape(params);
    const LaunchShape shape = launch_shape(params.kernel, params.tile, params.m, params.n);
    std::string no_wave;
    const std::uint64_t per_wave =
        focus.blocks.starts_with("wave:") ? blocks_per_wave(params.kernel, params.tile, focus.preset, no_wave) : 0;
    const BlockSelection sel = parse_block_selection(focus.blocks, shape.grid, per_wave, no_wave);
    if (!sel.error.empty()) return fail(sel.error);
    const auto t0 = std::chrono::steady_clock::now();
    const Trace trace = record_focused(params, sel.blocks);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    save_trace(trace, out);
    std::printf("recorded %zu of %llu blocks of %s TILE=%d M=%d N=%d K=%d on %s: %llu events in %.2f s -> %s\n",
                sel.blocks.size(), static_cast<unsigned long long>(shape.grid.count()), trace.launch.kernel.c_str(),
                trace.launch.tile, trace.launch.m, trace.launch.n, trace.launch.k, trace.launch.device_name.c_str(),
                static_cast<unsigned long long>(trace.events.size()), secs, out.c_str());
    if (focus.counters) {
      RecordParams whole = params;
      whole.seed = trace.launch.seed;  // the same inputs
      const LaunchCounters c = count_launch(whole);
      const std::string path = out + ".counters.json";
      write_file_atomically(path, counters_to_json(c).dump(2) + "\n");
      std::printf("the whole launch is counted, not traced: %llu events on %s -> %s\n",
                  static_cast<unsigned long long>(c.events), c.launch.device_name.c_str(), path.c_str());
    }
  } catch (const RecordError& e) {
    return fail(e.what());
  } catch (const TraceFileError& e) {
    return fail(e.what());
  } catch (const SafeFileError& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail("out of memory while recording; try fewer blocks");
  }
  return 0;
}

}  // namespace

Command add_record_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("record", "Record every memory access of one kernel launch into a trace file");
  auto opts = std::make_shared<RecordOptions>();
  auto out = std::make_shared<std::string>("trace.tstrace");
  auto focus = std::make_shared<FocusOptions>();
  add_record_options(*app, *opts);
  app->add_option("-o,--output", *out, "Trace file to write")->capture_default_str();
  app->add_option("--blocks", focus->blocks,
                  "Record only these blocks, at any N: \"x,y;x,y\", row:Y, col:X or wave:W (a focused trace)");
  app->add_option("--gpu", focus->preset, "GPU preset whose waves wave:W counts (" + gpu_preset_names() + ")")
      ->capture_default_str();
  app->add_flag("--counters", focus->counters,
                "With --blocks: also count the whole launch (as `tilescope counters`) into OUTPUT.counters.json");
  return {app, [opts, out, focus]() -> int {
            RecordParams params;
            if (std::string err = to_record_params(*opts, params); !err.empty()) return fail(err);
            if (!focus->blocks.empty()) {
              if (std::string why = unwritable_reason(*out); !why.empty())
                return fail("cannot write " + *out + ": " + why);
              return record_focused_trace(params, *focus, *out);
            }
            try {
              validate(params);
            } catch (const RecordError& e) {
              return fail(e.what());
            }
            if (std::string why = unwritable_reason(*out); !why.empty())
              return fail("cannot write " + *out + ": " + why);
            const auto t0 = std::chrono::steady_clock::now();
            try {
              const Trace trace = record(params);
              const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
              save_trace(trace, *out);
              std::printf("recorded %s TILE=%d M=%d N=%d K=%d on %s: %llu events in %.2f s -> %s\n",
                          trace.launch.kernel.c_str(), trace.launch.tile, trace.launch.m, trace.launch.n,
                          trace.launch.k, trace.launch.device_name.c_str(),
                          static_cast<unsigned long long>(trace.events.size()), secs, out->c_str());
            } catch (const RecordError& e) {
              return fail(e.what());
            } catch (const TraceFileError& e) {
              return fail(e.what());
            } catch (const std::bad_alloc&) {
              return fail("out of memory while recording; try a smaller size");
            }
            return 0;
          }};
}

}  // namespace ts::cli
