// tf32_wgmma_ws_plan.h — the rule that picks, per shape, which compiled
// variant of tf32-wgmma-ws runs (a tile of 256 x 128, 128 x 256, 128 x 128,
// 192 x 128, 128 x 192 or 64 x 128 in clusters of 2, or of 128 x 64 or 64 x
// 128 two CTAs an SM) and how its work is scheduled (ws::WorkSchedule): whole tiles,
// stream-k (the rounds that do not fill the GPU shared out by k-tile),
// the tail split (the last partial round's units cut into equal pieces of k)
// or split-k. Plain C++ (no CUDA): tests/kernels/tf32_wgmma_ws_layout_test.cpp
// checks its picks on the host; tf32_wgmma_ws.cu asks the driver how many
// clusters of each variant are resident and runs what it picks. The model
// and the measurements it was fitted to are in docs/ladder-notes.md, runs
// 31, 33, 35, 40, 42 and 45.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <string>

#include "kernels/ladder/tf32_wgmma_ws_layout.h"
#include "kernels/ladder/tf32_wgmma_ws_variants.h"

namespace ts::ladder {

// Split-k keeps its copies of C within this many floats (1 GiB): the rule
// weighs no more splits, and the launch (tf32_wgmma_ws.cuh) cuts to fewer.
inline constexpr std::size_t kWsSplitKFloats = std::size_t(1) << 28;

struct Tf32WsPlan {
  int variant = 0;        // index into kTf32WsVariants
  bool stream_k = false;  // share the rounds that do not fill the GPU out by k-tile
  int splits = 1;         // > 1: split-k in that many pieces instead, the copies added by a second kernel
  int tail = 1;           // > 1: the tail split instead: the last partial round's units cut in up to that many
                          // pieces each, finished in the kernel (ws::tail_schedule)
};

// The splits the rule weighs.
inline constexpr int kTf32WsSplits[] = {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};

// The model's constants, in k-tiles of the shipped variant on one CTA
// (about 0.68 us on an H200), fitted to docs/ladder-notes.md's run 31 (75 shapes, every plan timed),
// checked against run 33's 115, and refitted in run 35 (274 shapes, every plan of the eight tiles
// the rule weighs, the L2 overwritten before every timed run as the benchmark does). Run 40 set
// tail_step and partial (4 before) on those shapes and 18 more with every tail split timed (a grid
// over the two, checked fitted on either half of the shapes against the other; fitting every
// constant at once did worse on the other half than the constants it started from).
struct Tf32WsModel {
  double piece = 2.88;           // a piece's pipeline fill and its epilogue
  double partial = 5;            // stream-k and the tail split: one partial's write, and its read by the finisher
  double stream_k_step = 1.365;  // stream-k: a k-tile of a cut unit (the clusters' k no longer in step: less L2 reuse)
  double split_launch = 1.684;   // split-k: the second kernel's launch
  double split_bytes = 1.14e6;   // split-k: bytes the second kernel moves per k-tile of time
  double tail_step = 1.15;       // the tail split: a k-tile of a piece (the pieces' k in step, as a round's)
  // A pair along m over three m-tiles (the second pair half past C): this
  // times a k-tile. Run 42 (H200): there the 128x128 tile paired along m ran
  // 0.91 of its time paired along n at the median of 30 tabled shapes (0.54
  // at 384x5504x1920), where at other counts of m-tiles the two were level;
  // a cost for any odd count (the share of rows past C) lost on drawn shapes
  // at 5 m-tiles and past 9. At the 86 of 36,000 freshly drawn shapes whose
  // pick this moves (call 91): faster at 81, slower at 5, mean +12.5 points.
  double pair_m_three = 1.075;
};

// The rule's model of a plan's time, in k-tiles of the shipped variant on
// one CTA: the busiest cluster's k-tiles, each piece of work paying a start
// and an end, and each partial sum passed through the workspace paying its
// write and its read. Infinite where the variant is not one the rule weighs
// or no cluster of it is resident.
inline double tf32_ws_plan_cost(const Tf32WsVariant& v, const Tf32WsPlan& plan, int resident_clusters, int m, int n,
                                int k, const Tf32WsModel& model = {}) {
  if (v.k_tile_cost <= 0 || resident_clusters < 1 || !v.persistent) return std::numeric_limits<double>::infinity();
  const auto ceil_div = [](long long a, long long b) { return (a + b - 1) / b; };
  const long long units = ceil_div(ceil_div(m, v.block_m), v.cluster_m) * ceil_div(ceil_div(n, v.block_n), v.cluster_n);
  const long long k_tiles = ceil_div(k, 32);
  const int g = resident_clusters;
  // A variant of several CTAs an SM whose grid leaves each CTA an SM of its
  // own runs its k-tiles at the lone CTA's pace.
  const long long work = units * std::max(plan.splits, 1);
  const bool alone = v.ctas_per_sm > 1 && v.k_tile_cost_alone > 0 && std::min<long long>(work, g) * v.ctas_per_sm <= g;
  const bool three_m = v.cluster_m == 2 && ceil_div(m, v.block_m) == 3;
  const double k_tile_cost = (alone ? v.k_tile_cost_alone : v.k_tile_cost) * (three_m ? model.pair_m_three : 1);
  if (plan.splits > 1) {
    const double cells = double(m) * n;
    if (cells * plan.splits > double(kWsSplitKFloats)) return std::numeric_limits<double>::infinity();
    const ws::WorkSchedule s = ws::split_k_schedule(int(units), int(k_tiles), g, plan.splits);
    const double steps = double(ceil_div(units * s.splits, g)) * (double(s.chunk) + model.piece);
    // The second kernel reads every copy and writes C.
    return steps * k_tile_cost + model.split_launch + 4.0 * cells * (s.splits + 1) / model.split_bytes;
  }
  const double whole = double(k_tiles) + model.piece;  // a whole unit, its start and end included
  if (plan.tail > 1) {
    const ws::WorkSchedule s = ws::tail_schedule(int(units), int(k_tiles), g, plan.tail);
    if (s.sk_units > 0) {
      const int pieces = s.sk_clusters / s.sk_units;
      // The busiest cluster: its whole rounds, then a finisher's piece and the other pieces' partials.
      const double piece = double(ceil_div(k_tiles, pieces));
      return (double(s.whole_end() / g) * whole + piece * model.tail_step + model.piece +
              (pieces - 1) * model.partial) *
             k_tile_cost;
    }
    // Fewer than two pieces a unit fit, or the rounds are whole: the data-parallel grid, below.
  }
  double steps;  // the busiest cluster's cost, in its own k-tiles
  const int sk_units = plan.stream_k ? ws::stream_k_units(int(units), g) : 0;
  if (sk_units == 0) {
    steps = double(ceil_div(units, g)) * whole;
  } else {
    const double per_cluster = double(sk_units) * double(k_tiles) / g;  // stream-k steps each
    const double pieces = per_cluster / double(k_tiles) + 1;            // cut where units end
    const double partials = per_cluster < double(k_tiles) ? double(k_tiles) / per_cluster : 1;  // a finisher's reads
    steps = double((units - sk_units) / g) * whole + per_cluster * model.stream_k_step + pieces * model.piece +
            partials * model.partial;
  }
  return steps * k_tile_cost;
}

// The plan of least modelled time; resident(i) is how many clusters of
// variant i are resident at once on this GPU. Starting from the shipped
// variant's data-parallel grid, a plan replaces the best so far only if it
// is 2% faster by the model: the model is rough.
template <class Resident>
Tf32WsPlan tf32_ws_plan(int m, int n, int k, std::span<const Tf32WsVariant> variants, Resident&& resident,
                        const Tf32WsModel& model = {}) {
  Tf32WsPlan best{0, false, 1};
  double best_cost = tf32_ws_plan_cost(variants[0], best, resident(0), m, n, k, model);
  const auto weigh = [&](int i, const Tf32WsPlan& plan, int g) {
    const double cost = tf32_ws_plan_cost(variants[std::size_t(i)], plan, g, m, n, k, model);
    if (cost < best_cost * 0.98) {
      best = plan;
      best_cost = cost;
    }
  };
  for (int i = 0; i < int(variants.size()); ++i) {
    if (variants[std::size_t(i)].k_tile_cost <= 0) continue;
    const int g = resident(i);
    weigh(i, {i, false, 1}, g);
    if (variants[std::size_t(i)].whole_tiles_only) continue;  // no k cut for it
    // Stream-k on the variants of two CTAs an SM: never the best plan measured (run 33).
    if (variants[std::size_t(i)].ctas_per_sm == 1) {
      weigh(i, {i, true, 1}, g);
      // The tail splits, each cut to what the shape's last round leaves room for.
      for (const int t : ws::kTailPieces) weigh(i, {i, false, 1, t}, g);
    }
    for (const int s : kTf32WsSplits)
      if (s * 2 <= (k + 31) / 32) weigh(i, {i, false, s}, g);  // at least two k-tiles a piece
  }
  return best;
}

// e.g. "128x128 s6 g8 cn2 sk", "128x128 s6 g8 cn2 split 16", "256x128 s4 g8 cn2 tail 4".
inline std::string tf32_ws_plan_name(const Tf32WsPlan& plan, std::span<const Tf32WsVariant> variants) {
  std::string name(variants[std::size_t(plan.variant)].name);
  if (plan.splits > 1) return name + " split " + std::to_string(plan.splits);
  if (plan.tail > 1) return name + " tail " + std::to_string(plan.tail);
  return name + (plan.stream_k ? " sk" : "");
}

}  // namespace ts::ladder
