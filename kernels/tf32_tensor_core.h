// tf32_tensor_core.h — ladder rung 6 (seed 004): warp tiles multiplied on the
// tensor cores. The block stages BM x BK tiles of A and BK x BN tiles of B in
// shared memory through a STAGES-deep cp.async pipeline (rung 5's), and each
// warp multiplies its WM x WN piece of C with mma.sync m16n8k8 instructions:
// TF32 inputs (10-bit mantissa), FP32 accumulation (kernels/api/mma.h). Rows
// of As and Bs are padded (by 4 and 8 words) so that the fragments are read
// without bank conflicts. K and N must be multiples of 4 (16-byte copies); any M.
#pragma once
#include "kernels/api/block_order.h"
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

template <int BM, int BN, int BK, int WM, int WN, int STAGES, int GROUP_M>
TS_DEVICE inline void matmul_tf32_tensor_core(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kThreads = 32 * (BM / WM) * (BN / WN);
  constexpr int kLda = BK + 4, kLdb = BN + 8;         // padded rows
  constexpr int kTilesM = WM / 16, kTilesN = WN / 8;  // a warp's mma tiles (16 x 8 cells each)
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 8 == 0 && BK % 8 == 0, "tiles nest");
  static_assert(BM * BK % (4 * kThreads) == 0 && BK * BN % (4 * kThreads) == 0, "threads copy whole tiles");
  static_assert(4 * kThreads % BK == 0 && 4 * kThreads % BN == 0, "each pass copies whole rows");
  static_assert(STAGES >= 2, "at least double buffering");
  TS_SHARED_DYNAMIC(float, As, STAGES * BM, kLda, 0);  // STAGES tiles of BM x BK, then
  TS_SHARED_DYNAMIC(float, Bs, STAGES * BK, kLdb, STAGES * BM * kLda);  // STAGES tiles of BK x BN

  // Blocks walk down GROUP_M block rows before moving one block column right,
  // so the blocks resident at once share their rows of A and columns of B in L2.
  const GroupedTile tile_of_c = grouped_block_tile(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, GROUP_M);
  const int row0 = tile_of_c.row * BM, col0 = tile_of_c.col * BN;
  const int t = threadIdx.x, warp = t / 32;
  const int warp_row = warp / (BN / WN) * WM, warp_col = warp % (BN / WN) * WN;

  // k-tile `tile` into buffer `stage`: 16-byte copies, zeros past the edges.
  // Pass i copies float4 number t + i * kThreads of the tile: thread t keeps
  // its column and moves down by the rows a pass covers (the same addresses as
  // counting e = t + i * kThreads, with row and column math done once).
  const auto load_tile = [&](int stage, int tile) {
    const int k0 = tile * BK;
    TS_UNROLL
    for (int i = 0; i < BM * BK / (4 * kThreads); ++i) {
      const int r = t / (BK / 4) + i * (4 * kThreads / BK), c = t % (BK / 4) * 4;
      const bool in = row0 + r < M && k0 + c < K;
      cp_async16_or_zero(As[stage * BM + r][c], A[in ? (row0 + r) * K + k0 + c : 0], in);  // [load]
    }
    TS_UNROLL
    for (int i = 0; i < BK * BN / (4 * kThreads); ++i) {
      const int r = t / (BN / 4) + i * (4 * kThreads / BN), c = t % (BN / 4) * 4;
      const bool in = k0 + r < K && col0 + c < N;
      cp_async16_or_zero(Bs[stage * BK + r][c], B[in ? (k0 + r) * N + col0 + c : 0], in);  // [load]
    }
  };

  FragC acc[kTilesM][kTilesN] = {};
  const int tiles = (K + BK - 1) / BK;
  TS_UNROLL
  for (int s = 0; s < STAGES - 1; ++s) {  // the first STAGES - 1 k-tiles in flight
    if (s < tiles) load_tile(s, s);
    cp_async_commit();  // an empty group where there are fewer tiles: the waits count groups
  }
  for (int tile = 0; tile < tiles; ++tile) {
    cp_async_wait<STAGES - 2>();  // this thread's copies of `tile` have landed ...
    __syncthreads();              // [barrier] ... and everyone's; the buffer refilled next is free
    const int next = tile + STAGES - 1;
    if (next < tiles) load_tile(next % STAGES, next);
    cp_async_commit();
    const int stage = tile % STAGES;
    TS_UNROLL
    for (int kk = 0; kk < BK; kk += 8) {
      FragA a[kTilesM];
      FragB b[kTilesN];
      TS_UNROLL
      for (int i = 0; i < kTilesM; ++i) load_matrix_a(a[i], As, stage * BM + warp_row + i * 16, kk);  // [fragment]
      TS_UNROLL
      for (int j = 0; j < kTilesN; ++j) load_matrix_b(b[j], Bs, stage * BK + kk, warp_col + j * 8);  // [fragment]
      TS_UNROLL
      for (int i = 0; i < kTilesM; ++i)
        TS_UNROLL
        for (int j = 0; j < kTilesN; ++j) mma_tf32(acc[i][j], a[i], b[j]);  // [mma]
    }
  }
  cp_async_wait<0>();  // no copy may outlive the block

  // Each lane holds rows group and group + 8, columns 2 quad and 2 quad + 1 of every mma tile.
  const int group = t % 32 / 4, quad = t % 4;
  TS_UNROLL
  for (int i = 0; i < kTilesM; ++i)
    TS_UNROLL
    for (int j = 0; j < kTilesN; ++j) {
      const int col = col0 + warp_col + j * 8 + 2 * quad;
      TS_UNROLL
      for (int h = 0; h < 2; ++h) {
        const int row = row0 + warp_row + i * 16 + group + 8 * h;
        if (row < M && col < N) store2(C[row * N + col], make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]));  // [store]
      }
    }
}

}  // namespace TS_KERNEL_NS
