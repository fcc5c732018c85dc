// consumers.cpp — drive every consumer of a loaded trace (see consumers.h).
#include "tests/fuzz/consumers.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/trace_compare.h"
#include "app/core/analysis/warp_requests.h"
#include "app/core/analysis/warp_view.h"
#include "app/core/csv_export.h"
#include "app/core/replay.h"
#include "app/core/stats.h"

namespace ts::fuzz {
namespace {

// Up to `count` values spread evenly over [0, n), always including 0 and n - 1.
template <typename F>
void sample(std::uint64_t n, std::uint64_t count, F&& f) {
  if (n == 0) return;
  const std::uint64_t stride = std::max<std::uint64_t>(1, n / count);
  for (std::uint64_t i = 0; i < n; i += stride) f(i);
  if ((n - 1) % stride != 0) f(n - 1);
}

}  // namespace

std::uint64_t run_consumers(const Trace& t, const TraceIndex& index) {
  std::uint64_t sum = 0;
  const LaunchInfo& L = t.launch;
  const auto m = static_cast<std::uint32_t>(L.m), n = static_cast<std::uint32_t>(L.n);
  const std::uint64_t blocks = L.grid.count();

  // stats with every analysis, and its JSON
  const TraceStats stats = compute_stats(t, index);
  sum += stats_to_json(t, stats).dump().size();
  const std::uint32_t warps = warps_per_block(L);
  sample(blocks, 3, [&](std::uint64_t b) {
    sum += analyze_block(t, static_cast<std::uint32_t>(b)).by_array[0][0].requests;
    sample(warps, 2, [&](std::uint64_t w) {
      sum += analyze_warp(t, static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(w)).by_array[3][0].requests;
    });
  });

  // the replay across all steps
  const ReplayTimeline timeline(L);
  PartialSums partial(t);
  for (std::uint32_t s = 0, steps = timeline.step_count(); s < steps; ++s) {
    const ReplayStep step = timeline.at(s);
    sum += timeline.step_of(step);
    sample(m, 2, [&](std::uint64_t r) {
      sample(n, 2, [&](std::uint64_t c) {
        if (auto h = highlight_cell(t, index, static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(c), step))
          sum += h->terms_done;
      });
    });
    if (s % 7 == 0 || s + 1 == steps) {
      sum += partial.after(step.k + step.iteration * static_cast<std::uint32_t>(std::max(L.tile, 1))).size();
      for (BufferRole a : {BufferRole::A, BufferRole::B}) sum += all_block_tiles(index, step.iteration, a).size();
      sample(blocks, 2, [&](std::uint64_t b) {
        for (const SharedTileContents& tile : shared_contents(t, static_cast<std::uint32_t>(b), step.iteration))
          sum += tile.words.size();
        const auto views = warp_request_views(t, static_cast<std::uint32_t>(b), 0, step.iteration);
        const auto at = requests_at(views, step, timeline);
        if (const auto worst = costliest(views, at)) sum += *worst;
      });
    }
  }
  for (BufferRole a : {BufferRole::A, BufferRole::B, BufferRole::C})
    sample(m, 2, [&](std::uint64_t r) {
      if (auto e = describe_element(t, index, a, static_cast<std::uint32_t>(r), 0, 0)) sum += e->loads_total;
    });
  sum += launch_title(L).size() + recorded_by(L).size();

  // the comparison of the trace with itself, whole and for one cell
  sum += compare_traces_json(t, t, {}).dump().size();
  CompareOptions one;
  one.cell = ElementCoord{m - 1, n - 1};
  try {
    sum += compare_traces_json(t, t, one).dump().size();
  } catch (const std::invalid_argument&) {
    // The documented refusal when no thread wrote that cell (a focused or
    // partial trace): `tilescope compare` reports it in one line.
  }

  // CSV export, into memory
  char* buf = nullptr;
  std::size_t len = 0;
  if (std::FILE* f = open_memstream(&buf, &len)) {
    export_csv(t, f);
    std::fclose(f);
    sum += len;
    std::free(buf);
  }
  return sum;
}

}  // namespace ts::fuzz
