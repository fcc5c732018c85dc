// rungs.h — the fixed configuration of each recorded rung of the ladder: one
// source of the numbers for the kernel headers' instantiation (all_kernels.h),
// the catalog (launch shape, shared tiles, closed-form counts) and the
// benchmark. Plain constexpr data: compiled by g++ and nvcc alike.
#pragma once

#include "kernels/kernel_kind.h"

namespace ts {

struct RungConfig {
  int bm = 0, bn = 0, bk = 0;  // block tile of C (BM x BN) and the k-extent of a shared tile
  int tm = 1, tn = 1;          // thread tile: the cells of C one thread keeps in registers
  int wm = 0, wn = 0;          // warp tile (0: no warp tiling)
  int stages = 1;              // shared buffers (cp.async pipelines: more than 1)
  int threads = 0;             // per block, one-dimensional
  int multiple_of = 1;         // K and N must be multiples of this (float4 rows: 4)
  bool a_transposed = false;   // As stored k-major, As[k][m]
  int a_pad = 0;               // words of padding after each row of As
  int shared_reads_per_k = 0;  // floats a thread reads from shared memory per k
  // The k-loop's barriers (IterationRule): per k-tile, and before the first
  // tile's reads; a pipeline's copies run ahead, their loads stamped by k-tile.
  int barriers_per_tile = 2, barriers_before = 0;
  bool loads_ahead = false;
};

constexpr RungConfig rung_config(KernelKind kind) {
  switch (kind) {
    // 64 x 64 x 8, a column of 8 cells per thread: one Bs value feeds 8 FMAs.
    case KernelKind::Blocktile1d:
      return {.bm = 64, .bn = 64, .bk = 8, .tm = 8, .tn = 1, .threads = 512, .shared_reads_per_k = 8 + 1};
    // 128 x 128 x 8, 8 x 8 cells per thread: 16 shared reads feed 64 FMAs per k.
    case KernelKind::Blocktile2d:
      return {.bm = 128, .bn = 128, .bk = 8, .tm = 8, .tn = 8, .threads = 256, .shared_reads_per_k = 8 + 8};
    // blocktile-2d's tiles, every global access a float4 and the register reads too.
    case KernelKind::Vectorized:
      return {.bm = 128, .bn = 128, .bk = 8, .tm = 8, .tn = 8, .threads = 256, .multiple_of = 4,
              .a_transposed = true, .shared_reads_per_k = 8 + 8};
    // 128 x 128 x 16 in 8 warps of 64 x 32; a lane's 8 x 8 cells are 4 x 4 pieces.
    case KernelKind::Warptile:
      return {.bm = 128, .bn = 128, .bk = 16, .tm = 8, .tn = 8, .wm = 64, .wn = 32, .threads = 256,
              .multiple_of = 4, .a_transposed = true, .a_pad = 4, .shared_reads_per_k = 8 + 8};
    // warptile's tiles fed by a 2-stage cp.async pipeline: one barrier per k-tile.
    case KernelKind::DoubleBuffer:
      return {.bm = 128, .bn = 128, .bk = 16, .tm = 8, .tn = 8, .wm = 64, .wn = 32, .stages = 2, .threads = 256,
              .multiple_of = 4, .a_transposed = true, .a_pad = 4, .shared_reads_per_k = 8 + 8,
              .barriers_per_tile = 1, .barriers_before = 1, .loads_ahead = true};
    default: return {};
  }
}

constexpr bool is_rung(KernelKind kind) { return rung_config(kind).threads != 0; }

// The most threads a block of this kind has: the __launch_bounds__ of its CUDA builds.
constexpr int max_block_threads(KernelKind kind) { return is_rung(kind) ? rung_config(kind).threads : 1024; }

}  // namespace ts
