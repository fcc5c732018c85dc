// tf32_wgmma_ws_variants.h — the configurations of tf32-wgmma-ws
// (tf32_wgmma_ws.cuh) that are compiled, as plain data: tf32_wgmma_ws.cu
// instantiates the kernel from this table (index 0 is the shipped one, the
// ladder's `tf32-wgmma-ws`), tf32_ws_tune times them side by side, and
// tests/kernels/tf32_wgmma_ws_layout_test.cpp checks each one's shared-memory
// carve-up on the host, without CUDA.
#pragma once

#include <string_view>

#include "kernels/ladder/tf32_wgmma_ws_layout.h"

namespace ts::ladder {

struct Tf32WsVariant {
  std::string_view name;  // e.g. "256x128 s4 g8", "... cn2" (cluster of 2 along n), "... grid=tiles"
  int block_m, block_n;   // the tile of C one CTA owns (block_n: 64 per column group of each consumer)
  int stages, group_m;
  int cluster_m, cluster_n;  // CTAs per cluster along m (sharing B) and n (sharing A)
  bool persistent;           // one CTA per resident slot walking the tiles, else one CTA per tile
  // The plan rule's (tf32_wgmma_ws_plan.h) time of one k-tile of one CTA, in
  // k-tiles of the shipped variant; 0: the rule never picks this variant.
  double k_tile_cost = 0;
  int consumers = 2;    // consumer warpgroups, each owning block_n / consumers columns
  int ctas_per_sm = 1;  // the launch bounds: CTAs meant to be resident on one SM
  // With ctas_per_sm > 1: the rule's k-tile time of a CTA that has its SM to
  // itself (a grid of at most one CTA an SM); k_tile_cost is that of one sharing it.
  double k_tile_cost_alone = 0;
  // The rule weighs it only as whole tiles, a grid with no k cut (no
  // stream-k, tail split or split-k).
  bool whole_tiles_only = false;
};

// Index 0 is shipped: 256 x 128 (two consumers of 64 columns x 256 rows, one
// m64n256k8 each per 8 k, 128 accumulators per thread), 4 stages of 48 KB,
// groups of 8 tile rows, persistent, in clusters of 2 along n that share A's
// tile through TMA multicast (32 KB per CTA per k-tile from L2 instead of 48).
// Chosen on an H100 (2026-11-25, tf32_ws_tune): 93.3% / 96.0% of cuBLAS TF32 at
// 4096^3 / 8192^3 (93.4% / 97.7% timed in alternating rounds), the best of the
// table at both; without the cluster 89.5% / 87.4% (89.9% / 97.3%).
// docs/ladder-notes.md has every run. The rest are the questions asked of the GPU;
// those with a k_tile_cost are also weighed by the plan rule (run 31).
inline constexpr Tf32WsVariant kTf32WsVariants[] = {
    {"256x128 s4 g8 cn2", 256, 128, 4, 8, 1, 2, true, 1.0},  // a pair along n shares A's 32 KB per stage
    {"256x128 s4 g8", 256, 128, 4, 8, 1, 1, true},
    {"256x128 s4 g8 grid=tiles", 256, 128, 4, 8, 1, 1, false},  // the same kernel, one CTA per tile
    {"256x128 s4 g8 cn2 grid=tiles", 256, 128, 4, 8, 1, 2, false},  // cn2, one cluster per pair of tiles
    {"128x256 s4 g8", 128, 256, 4, 8, 1, 1, true},
    {"256x128 s3 g8", 256, 128, 3, 8, 1, 1, true},
    {"256x128 s4 g16", 256, 128, 4, 16, 1, 1, true},
    {"128x256 s4 g8 cm2", 128, 256, 4, 8, 2, 1, true},  // a pair along m shares B's 32 KB per stage
    {"256x128 s4 g8 cm2", 256, 128, 4, 8, 2, 1, true},  // a pair along m shares B's 16 KB per stage
    // Narrower tiles for narrow C (issue: skinny and small GEMMs): half the
    // rows (a decode-sized M of 128 fills them), each pair along n sharing A.
    {"128x256 s4 g8 cn2", 128, 256, 4, 8, 1, 2, true, 1.232},
    {"128x128 s6 g8 cn2", 128, 128, 6, 8, 1, 2, true, 0.663},
    // The same tile paired along m (sharing B): where C is narrow (n up to a
    // few hundred), a pair along n would leave its second CTA without a tile.
    {"128x128 s6 g8 cm2", 128, 128, 6, 8, 2, 1, true, 0.632},
    // A side just past 128 (m or n of 129 to 192, or of 257 to 384): 128-wide
    // tiles compute up to half padding there. 192 rows (one m64n192k8 a
    // consumer per 8 k), and 192 columns (three consumers of 64, 512 threads
    // of 152 registers). Their costs were set from their work (3/4 of the
    // shipped tile's) before they ran; with them, at the 35 of 170 shapes where
    // the rule picks these tiles, it ran 10% faster at the median than the rule
    // without them (29 faster, the worst 16% slower: 472x5596x3344, 114.9% ->
    // 96.8% of cuBLAS TF32; docs/ladder-notes.md run 33).
    {"192x128 s4 g8 cn2", 192, 128, 4, 8, 1, 2, true, 0.806},
    {"128x192 s4 g8 cm2", 128, 192, 4, 8, 2, 1, true, 0.852, 3},
    // "2/sm": one consumer warpgroup and two CTAs on each SM (each with half the
    // registers and at most half the shared memory), so that one CTA's epilogue
    // and pipeline fill run under the other's main loop; and small tiles of
    // 128 x 64 (pairs along m) or 64 x 128 (pairs along n), for C of a few
    // dozen 128 x 128 tiles, n or m just past a multiple of 128, and short k.
    // Run 33 (H200): the small tiles of two CTAs an SM reach only 45-65% of
    // cuBLAS TF32 at large shapes (each fragment load feeds a quarter of the
    // shipped tile's multiply-adds), so the rule weighed them as 0.8 a k-tile
    // when they share their SM and 0.45 / 0.4 where the grid leaves each CTA
    // an SM of its own: 1024^3 ran 98% of cuBLAS on 128 x 64 tiles, against
    // 78% for the best of the 128-wide tiles. The rule never runs them with stream-k.
    // Every cost the rule weighs (the tiles' here, the model's in
    // tf32_wgmma_ws_plan.h) was refitted in run 35 (H200) to 274 shapes timed
    // with every plan of these eight tiles: the rule had picked the 64x128
    // tile where wider ones ran 10 to 40% faster (256x3968x3456: 81.7% of
    // cuBLAS TF32 against 115.5% on 128x128 cm2 split 2). Fitted on either
    // half of the shapes, the costs cut the other half's loss by 23 and 27%.
    {"128x64 s4 g8 cm2 2/sm", 128, 64, 4, 8, 2, 1, true, 0.842, 1, 2, 0.495},
    {"64x128 s4 g8 cn2 2/sm", 64, 128, 4, 8, 1, 2, true, 0.842, 1, 2, 0.558},
    // 128 x 128 of one consumer, two CTAs an SM of 3 stages each, meant for
    // short k (its epilogue under the other CTA's main loop). Run 33: ahead of
    // the other tiles at 2 of 115 shapes, by 3-5%; the rule does not weigh it.
    {"128x128 s3 g8 cn2 2/sm", 128, 128, 3, 8, 1, 2, true, 0, 1, 2},
    // 64 x 128 of two consumers (64 columns each, one m64n64k8 per 8 k), one
    // CTA an SM with 8 stages of 24 KB, in pairs along m sharing B: cuBLAS
    // TF32's tile at 1024^3 (a segment-k kernel of 64x128x32 tiles, 128 CTAs
    // of 384 threads, 17.6 us under Nsight Compute against 21.7 for the
    // rule's pick then, 128x128 cm2 tail 2; run 45). Where C is a wave or so
    // of its tiles it is the fastest plan (1024^3 15.4 us, 104% of cuBLAS
    // TF32; 896x1152x1792 21.9 against 27.4), and 0.6 of the shipped tile's
    // pace at large shapes. Weighed at 0.40, and as whole tiles only: timed
    // where the rule would pick it (calls 117 and 118, 112 shapes), its grid
    // ran +7.8 and +9.0 points of cuBLAS TF32 ahead of the pick before at the
    // mean (46 and 28 shapes, 8 slower), its tail splits +3.7 and -2.6
    // (2176x640x3072 96.1 -> 80.9%), its splits +0.9 and -0.05. (The same tile
    // paired along n ran behind it at all 20 shapes of call 116: not compiled.)
    {"64x128 s8 g8 cm2", 64, 128, 8, 8, 2, 1, true, 0.40, 2, 1, 0, true},
};

constexpr ws::SharedPlan shared_plan(const Tf32WsVariant& v) {
  return {v.block_m, v.block_n, v.stages, v.cluster_m, v.cluster_n, v.ctas_per_sm};
}

}  // namespace ts::ladder
