// double_buffer_trials.cuh — run 17's trials of kernels/double_buffer.h (the
// listing), plain build only, for ladder_tune. The listing as shipped issues a
// k-tile's 24 copies (and their address arithmetic) before the first fragment
// loads of the tile; the compiler keeps that order (a cp.async writes shared
// memory, a later shared read may not pass it), so after every barrier both
// warps of a scheduler spend ~250 issue slots and one shared-load latency
// before their first multiply-add. Trials:
//  - ORDER 1: the tile's first fragments read before the refill is issued,
//    so the first k's multiply-adds can start under the copies.
//  - ORDER 2: as 1, with B's copies issued halfway through the k-tile (two
//    runs of copies instead of one burst).
// Include after kernels/ladder/double_buffer_listing.cuh (the plain mode).
#pragma once

#include "kernels/ladder/double_buffer_listing.cuh"

namespace ts::plain {

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, int ORDER>
__device__ inline void matmul_double_buffer_trial(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  constexpr int kLanesM = WM / TM, kLanesN = WN / TN;
  static_assert(kLanesM * kLanesN == 32 && TM % 4 == 0 && TN % 4 == 0, "32 lanes of 4 x 4 pieces");
  static_assert(BK % 8 == 0 && kThreads % 8 == 0 && BM % (kThreads / 8) == 0, "threads copy A in whole runs of 8 k");
  static_assert(kThreads % (BN / 4) == 0 && BK % (kThreads / (BN / 4)) == 0, "threads copy whole rows of B");
  static_assert(STAGES >= 2, "a pipeline");
  constexpr int kLda = BM + 4;
  TS_SHARED_DYNAMIC(float, As, STAGES * BK, kLda, 0);
  TS_SHARED_DYNAMIC(float, Bs, STAGES * BK, BN, STAGES * BK * kLda);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / kWarpsN * WM, warpCol = warp % kWarpsN * WN;
  const int laneRow = lane / kLanesN * 4, laneCol = lane % kLanesN * 4;
  const int tiles = (K + BK - 1) / BK;
  constexpr int kARows = kThreads / 8, kBRows = kThreads / (BN / 4);
  const int aRow = threadIdx.x / 8, aK = threadIdx.x % 8;
  const int bRow = threadIdx.x / (BN / 4), bCol = threadIdx.x % (BN / 4) * 4;
  const auto load_a = [&](int tile, int stage) {
    const int k0 = tile * BK, s0 = stage * BK;
    TS_UNROLL for (int h = 0; h < BK / 8; ++h)
      TS_UNROLL for (int p = 0; p < BM / kARows; ++p) {
        const int r = aRow + p * kARows, c = aK + 8 * h;
        const bool in = row0 + r < M && k0 + c < K;
        cp_async4_or_zero(As[s0 + c][r], A[in ? (row0 + r) * K + k0 + c : 0], in);
      }
  };
  const auto load_b = [&](int tile, int stage) {
    const int k0 = tile * BK, s0 = stage * BK;
    TS_UNROLL for (int q = 0; q < BK / kBRows; ++q) {
      const int r = bRow + q * kBRows;
      const bool in = k0 + r < K && col0 + bCol < N;
      cp_async16_or_zero(Bs[s0 + r][bCol], B[in ? (k0 + r) * N + col0 + bCol : 0], in);
    }
  };
  float threadResults[TM][TN] = {};
  float regM[2][TM], regN[2][TN];
  const auto load_fragments = [&](int k, float (&m)[TM], float (&n)[TN]) {
    TS_UNROLL for (int p = 0; p < TM / 4; ++p) {
      const float4 m4 = load4(As[k][warpRow + p * kLanesM * 4 + laneRow]);
      m[4 * p + 0] = m4.x, m[4 * p + 1] = m4.y, m[4 * p + 2] = m4.z, m[4 * p + 3] = m4.w;
    }
    TS_UNROLL for (int p = 0; p < TN / 4; ++p) {
      const float4 n4 = load4(Bs[k][warpCol + p * kLanesN * 4 + laneCol]);
      n[4 * p + 0] = n4.x, n[4 * p + 1] = n4.y, n[4 * p + 2] = n4.z, n[4 * p + 3] = n4.w;
    }
  };
  TS_UNROLL for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) load_a(s, s), load_b(s, s);
    cp_async_commit();
  }
  cp_async_wait<STAGES - 2>();
  __syncthreads();
  int stage = 0;
  for (int t = 0; t < tiles; ++t) {
    const int refill = stage == 0 ? STAGES - 1 : stage - 1;
    const bool more = t + STAGES - 1 < tiles;
    const int s0 = stage * BK;
    if (ORDER == 0 && more) load_a(t + STAGES - 1, refill), load_b(t + STAGES - 1, refill);
    load_fragments(s0, regM[0], regN[0]);
    if (ORDER == 1 && more) load_a(t + STAGES - 1, refill), load_b(t + STAGES - 1, refill);
    if (ORDER == 2 && more) load_a(t + STAGES - 1, refill);
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      if (ORDER == 2 && k == BK / 2 && more) load_b(t + STAGES - 1, refill);
      if (k + 1 < BK) load_fragments(s0 + k + 1, regM[(k + 1) % 2], regN[(k + 1) % 2]);
      TS_UNROLL for (int i = 0; i < TM; ++i)
        TS_UNROLL for (int j = 0; j < TN; ++j) threadResults[i][j] += regM[k % 2][i] * regN[k % 2][j];
    }
    cp_async_commit();
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    stage = stage + 1 == STAGES ? 0 : stage + 1;
  }
  TS_UNROLL for (int i = 0; i < TM; ++i) {
    const int row = row0 + warpRow + i / 4 * kLanesM * 4 + laneRow + i % 4;
    TS_UNROLL for (int p = 0; p < TN / 4; ++p) {
      const int col = col0 + warpCol + p * kLanesN * 4 + laneCol;
      const float* r = &threadResults[i][4 * p];
      if (row < M && col < N) store4(C[row * N + col], make_float4(r[0], r[1], r[2], r[3]));
    }
  }
}

}  // namespace ts::plain

namespace ts::ladder {

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, int ORDER>
__global__ void __launch_bounds__(32 * (BM / WM) * (BN / WN), 1)
    double_buffer_trial(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                        int k) {
  plain::matmul_double_buffer_trial<BM, BN, BK, WM, WN, TM, TN, STAGES, ORDER>(a, b, c, m, n, k);
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, int ORDER>
void launch_double_buffer_trial(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  constexpr int kThreads = 32 * (BM / WM) * (BN / WN), kShared = STAGES * BK * (BM + 4 + BN) * 4;
  launch_checked(double_buffer_trial<BM, BN, BK, WM, WN, TM, TN, STAGES, ORDER>, dim3(ceil_div(n, BN), ceil_div(m, BM)),
                 kThreads, kShared, stream, a, b, c, m, n, k);
}

}  // namespace ts::ladder
