// cmd_stats.cpp — `tilescope stats FILE [--json]`: what a trace holds.
#include <cstdio>
#include <memory>

#include "app/cli/commands.h"
#include "app/core/stats.h"
#include "app/core/trace_file.h"
#include "app/core/trace_index.h"

namespace ts::cli {

void print_stats_table(const LaunchInfo& L, std::uint64_t events, std::uint64_t threads, const TraceStats& stats) {
  const TraceCounts& s = stats.counts;
  std::printf("%s  TILE=%d  M=%d N=%d K=%d  grid %ux%u  block %ux%u\n", L.kernel.c_str(), L.tile, L.m, L.n, L.k,
              L.grid.x, L.grid.y, L.block.x, L.block.y);
  std::printf("recorded by %s (%s) on %s\n", L.recorder.c_str(), L.device_name.c_str(), L.date.c_str());
  std::printf("%llu events from %llu threads\n", static_cast<unsigned long long>(events),
              static_cast<unsigned long long>(threads));
  if (L.focused())
    std::printf("a focused trace: %zu of %llu blocks traced; the numbers below cover those blocks only\n",
                L.traced_blocks.size(), static_cast<unsigned long long>(L.grid.count()));
  std::printf("%-6s %14s %14s\n", "array", "loads", "stores");
  for (int a = 0; a < kArrayCount; ++a) {
    if (!L.arrays[a].present) continue;
    std::printf("%-6s %14llu %14llu\n", array_name(static_cast<ArrayId>(a)),
                static_cast<unsigned long long>(s.by_array[a][0]), static_cast<unsigned long long>(s.by_array[a][1]));
  }
  std::printf("padding stores (zeros for slots outside the matrices): %llu\n",
              static_cast<unsigned long long>(s.padding_stores));
  std::printf("global loads per element: A %u..%u, B %u..%u\n", s.a_loads_min, s.a_loads_max, s.b_loads_min,
              s.b_loads_max);
  for (Space space : {Space::Global, Space::Shared})
    for (Op op : {Op::Load, Op::Store}) {
      const AccessTotals a = stats.memory.total(space, op);
      std::printf("%s %ss: %llu warp requests, %llu %s (%.2f per request)", space_name(space), op_name(op),
                  static_cast<unsigned long long>(a.requests),
                  static_cast<unsigned long long>(space == Space::Global ? a.sectors : a.wavefronts),
                  space == Space::Global ? "sectors" : "wavefronts", a.per_request());
      if (space == Space::Shared) std::printf(", %llu bank conflicts", static_cast<unsigned long long>(a.bank_conflicts));
      std::printf("\n");
    }
  std::printf("bytes loaded from global memory: %llu (minimum, each input read once and C written once: %llu); "
              "%.3g FLOP per byte loaded\n",
              static_cast<unsigned long long>(stats.reuse.global_bytes_loaded),
              static_cast<unsigned long long>(stats.reuse.min_bytes), stats.reuse.arithmetic_intensity);
}

Command add_stats_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("stats", "Count a trace's events by space, op and array");
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  app->add_option("file", *file, "Trace file")->required();
  app->add_flag("--json", *json, "Print JSON");
  return {app, [file, json]() -> int {
            try {
              const Trace trace = load_trace(*file);
              const TraceIndex index(trace);
              const TraceStats stats = compute_stats(trace, index);
              if (*json) std::printf("%s\n", stats_to_json(trace, stats).dump(2).c_str());
              else print_stats_table(trace.launch, trace.events.size(), trace.thread_count(), stats);
            } catch (const TraceFileError& e) {
              return fail(e.what());
            } catch (const std::bad_alloc&) {
              return fail("out of memory while loading " + *file);
            }
            return 0;
          }};
}

}  // namespace ts::cli
