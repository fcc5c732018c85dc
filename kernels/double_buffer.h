// double_buffer.h — warptiling fed by a cp.async pipeline (the ladder's
// double-buffer rung, as a course would print it). The block, warp and thread
// tiles of kernels/warptile.h, with STAGES shared buffers: while the warps
// multiply out of one k-tile, the copies of the next STAGES - 1 k-tiles are in
// flight (cp.async: global -> shared without passing through registers), so
// loads and math overlap instead of taking turns. One barrier per k-tile, after
// its multiply-adds: it says both "the next tile has landed for everyone" and
// "everyone is done with the buffer refilled next". With two buffers the refill
// is issued before the multiply-adds, or nothing would overlap them; with three
// or more it is issued after them, while the tiles in between are in flight:
// the compiler then spreads the copies among the last k's multiply-adds, and the
// next tile's first fragment reads do not wait behind them (a cp.async writes
// shared memory, so no later shared read moves above it). A is copied transposed, 4
// bytes at a time, a warp taking runs of 8 k of 4 rows (4 whole sectors read,
// 32 different banks written); B 16 bytes at a time; slots past the matrices
// are zero-filled. As in warptile.h, the fragments of k + 1 are read while k's
// multiply-adds issue. GROUP_M > 0: a one-dimensional grid in groups of GROUP_M
// block rows (kernels/api/block_order.h); 0: a grid laid out like C's tiles.
// K and N must be multiples of 4; any M. The app records a small configuration
// (kernels/rungs.h); the benchmark times this listing at a large one
// (kernels/ladder/double_buffer.cu), with its tiles in dynamic shared memory.
#pragma once
#include "kernels/api/block_order.h"
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, int GROUP_M>
TS_DEVICE inline void matmul_double_buffer(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  constexpr int kLanesM = WM / TM, kLanesN = WN / TN;  // a warp's lanes as a kLanesM x kLanesN grid
  static_assert(kLanesM * kLanesN == 32 && TM % 4 == 0 && TN % 4 == 0, "32 lanes of 4 x 4 pieces");
  static_assert(BK % 8 == 0 && kThreads % 8 == 0 && BM % (kThreads / 8) == 0, "threads copy A in whole runs of 8 k");
  static_assert(kThreads % (BN / 4) == 0 && BK % (kThreads / (BN / 4)) == 0, "threads copy whole rows of B");
  static_assert(STAGES >= 2, "a pipeline needs a buffer to fill and one to read");
  constexpr int kLda = BM + 4;  // As's rows padded by 4 words
  TS_SHARED_DYNAMIC(float, As, STAGES * BK, kLda, 0);  // stage s: rows s * BK ..; transposed, As[k][m]
  TS_SHARED_DYNAMIC(float, Bs, STAGES * BK, BN, STAGES * BK * kLda);
  int blockRow = blockIdx.y, blockCol = blockIdx.x;
  if constexpr (GROUP_M > 0) {
    const GroupedTile tile = grouped_block_tile(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, GROUP_M);
    blockRow = tile.row, blockCol = tile.col;
  }
  const int row0 = blockRow * BM, col0 = blockCol * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / kWarpsN * WM, warpCol = warp % kWarpsN * WN;  // the warp tile in the block tile
  const int laneRow = lane / kLanesN * 4, laneCol = lane % kLanesN * 4;    // the lane's first piece in it
  const int tiles = (K + BK - 1) / BK;

  // This thread's copies, the same in every k-tile: A transposed in runs of
  // 8 k (aK) of rows aRow, aRow + kARows, ...; B as float4 at column bCol of
  // rows bRow, bRow + kBRows, ... (a warp: 8 k of 4 rows of A; 32 float4 of a row of B).
  constexpr int kARows = kThreads / 8, kBRows = kThreads / (BN / 4);
  const int aRow = threadIdx.x / 8, aK = threadIdx.x % 8;
  const int bRow = threadIdx.x / (BN / 4), bCol = threadIdx.x % (BN / 4) * 4;
  // Issues the copies of k-tile `tile` into buffer `stage`; they land by a later cp_async_wait.
  const auto load_tile = [&](int tile, int stage) {
    const int k0 = tile * BK, s0 = stage * BK;
    TS_UNROLL for (int h = 0; h < BK / 8; ++h)
      TS_UNROLL for (int p = 0; p < BM / kARows; ++p) {
        const int r = aRow + p * kARows, c = aK + 8 * h;
        const bool in = row0 + r < M && k0 + c < K;
        cp_async4_or_zero(As[s0 + c][r], A[in ? (row0 + r) * K + k0 + c : 0], in);  // [load]
      }
    TS_UNROLL for (int q = 0; q < BK / kBRows; ++q) {
      const int r = bRow + q * kBRows;
      const bool in = k0 + r < K && col0 + bCol < N;
      cp_async16_or_zero(Bs[s0 + r][bCol], B[in ? (k0 + r) * N + col0 + bCol : 0], in);  // [load]
    }
  };

  float threadResults[TM][TN] = {};
  float regM[2][TM], regN[2][TN];  // k's fragments and k + 1's
  // The lane's pieces of A, then of B, at row `k` of the buffers, read as float4.
  const auto load_fragments = [&](int k, float (&m)[TM], float (&n)[TN]) {
    TS_UNROLL for (int p = 0; p < TM / 4; ++p) {  // [mac] registers from shared
      const float4 m4 = load4(As[k][warpRow + p * kLanesM * 4 + laneRow]);
      m[4 * p + 0] = m4.x, m[4 * p + 1] = m4.y, m[4 * p + 2] = m4.z, m[4 * p + 3] = m4.w;
    }
    TS_UNROLL for (int p = 0; p < TN / 4; ++p) {
      const float4 n4 = load4(Bs[k][warpCol + p * kLanesN * 4 + laneCol]);
      n[4 * p + 0] = n4.x, n[4 * p + 1] = n4.y, n[4 * p + 2] = n4.z, n[4 * p + 3] = n4.w;
    }
  };
  TS_UNROLL for (int s = 0; s < STAGES - 1; ++s) {  // the prologue: the first STAGES - 1 tiles in flight
    if (s < tiles) load_tile(s, s);
    cp_async_commit();  // an empty group where there are fewer tiles: the waits count groups
  }
  cp_async_wait<STAGES - 2>();  // tile 0 has landed for this thread ...
  __syncthreads();              // [barrier] ... and for all
  int stage = 0;                // the buffer holding tile t
  for (int t = 0; t < tiles; ++t) {
    // Refill the buffer everyone finished reading before the last barrier.
    const int refill = stage == 0 ? STAGES - 1 : stage - 1;
    const bool refill_due = t + STAGES - 1 < tiles;
    if (STAGES == 2 && refill_due) load_tile(t + STAGES - 1, refill);  // two buffers: before the multiply-adds
    const int s0 = stage * BK;
    load_fragments(s0, regM[0], regN[0]);
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      if (k + 1 < BK) load_fragments(s0 + k + 1, regM[(k + 1) % 2], regN[(k + 1) % 2]);  // while k's FMAs issue
      TS_UNROLL for (int i = 0; i < TM; ++i)
        TS_UNROLL for (int j = 0; j < TN; ++j) threadResults[i][j] += regM[k % 2][i] * regN[k % 2][j];  // the outer product
    }
    if (STAGES > 2 && refill_due) load_tile(t + STAGES - 1, refill);  // more: after them
    cp_async_commit();            // this k-tile's copies (none near the end) form one group
    cp_async_wait<STAGES - 2>();  // tile t + 1 has landed for this thread ...
    __syncthreads();              // [barrier] ... and for all; all are done reading buffer `stage`
    stage = stage + 1 == STAGES ? 0 : stage + 1;
  }
  TS_UNROLL for (int i = 0; i < TM; ++i) {
    const int row = row0 + warpRow + i / 4 * kLanesM * 4 + laneRow + i % 4;
    TS_UNROLL for (int p = 0; p < TN / 4; ++p) {
      const int col = col0 + warpCol + p * kLanesN * 4 + laneCol;
      const float* r = &threadResults[i][4 * p];
      if (row < M && col < N) store4(C[row * N + col], make_float4(r[0], r[1], r[2], r[3]));  // [store]
    }
  }
}

}  // namespace TS_KERNEL_NS
