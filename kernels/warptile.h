// warptile.h — warptiling (seed 004's ladder, kernel 10).
// A BM x BN block tile is split among warps of WM x WN; inside a warp each
// lane computes a TM x TN patch made of 4 x 4 pieces spread over the warp
// tile (lane l's pieces start kLanesM * 4 rows and kLanesN * 4 columns
// apart), so that for every k the warp's float4 reads of As and Bs touch at
// most 8 distinct float4 and the rest are broadcasts: no bank conflicts. The
// block -> warp -> thread hierarchy mirrors the GPU's. Tiles are staged with
// float4 loads, A transposed and padded by 4 words a row (the transposed
// stores conflict 2-way, not 4-way). One buffer: loads and math take turns.
// The fragments are double-buffered in registers: k + 1's are read from
// shared memory while k's multiply-adds issue, as in the benchmark-only kernel
// this rung replaced (docs/ladder-notes.md, "plain-build parity").
// K and N must be multiples of 4; any M.
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
TS_DEVICE inline void matmul_warptile(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  constexpr int kLanesM = WM / TM, kLanesN = WN / TN;  // a warp's lanes as a kLanesM x kLanesN grid
  static_assert(kLanesM * kLanesN == 32 && TM % 4 == 0 && TN % 4 == 0, "32 lanes of 4 x 4 pieces");
  static_assert(BM * BK % (4 * kThreads) == 0 && BK * BN % (4 * kThreads) == 0, "threads stage whole float4 tiles");
  TS_SHARED_ALIGNED(float, As, BK, BM + 4);  // transposed, As[k][m], 4 words of padding a row
  TS_SHARED_ALIGNED(float, Bs, BK, BN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / kWarpsN * WM, warpCol = warp % kWarpsN * WN;  // the warp tile in the block tile
  const int laneRow = lane / kLanesN * 4, laneCol = lane % kLanesN * 4;    // the lane's first piece in it
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float threadResults[TM][TN] = {};
  float regM[2][TM], regN[2][TN];  // k's fragments and k + 1's
  // The lane's pieces of A, then of B, at k, read as float4.
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
  for (int k0 = 0; k0 < K; k0 += BK) {
    TS_UNROLL for (int i = 0; i < BM * BK / (4 * kThreads); ++i) {
      const int e = threadIdx.x + i * kThreads, r = e / (BK / 4), c = e % (BK / 4) * 4;
      const float4 a = row0 + r < M && k0 + c < K ? load4(A[(row0 + r) * K + k0 + c]) : zero;  // [load]
      As[c + 0][r] = a.x, As[c + 1][r] = a.y, As[c + 2][r] = a.z, As[c + 3][r] = a.w;
    }
    TS_UNROLL for (int i = 0; i < BK * BN / (4 * kThreads); ++i) {
      const int e = threadIdx.x + i * kThreads, r = e / (BN / 4), c = e % (BN / 4) * 4;
      store4(Bs[r][c], k0 + r < K && col0 + c < N ? load4(B[(k0 + r) * N + col0 + c]) : zero);  // [load]
    }
    __syncthreads();  // [barrier] the tiles are complete
    load_fragments(0, regM[0], regN[0]);
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      if (k + 1 < BK) load_fragments(k + 1, regM[(k + 1) % 2], regN[(k + 1) % 2]);  // while k's FMAs issue
      TS_UNROLL for (int i = 0; i < TM; ++i)
        TS_UNROLL for (int j = 0; j < TN; ++j) threadResults[i][j] += regM[k % 2][i] * regN[k % 2][j];  // the outer product
    }
    __syncthreads();  // [barrier] everyone is done reading before the next load
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
