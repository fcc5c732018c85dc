// double_buffer_trials.cuh — run 18's trials of kernels/double_buffer.h (the
// listing), plain build only, for ladder_tune: the listing's copies of the
// next tile spread between the multiply-adds (SPREAD runs of passes, the
// first at k = OFFSET), each thread's A rows computed once (INDEX 1) or its
// sources held as pointers that move one k-tile per tile (INDEX 2), as the
// tuned kernel spreads its copies (run 7: +6 points there). Removed once chosen.
// Include after kernels/ladder/double_buffer_listing.cuh (the plain mode).
#pragma once
#include "kernels/ladder/double_buffer_listing.cuh"
namespace ts::plain {
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, int SPREAD, int INDEX, int OFFSET>
__device__ inline void trial(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  constexpr int kLanesM = WM / TM, kLanesN = WN / TN;
  constexpr int kLda = BM + 4;
  TS_SHARED_DYNAMIC(float, As, STAGES * BK, kLda, 0);
  TS_SHARED_DYNAMIC(float, Bs, STAGES * BK, BN, STAGES * BK * kLda);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / kWarpsN * WM, warpCol = warp % kWarpsN * WN;
  const int laneRow = lane / kLanesN * 4, laneCol = lane % kLanesN * 4;
  const int tiles = (K + BK - 1) / BK;
  constexpr int kARows = kThreads / 8, kBRows = kThreads / (BN / 4);
  constexpr int kAPasses = BM / kARows, kBPasses = BK / kBRows, kHalves = BK / 8;
  const int aRow = threadIdx.x / 8, aK = threadIdx.x % 8;
  const int bRow = threadIdx.x / (BN / 4), bCol = threadIdx.x % (BN / 4) * 4;
  int aOff[kAPasses];
  bool aIn[kAPasses];
  TS_UNROLL for (int p = 0; p < kAPasses; ++p) {
    aIn[p] = row0 + aRow + p * kARows < M;
    aOff[p] = (row0 + aRow + p * kARows) * K + aK;
  }
  // INDEX 2: sources as pointers that move one k-tile per tile issued (rows past M point at row 0).
  const float* aSrc[kAPasses];
  const float* bSrc[kBPasses];
  const bool bColIn = col0 + bCol < N;
  TS_UNROLL for (int p = 0; p < kAPasses; ++p) aSrc[p] = A + (aIn[p] ? row0 + aRow + p * kARows : 0) * K + aK;
  TS_UNROLL for (int q = 0; q < kBPasses; ++q) bSrc[q] = B + (bRow + q * kBRows) * N + (bColIn ? col0 + bCol : 0);
  // Pass h of tile `tile` into `stage`: A's k aK + 8h of its rows, and B's rows of that pass.
  const auto load_pass = [&](int tile, int stage, int h) {
    const int k0 = tile * BK, s0 = stage * BK;
    TS_UNROLL for (int p = 0; p < kAPasses; ++p) {
      const int r = aRow + p * kARows, c = aK + 8 * h;
      if constexpr (INDEX == 0) {
        const bool in = row0 + r < M && k0 + c < K;
        cp_async4_or_zero(As[s0 + c][r], A[in ? (row0 + r) * K + k0 + c : 0], in);
      } else if constexpr (INDEX == 2) {
        cp_async4_or_zero(As[s0 + c][r], aSrc[p][8 * h], aIn[p] && k0 + c < K);
      } else {
        const bool in = aIn[p] && k0 + c < K;
        cp_async4_or_zero(As[s0 + c][r], A[in ? aOff[p] + k0 + 8 * h : 0], in);
      }
    }
    TS_UNROLL for (int q = h * kBPasses / kHalves; q < (h + 1) * kBPasses / kHalves; ++q) {
      const int r = bRow + q * kBRows;
      const bool in = k0 + r < K && col0 + bCol < N;
      if constexpr (INDEX == 2) cp_async16_or_zero(Bs[s0 + r][bCol], *bSrc[q], in);
      else cp_async16_or_zero(Bs[s0 + r][bCol], B[in ? (k0 + r) * N + col0 + bCol : 0], in);
    }
    if constexpr (INDEX == 2) {  // the tile's last pass: the sources move to the next tile
      if (h == kHalves - 1) {
        TS_UNROLL for (int p = 0; p < kAPasses; ++p) aSrc[p] += BK;
        TS_UNROLL for (int q = 0; q < kBPasses; ++q) bSrc[q] += BK * N;
      }
    }
  };
  const auto load_tile = [&](int tile, int stage) { TS_UNROLL for (int h = 0; h < kHalves; ++h) load_pass(tile, stage, h); };
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
  constexpr int kAhead = STAGES - 1;  // tiles in flight: tile t + kAhead refills the buffer read in tile t - 1
  TS_UNROLL for (int s = 0; s < kAhead; ++s) {
    if (s < tiles) load_tile(s, s);
    cp_async_commit();
  }
  cp_async_wait<kAhead - 1>();
  __syncthreads();
  int stage = 0;
  for (int t = 0; t < tiles; ++t) {
    const int s0 = stage * BK;
    // SPREAD: refill the buffer read in the previous tile (free since the last barrier) with tile t + kAhead.
    const int fill = stage == 0 ? STAGES - 1 : stage - 1;
    const bool more = t + kAhead < tiles;
    if (!SPREAD && more) load_tile(t + kAhead, fill);
    load_fragments(s0, regM[0], regN[0]);
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      if constexpr (SPREAD > 0)
        if (k % (BK / SPREAD) == OFFSET && more)
          TS_UNROLL for (int h = k / (BK / SPREAD) * kHalves / SPREAD; h < (k / (BK / SPREAD) + 1) * kHalves / SPREAD; ++h)
            load_pass(t + kAhead, fill, h);
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

template <int ST, int SPREAD, int INDEX, int OFFSET>
__global__ void __launch_bounds__(256, 1)
    double_buffer_trial(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                        int k) {
  plain::trial<128, 256, 32, 64, 64, 16, 8, ST, SPREAD, INDEX, OFFSET>(a, b, c, m, n, k);
}

template <int ST, int SPREAD, int INDEX, int OFFSET>
void launch_double_buffer_trial(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  constexpr int kShared = ST * 32 * (128 + 4 + 256) * 4;
  launch_checked(double_buffer_trial<ST, SPREAD, INDEX, OFFSET>, dim3(ceil_div(n, 256), ceil_div(m, 128)), 256, kShared,
                 stream, a, b, c, m, n, k);
}

}  // namespace ts::ladder
