// double_buffer_trials.cuh — run 20's trials of kernels/double_buffer.h (the
// listing as it ships: copies per pass at the top of the k-tile, plain grid),
// plain build only, for ladder_tune. Switches:
//  - AHEAD: the fragments of the next k-tile's first k are read while this
//    tile's last k's multiply-adds issue (no wait for shared memory at the
//    tile boundary). The barrier stays after the multiply-adds; the wait
//    before it keeps one tile fewer in flight (cp_async_wait<STAGES - 3>), so
//    that the tile after next has landed for everyone one barrier early.
//    UNCONDITIONAL: read it in the last tile too (a stale buffer, unused),
//    as the tuned kernel does, so the unrolled k loop has no branch.
//  - PAIRED: the tuned kernel's lane map (warp_tile.cuh LANE_MAP 1).
//  - CLAMP: copy sources clamped into the matrix (min of row and k) instead of
//    `in ? index : 0`.
// Include after kernels/ladder/double_buffer_listing.cuh (the plain mode).
#pragma once

#include "kernels/ladder/double_buffer_listing.cuh"

namespace ts::plain {

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, bool AHEAD, bool PAIRED, bool CLAMP,
          bool UNCONDITIONAL = false>
__device__ inline void matmul_double_buffer_trial(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  constexpr int kLanesM = WM / TM, kLanesN = WN / TN;
  static_assert(kLanesM * kLanesN == 32 && TM % 4 == 0 && TN % 4 == 0, "32 lanes of 4 x 4 pieces");
  static_assert(BK % 8 == 0 && kThreads % 8 == 0 && BM % (kThreads / 8) == 0, "threads copy A in whole runs of 8 k");
  static_assert(kThreads % (BN / 4) == 0 && BK % (kThreads / (BN / 4)) == 0, "threads copy whole rows of B");
  static_assert(STAGES >= 2 + AHEAD, "reading a tile ahead needs a third buffer");
  constexpr int kWait = STAGES - 2 - AHEAD;  // groups left in flight at the barrier
  constexpr int kLda = BM + 4;
  TS_SHARED_DYNAMIC(float, As, STAGES * BK, kLda, 0);
  TS_SHARED_DYNAMIC(float, Bs, STAGES * BK, BN, STAGES * BK * kLda);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / kWarpsN * WM, warpCol = warp % kWarpsN * WN;
  const int laneM = PAIRED ? (lane & 1) | (lane >> 2) / (kLanesN / 2) << 1 : lane / kLanesN;
  const int laneN = PAIRED ? (lane >> 1 & 1) | (lane >> 2) % (kLanesN / 2) << 1 : lane % kLanesN;
  const int laneRow = laneM * 4, laneCol = laneN * 4;
  const int tiles = (K + BK - 1) / BK;

  constexpr int kARows = kThreads / 8, kBRows = kThreads / (BN / 4);
  const int aRow = threadIdx.x / 8, aK = threadIdx.x % 8;
  const int bRow = threadIdx.x / (BN / 4), bCol = threadIdx.x % (BN / 4) * 4;
  const auto load_tile = [&](int tile, int stage) {
    const int k0 = tile * BK, s0 = stage * BK;
    TS_UNROLL for (int h = 0; h < BK / 8; ++h)
      TS_UNROLL for (int p = 0; p < BM / kARows; ++p) {
        const int r = aRow + p * kARows, c = aK + 8 * h;
        const bool in = row0 + r < M && k0 + c < K;
        const int src = CLAMP ? min(row0 + r, M - 1) * K + min(k0 + c, K - 1) : in ? (row0 + r) * K + k0 + c : 0;
        cp_async4_or_zero(As[s0 + c][r], A[src], in);
      }
    TS_UNROLL for (int q = 0; q < BK / kBRows; ++q) {
      const int r = bRow + q * kBRows;
      const bool in = k0 + r < K && col0 + bCol < N;
      const int src = CLAMP ? min(k0 + r, K - 1) * N + min(col0 + bCol, N - 4) : in ? (k0 + r) * N + col0 + bCol : 0;
      cp_async16_or_zero(Bs[s0 + r][bCol], B[src], in);
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
    if (s < tiles) load_tile(s, s);
    cp_async_commit();
  }
  cp_async_wait<kWait>();
  __syncthreads();
  int stage = 0;
  if (AHEAD) load_fragments(0, regM[0], regN[0]);
  for (int t = 0; t < tiles; ++t) {
    const int refill = stage == 0 ? STAGES - 1 : stage - 1;
    if (t + STAGES - 1 < tiles) load_tile(t + STAGES - 1, refill);
    const int s0 = stage * BK, next0 = (stage + 1 == STAGES ? 0 : stage + 1) * BK;
    if (!AHEAD) load_fragments(s0, regM[0], regN[0]);
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      if (k + 1 < BK) load_fragments(s0 + k + 1, regM[(k + 1) % 2], regN[(k + 1) % 2]);
      else if (AHEAD && (UNCONDITIONAL || t + 1 < tiles)) load_fragments(next0, regM[(k + 1) % 2], regN[(k + 1) % 2]);
      TS_UNROLL for (int i = 0; i < TM; ++i)
        TS_UNROLL for (int j = 0; j < TN; ++j) threadResults[i][j] += regM[k % 2][i] * regN[k % 2][j];
    }
    cp_async_commit();
    cp_async_wait<kWait>();
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

template <class Cfg, bool AHEAD, bool PAIRED, bool CLAMP, bool UNCONDITIONAL>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    double_buffer_trial(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                        int k) {
  static_assert(!AHEAD || Cfg::BK % 2 == 0, "the next tile's first fragments go where k = 0's go");
  plain::matmul_double_buffer_trial<Cfg::BM, Cfg::BN, Cfg::BK, Cfg::WM, Cfg::WN, Cfg::TM, Cfg::TN, Cfg::STAGES, AHEAD,
                                    PAIRED, CLAMP, UNCONDITIONAL>(a, b, c, m, n, k);
}

template <class Cfg, bool AHEAD, bool PAIRED, bool CLAMP, bool UNCONDITIONAL>
void launch_double_buffer_trial(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const dim3 grid(ceil_div(n, Cfg::BN), ceil_div(m, Cfg::BM));
  launch_checked(double_buffer_trial<Cfg, AHEAD, PAIRED, CLAMP, UNCONDITIONAL>, grid, Cfg::kThreads, Cfg::kSharedBytes, stream, a, b,
                 c, m, n, k);
}

}  // namespace ts::ladder
