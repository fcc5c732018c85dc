// double_buffer_trials.cuh — run 15's trials of kernels/double_buffer.h (the
// listing as it ships since run 14: copies per pass, plain grid), plain build
// only, for ladder_tune. Switches:
//  - PAIRED: the tuned kernel's lane map (warp_tile.cuh LANE_MAP 1): lanes l
//    and l ^ 2 share a row of pieces, l and l ^ 1 a column.
//  - SWAP: the grid's x walks the block rows instead of the block columns.
//  - RUNS > 0: the copies of the tile STAGES - 1 ahead in RUNS runs between the
//    multiply-adds (the k-tile loop in two parts).
// Include after kernels/ladder/double_buffer_listing.cuh (the plain mode).
#pragma once

#include <type_traits>

#include "kernels/ladder/double_buffer_listing.cuh"

namespace ts::plain {

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, bool PAIRED, bool SWAP, int RUNS>
__device__ inline void matmul_double_buffer_trial(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  constexpr int kLanesM = WM / TM, kLanesN = WN / TN;
  static_assert(kLanesM * kLanesN == 32 && TM % 4 == 0 && TN % 4 == 0, "32 lanes of 4 x 4 pieces");
  static_assert(BK % 8 == 0 && kThreads % 8 == 0 && BM % (kThreads / 8) == 0, "threads copy A in whole runs of 8 k");
  static_assert(kThreads % (BN / 4) == 0 && BK % (kThreads / (BN / 4)) == 0, "threads copy whole rows of B");
  static_assert(STAGES >= 2 && RUNS < BK, "a pipeline; at most one run of copies per k");
  constexpr int kLda = BM + 4;
  TS_SHARED_DYNAMIC(float, As, STAGES * BK, kLda, 0);
  TS_SHARED_DYNAMIC(float, Bs, STAGES * BK, BN, STAGES * BK * kLda);
  const int blockRow = SWAP ? blockIdx.x : blockIdx.y, blockCol = SWAP ? blockIdx.y : blockIdx.x;
  const int row0 = blockRow * BM, col0 = blockCol * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / kWarpsN * WM, warpCol = warp % kWarpsN * WN;
  const int laneM = PAIRED ? (lane & 1) | (lane >> 2) / (kLanesN / 2) << 1 : lane / kLanesN;
  const int laneN = PAIRED ? (lane >> 1 & 1) | (lane >> 2) % (kLanesN / 2) << 1 : lane % kLanesN;
  const int laneRow = laneM * 4, laneCol = laneN * 4;
  const int tiles = (K + BK - 1) / BK;

  constexpr int kARows = kThreads / 8, kBRows = kThreads / (BN / 4);
  constexpr int kAPasses = BM / kARows, kACopies = kAPasses * (BK / 8), kCopies = kACopies + BK / kBRows;
  constexpr int kRuns = RUNS > 0 ? RUNS : 1;
  const int aRow = threadIdx.x / 8, aK = threadIdx.x % 8;
  const int bRow = threadIdx.x / (BN / 4), bCol = threadIdx.x % (BN / 4) * 4;
  // Copy j (A's per pass first, then B's) of k-tile `tile` into buffer `stage`.
  const auto copy = [&](int j, int tile, int stage) {
    const int k0 = tile * BK, s0 = stage * BK;
    if (j < kACopies) {
      const int r = aRow + j % kAPasses * kARows, c = aK + 8 * (j / kAPasses);
      const bool in = row0 + r < M && k0 + c < K;
      cp_async4_or_zero(As[s0 + c][r], A[in ? (row0 + r) * K + k0 + c : 0], in);
    } else {
      const int r = bRow + (j - kACopies) * kBRows;
      const bool in = k0 + r < K && col0 + bCol < N;
      cp_async16_or_zero(Bs[s0 + r][bCol], B[in ? (k0 + r) * N + col0 + bCol : 0], in);
    }
  };
  const auto load_tile = [&](int tile, int stage) {
    TS_UNROLL for (int j = 0; j < kCopies; ++j) copy(j, tile, stage);
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
    if (s < tiles) load_tile(s, s);
    cp_async_commit();
  }
  cp_async_wait<STAGES - 2>();
  __syncthreads();
  int stage = 0;
  const auto multiply_tile = [&](int t, auto spread) {
    constexpr bool kSpread = decltype(spread)::value;
    const int refill = stage == 0 ? STAGES - 1 : stage - 1;
    if (!kSpread && t + STAGES - 1 < tiles) load_tile(t + STAGES - 1, refill);
    const int s0 = stage * BK;
    load_fragments(s0, regM[0], regN[0]);
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      if constexpr (kSpread) {
        TS_UNROLL for (int j = 0; j < kCopies; ++j) if (j * kRuns / kCopies * (BK - 1) / kRuns == k) copy(j, t + STAGES - 1, refill);
      }
      if (k + 1 < BK) load_fragments(s0 + k + 1, regM[(k + 1) % 2], regN[(k + 1) % 2]);
      TS_UNROLL for (int i = 0; i < TM; ++i)
        TS_UNROLL for (int j = 0; j < TN; ++j) threadResults[i][j] += regM[k % 2][i] * regN[k % 2][j];
    }
    cp_async_commit();
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    stage = stage + 1 == STAGES ? 0 : stage + 1;
  };
  int t = 0;
  if constexpr (RUNS > 0)
    for (; t < tiles - (STAGES - 1); ++t) multiply_tile(t, std::true_type{});
  for (; t < tiles; ++t) multiply_tile(t, std::false_type{});
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

template <class Cfg, bool PAIRED, bool SWAP, int RUNS>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    double_buffer_trial(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                        int k) {
  plain::matmul_double_buffer_trial<Cfg::BM, Cfg::BN, Cfg::BK, Cfg::WM, Cfg::WN, Cfg::TM, Cfg::TN, Cfg::STAGES,
                                    PAIRED, SWAP, RUNS>(a, b, c, m, n, k);
}

template <class Cfg, bool PAIRED, bool SWAP, int RUNS>
void launch_double_buffer_trial(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const int rows = ceil_div(m, Cfg::BM), cols = ceil_div(n, Cfg::BN);
  const dim3 grid = SWAP ? dim3(rows, cols) : dim3(cols, rows);
  launch_checked(double_buffer_trial<Cfg, PAIRED, SWAP, RUNS>, grid, Cfg::kThreads, Cfg::kSharedBytes, stream, a, b,
                 c, m, n, k);
}

}  // namespace ts::ladder
