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
  int block_m, block_n;   // the tile of C one CTA owns (block_n: 128 per 64-column group of each of 2 consumers)
  int stages, group_m;
  int cluster_m, cluster_n;  // CTAs per cluster along m (sharing B) and n (sharing A)
  bool persistent;           // one CTA per resident slot walking the tiles, else one CTA per tile
  // The plan rule's (tf32_wgmma_ws_plan.h) time of one k-tile of one CTA, in
  // k-tiles of the shipped variant; 0: the rule never picks this variant.
  double k_tile_cost = 0;
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
    {"128x256 s4 g8 cn2", 128, 256, 4, 8, 1, 2, true, 1.3},
    {"128x128 s6 g8 cn2", 128, 128, 6, 8, 1, 2, true, 0.6},
    // The same tile paired along m (sharing B): where C is narrow (n up to a
    // few hundred), a pair along n would leave its second CTA without a tile.
    {"128x128 s6 g8 cm2", 128, 128, 6, 8, 2, 1, true, 0.6},
};

constexpr ws::SharedPlan shared_plan(const Tf32WsVariant& v) {
  return {v.block_m, v.block_n, v.stages, v.cluster_m, v.cluster_n};
}

}  // namespace ts::ladder
