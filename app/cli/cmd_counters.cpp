// cmd_counters.cpp — `tilescope counters --kernel K --tile T --size N
// [--device gpu|cpu] [--json] [--verbose]`: the numbers of `tilescope stats`
// for one launch at any size, counted while it runs instead of traced.
#include <chrono>
#include <cstdio>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/record_options.h"
#include "app/counters/counter.h"

namespace ts::cli {
namespace {

std::string mib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(1u << 20));
  return buf;
}

}  // namespace

Command add_counters_command(CLI::App& parent) {
  auto* app = parent.add_subcommand(
      "counters", "Whole-launch counters (requests, sectors, wavefronts, bank conflicts, bytes) at any size, "
                  "without storing events: the keys of `stats --json`");
  auto opts = std::make_shared<RecordOptions>();
  auto json = std::make_shared<bool>(false);
  auto verbose = std::make_shared<bool>(false);
  auto workers = std::make_shared<unsigned>(0);
  add_record_options(*app, *opts);
  app->add_option("--workers", *workers, "Emulator worker threads (0: one per core)");
  app->add_flag("--json", *json, "Print JSON");
  app->add_flag("-v,--verbose", *verbose, "Also print the peak memory and the time taken");
  return {app, [opts, json, verbose, workers]() -> int {
            RecordParams params;
            if (std::string err = to_record_params(*opts, params); !err.empty()) return fail(err);
            if (params.user)
              return fail("counters take tilescope's own kernels; record a --kernel-file and run `tilescope stats` on it");
            params.cpu_workers = *workers;
            try {
              const auto t0 = std::chrono::steady_clock::now();
              const LaunchCounters c = count_launch(params);
              const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
              if (*json) {
                nlohmann::json j = counters_to_json(c);
                j["seconds"] = secs;
                std::printf("%s\n", j.dump(2).c_str());
                return 0;
              }
              print_stats_table(c.launch, c.events, c.threads, c.stats);
              if (*verbose) {
                std::printf("counted in %.2f s (%.3g events/s); peak memory %s (inputs %s, per-element counts %s, %s %s); "
                            "a full trace would take %s\n",
                            secs, secs > 0 ? double(c.events) / secs : 0.0, mib(c.peak_bytes).c_str(),
                            mib(c.inputs_bytes).c_str(), mib(c.element_counts_bytes).c_str(),
                            c.launch.recorded_on_gpu() ? "GPU counters" : "block buffers",
                            mib(c.block_buffers_bytes).c_str(), mib(c.events * sizeof(Event)).c_str());
              }
            } catch (const RecordError& e) {
              return fail_recording(e);
            } catch (const std::bad_alloc&) {
              return fail("out of memory while counting; try a smaller size");
            }
            return 0;
          }};
}

}  // namespace ts::cli
