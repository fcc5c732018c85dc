// double_buffer_trials.cuh — run 14's trials of kernels/double_buffer.h (the
// listing), plain build only, for ladder_tune: the listing with two changes
// taken from the tuned kernel, each alone and together, to find which of them
// closes the gap before one goes into the listing.
//  - BAR_LAST: the k-tile's barrier before its last k, so the next tile's
//    first fragments are read while that k's multiply-adds issue.
//  - RUNS > 0: the copies of the tile STAGES - 1 ahead issued in RUNS runs
//    between the multiply-adds; the k-tile loop in two parts (the tiles that
//    issue copies, then the last STAGES - 1 that do not), so that no run of
//    copies sits behind a runtime test.
//  - LEAN: the same copies written per pass (a thread's rows and k computed
//    once), so the compiler sees what stays from one k-tile to the next;
//    2: unsigned indices (no sign extension); 3: the source clamped into the
//    matrix instead of selected (`in` only decides copy or zero fill); 4: both.
// Include after kernels/ladder/double_buffer_listing.cuh (the plain mode).
#pragma once

#include <type_traits>

#include "kernels/ladder/double_buffer_listing.cuh"

namespace ts::plain {

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, int GROUP_M, bool BAR_LAST, int RUNS, int LEAN>
__device__ inline void matmul_double_buffer_trial(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  constexpr int kLanesM = WM / TM, kLanesN = WN / TN;
  static_assert(kLanesM * kLanesN == 32 && TM % 4 == 0 && TN % 4 == 0, "32 lanes of 4 x 4 pieces");
  static_assert(BK % 8 == 0 && BM * BK % kThreads == 0, "threads copy A in whole runs of 8 k");
  static_assert(BK * BN % (4 * kThreads) == 0, "threads copy whole float4 tiles of B");
  static_assert(STAGES >= 2 && RUNS < BK, "a pipeline; at most one run of copies per k");
  constexpr int kLda = BM + 4;
  constexpr int kACopies = BM * BK / kThreads, kCopies = kACopies + BK * BN / (4 * kThreads);
  constexpr int kRuns = RUNS > 0 ? RUNS : 1;
  TS_SHARED_DYNAMIC(float, As, STAGES * BK, kLda, 0);
  TS_SHARED_DYNAMIC(float, Bs, STAGES * BK, BN, STAGES * BK * kLda);
  int blockRow = blockIdx.y, blockCol = blockIdx.x;
  if constexpr (GROUP_M > 0) {
    const GroupedTile tile = grouped_block_tile(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, GROUP_M);
    blockRow = tile.row, blockCol = tile.col;
  }
  const int row0 = blockRow * BM, col0 = blockCol * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / kWarpsN * WM, warpCol = warp % kWarpsN * WN;
  const int laneRow = lane / kLanesN * 4, laneCol = lane % kLanesN * 4;
  const int tiles = (K + BK - 1) / BK;

  // Copy j of this thread (A's first, then B's) of k-tile `tile` into buffer `stage`.
  // LEAN: the same copies, written per pass: thread (aRow, aK) copies rows
  // aRow + p * kARows at k aK + 8 h, so that what does not change from one
  // k-tile to the next is visibly so.
  constexpr int kARows = kThreads / 8, kAPasses = BM / kARows, kBChunks = BN / 4, kBRows = kThreads / kBChunks;
  static_assert(!LEAN || (kThreads % 8 == 0 && BM % kARows == 0 && kThreads % kBChunks == 0), "whole passes");
  const int aRow = threadIdx.x / 8, aK = threadIdx.x % 8;
  const int bRow = threadIdx.x / kBChunks, bCol = threadIdx.x % kBChunks * 4;
  const auto copy = [&](int j, int tile, int stage) {
    const int k0 = tile * BK, s0 = stage * BK;
    if (LEAN && j < kACopies) {
      const int r = aRow + j % kAPasses * kARows, c = aK + 8 * (j / kAPasses);
      const bool in = row0 + r < M && k0 + c < K;
      if (LEAN == 1) cp_async4_or_zero(As[s0 + c][r], A[in ? (row0 + r) * K + k0 + c : 0], in);
      if (LEAN == 2) cp_async4_or_zero(As[s0 + c][r], A[in ? unsigned((row0 + r) * K + k0 + c) : 0u], in);
      if (LEAN == 3) cp_async4_or_zero(As[s0 + c][r], A[min(row0 + r, M - 1) * K + min(k0 + c, K - 1)], in);
      if (LEAN == 4)
        cp_async4_or_zero(As[s0 + c][r], A[unsigned(min(row0 + r, M - 1) * K) + unsigned(min(k0 + c, K - 1))], in);
    } else if (LEAN) {
      const int r = bRow + (j - kACopies) * kBRows, c = bCol;
      const bool in = k0 + r < K && col0 + c < N;
      if (LEAN == 1) cp_async16_or_zero(Bs[s0 + r][c], B[in ? (k0 + r) * N + col0 + c : 0], in);
      if (LEAN == 2) cp_async16_or_zero(Bs[s0 + r][c], B[in ? unsigned((k0 + r) * N + col0 + c) : 0u], in);
      if (LEAN == 3) cp_async16_or_zero(Bs[s0 + r][c], B[min(k0 + r, K - 1) * N + min(col0 + c, N - 4)], in);
      if (LEAN == 4)
        cp_async16_or_zero(Bs[s0 + r][c], B[unsigned(min(k0 + r, K - 1) * N) + unsigned(min(col0 + c, N - 4))], in);
    } else if (j < kACopies) {
      const int e = threadIdx.x + j * kThreads, r = e / 8 % BM, c = e / (8 * BM) * 8 + e % 8;
      const bool in = row0 + r < M && k0 + c < K;
      cp_async4_or_zero(As[s0 + c][r], A[in ? (row0 + r) * K + k0 + c : 0], in);
    } else {
      const int e = threadIdx.x + (j - kACopies) * kThreads, r = e / (BN / 4), c = e % (BN / 4) * 4;
      const bool in = k0 + r < K && col0 + c < N;
      cp_async16_or_zero(Bs[s0 + r][c], B[in ? (k0 + r) * N + col0 + c : 0], in);
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
  if (BAR_LAST) load_fragments(0, regM[0], regN[0]);
  int stage = 0;
  const auto multiply_tile = [&](int t, auto spread) {
    constexpr bool kSpread = decltype(spread)::value;
    const int s0 = stage * BK, refill = stage == 0 ? STAGES - 1 : stage - 1;
    const int next = stage + 1 == STAGES ? 0 : stage + 1;
    if (!kSpread && t + STAGES - 1 < tiles) load_tile(t + STAGES - 1, refill);
    if (!BAR_LAST) load_fragments(s0, regM[0], regN[0]);
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      if constexpr (kSpread) {
        TS_UNROLL for (int j = 0; j < kCopies; ++j) if (j * kRuns / kCopies * (BK - 1) / kRuns == k) copy(j, t + STAGES - 1, refill);
      }
      if (k + 1 < BK) {
        load_fragments(s0 + k + 1, regM[(k + 1) % 2], regN[(k + 1) % 2]);
      } else if (BAR_LAST) {
        cp_async_commit();
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        if (t + 1 < tiles) load_fragments(next * BK, regM[(k + 1) % 2], regN[(k + 1) % 2]);
      }
      TS_UNROLL for (int i = 0; i < TM; ++i)
        TS_UNROLL for (int j = 0; j < TN; ++j) threadResults[i][j] += regM[k % 2][i] * regN[k % 2][j];
    }
    if (!BAR_LAST) {
      cp_async_commit();
      cp_async_wait<STAGES - 2>();
      __syncthreads();
    }
    stage = next;
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

template <class Cfg, bool BAR_LAST, int RUNS, int LEAN>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    double_buffer_trial(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                        int k) {
  plain::matmul_double_buffer_trial<Cfg::BM, Cfg::BN, Cfg::BK, Cfg::WM, Cfg::WN, Cfg::TM, Cfg::TN, Cfg::STAGES,
                                    Cfg::GROUP_M, BAR_LAST, RUNS, LEAN>(a, b, c, m, n, k);
}

template <class Cfg, bool BAR_LAST, int RUNS, int LEAN>
void launch_double_buffer_trial(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const int rows = ceil_div(m, Cfg::BM), cols = ceil_div(n, Cfg::BN);
  const dim3 grid = Cfg::GROUP_M > 0 ? dim3(rows * cols) : dim3(cols, rows);
  launch_checked(double_buffer_trial<Cfg, BAR_LAST, RUNS, LEAN>, grid, Cfg::kThreads, Cfg::kSharedBytes, stream, a, b, c,
                 m, n, k);
}

}  // namespace ts::ladder
