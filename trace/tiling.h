// tiling.h — how a kernel divides C among blocks, warps and threads, and how
// it walks K: what the app needs to draw a block tile, a warp tile and a
// thread's register tile next to the trace. Plain data, carried in the launch
// description (launch_json.cpp writes it as "tiling").
#pragma once

#include <cstdint>

namespace ts {

struct Tiling {
  std::uint32_t block_m = 0, block_n = 0;   // the BM x BN tile of C one block computes
  std::uint32_t block_k = 0;                // BK: the k-extent of one shared tile (0: no shared tiles)
  std::uint32_t thread_m = 1, thread_n = 1;  // TM x TN: the cells of C one thread accumulates in registers
  std::uint32_t warp_m = 0, warp_n = 0;     // WM x WN: one warp's tile of C (0: no warp tiling)
  std::uint32_t stages = 1;                 // shared buffers per tile (cp.async pipelines: more than 1)
  // As is stored k-major (As[k][m], A transposed) rather than As[m][k]: which
  // coordinate of an As element is its k.
  bool a_transposed = false;
  friend bool operator==(const Tiling&, const Tiling&) = default;
};

}  // namespace ts
