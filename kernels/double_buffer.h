// double_buffer.h — warptiling fed by a cp.async pipeline (the ladder's
// double-buffer rung, as a course would print it). The block, warp and thread
// tiles of kernels/warptile.h, with STAGES shared buffers: while the warps
// multiply out of one k-tile, the copies of the next STAGES - 1 k-tiles are in
// flight (cp.async: global -> shared without passing through registers), so
// loads and math overlap instead of taking turns. One barrier per k-tile, after
// its multiply-adds: it says both "the next tile has landed for everyone" and
// "everyone is done with the buffer refilled next". A is copied transposed (4 bytes at a time),
// B 16 bytes at a time; slots past the matrices are zero-filled. K and N must
// be multiples of 4; any M. (The benchmark's tuned double-buffer kernel,
// kernels/ladder/double_buffer.cuh, is this with the copies spread between
// the multiply-adds and every instruction beside them counted.)
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES>
TS_DEVICE inline void matmul_double_buffer(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  constexpr int kLanesM = WM / TM, kLanesN = WN / TN;  // a warp's lanes as a kLanesM x kLanesN grid
  static_assert(kLanesM * kLanesN == 32 && TM % 4 == 0 && TN % 4 == 0, "32 lanes of 4 x 4 pieces");
  static_assert(BM * BK % (4 * kThreads) == 0 && BK * BN % (4 * kThreads) == 0, "threads copy whole float4 tiles");
  static_assert(STAGES >= 2, "a pipeline needs a buffer to fill and one to read");
  TS_SHARED_ALIGNED(float, As, STAGES * BK, BM + 4);  // stage s: rows s * BK ..; transposed, As[k][m], padded
  TS_SHARED_ALIGNED(float, Bs, STAGES * BK, BN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / kWarpsN * WM, warpCol = warp % kWarpsN * WN;  // the warp tile in the block tile
  const int laneRow = lane / kLanesN * 4, laneCol = lane % kLanesN * 4;    // the lane's first piece in it
  const int tiles = (K + BK - 1) / BK;

  // Issues the copies of k-tile `tile` into buffer `stage`; they land by a later cp_async_wait.
  const auto load_tile = [&](int tile, int stage) {
    const int k0 = tile * BK, s0 = stage * BK;
    TS_UNROLL for (int e = threadIdx.x; e < BM * BK / 4; e += kThreads) {
      const int r = e / (BK / 4), c = e % (BK / 4) * 4;
      const int a = (row0 + r) * K + k0 + c;
      TS_UNROLL for (int i = 0; i < 4; ++i) {  // [load] A transposed: four 4-byte copies
        if (row0 + r < M && k0 + c < K) cp_async4(As[s0 + c + i][r], A[a + i]);
        else                            cp_async4_zero(As[s0 + c + i][r]);
      }
    }
    TS_UNROLL for (int e = threadIdx.x; e < BK * BN / 4; e += kThreads) {
      const int r = e / (BN / 4), c = e % (BN / 4) * 4;
      if (k0 + r < K && col0 + c < N) cp_async16(Bs[s0 + r][c], B[(k0 + r) * N + col0 + c]);  // [load]
      else                            cp_async16_zero(Bs[s0 + r][c]);
    }
  };

  float threadResults[TM][TN] = {};
  float regM[TM], regN[TN];
  TS_UNROLL for (int s = 0; s < STAGES - 1; ++s) {  // the prologue: the first STAGES - 1 tiles in flight
    if (s < tiles) load_tile(s, s);
    cp_async_commit();  // an empty group where there are fewer tiles: the waits count groups
  }
  cp_async_wait<STAGES - 2>();  // tile 0 has landed for this thread ...
  __syncthreads();              // [barrier] ... and for all
  for (int t = 0; t < tiles; ++t) {
    // Refill the buffer everyone finished reading before the last barrier.
    if (t + STAGES - 1 < tiles) load_tile(t + STAGES - 1, (t + STAGES - 1) % STAGES);
    cp_async_commit();
    const int s0 = t % STAGES * BK;
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      TS_UNROLL for (int p = 0; p < TM / 4; ++p) {  // [mac] the lane's pieces of A, then of B, as float4
        const float4 m4 = load4(As[s0 + k][warpRow + p * kLanesM * 4 + laneRow]);
        regM[4 * p + 0] = m4.x, regM[4 * p + 1] = m4.y, regM[4 * p + 2] = m4.z, regM[4 * p + 3] = m4.w;
      }
      TS_UNROLL for (int p = 0; p < TN / 4; ++p) {
        const float4 n4 = load4(Bs[s0 + k][warpCol + p * kLanesN * 4 + laneCol]);
        regN[4 * p + 0] = n4.x, regN[4 * p + 1] = n4.y, regN[4 * p + 2] = n4.z, regN[4 * p + 3] = n4.w;
      }
      TS_UNROLL for (int i = 0; i < TM; ++i)
        TS_UNROLL for (int j = 0; j < TN; ++j) threadResults[i][j] += regM[i] * regN[j];  // the outer product
    }
    cp_async_wait<STAGES - 2>();  // tile t + 1 has landed for this thread ...
    __syncthreads();              // [barrier] ... and for all; all are done reading buffer t % STAGES
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
