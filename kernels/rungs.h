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
  int a_pad = 0, b_pad = 0;    // words of padding after each row of As, of Bs
  int shared_reads_per_k = 0;  // floats a thread reads from shared memory per k
  // The k-loop's barriers (IterationRule): per k-tile, and before the first
  // tile's reads; a pipeline's copies run ahead, their loads stamped by k-tile.
  int barriers_per_tile = 2, barriers_before = 0;
  bool loads_ahead = false;
  // Block order: 0, a 2D grid laid out like C's block tiles (blockIdx.x -> block
  // column, y -> row); G > 0, a 1D grid whose blocks walk down G block rows before
  // moving one block column right (block_tile_of in catalog.h has the formula).
  int group_m = 0;
  bool tf32 = false;  // mma.sync on TF32 inputs: C within TF32 rounding of A x B; needs sm_80
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
    // 64 x 64 x 16 in 4 warps of 32 x 32, each 2 x 4 mma tiles of 16 x 8: the
    // benchmark's shipped shape (128 x 256 x 32, warps of 64 x 64, 3 stages,
    // groups of 8) at a quarter of its size, so that its 3 stages fit the 48 KB
    // of static shared memory the recorded builds declare (29 KB), and with
    // groups of 2 block rows so that the block order (and a ragged last group)
    // shows at the sizes a trace holds. A lane holds rows group + 8 h + 16 i and
    // columns 2 quad + c + 8 j of its warp tile: TM x TN = WM / 8 x WN / 4 cells.
    // Per k-step of 8 a lane reads 4 A elements per mma row and 2 B per column:
    // (2 * 4 + 4 * 2) / 8 = 2 floats per k. One barrier per k-tile, before its
    // reads: the first k-tile's comes after the prologue's copies.
    case KernelKind::Tf32TensorCore:
      return {.bm = 64, .bn = 64, .bk = 16, .tm = 4, .tn = 8, .wm = 32, .wn = 32, .stages = 3, .threads = 128,
              .multiple_of = 4, .a_pad = 4, .b_pad = 8, .shared_reads_per_k = 2, .barriers_per_tile = 1,
              .barriers_before = 1, .loads_ahead = true, .group_m = 2, .tf32 = true};
    default: return {};
  }
}

constexpr bool is_rung(KernelKind kind) { return rung_config(kind).threads != 0; }

// The most threads a block of this kind has: the __launch_bounds__ of its CUDA builds.
constexpr int max_block_threads(KernelKind kind) { return is_rung(kind) ? rung_config(kind).threads : 1024; }

}  // namespace ts
