// double_buffer.cuh — ladder rung 5, the kernel template: warptiling (rung 4)
// fed by a multi-stage cp.async pipeline. The copy engine fills stage s+1..
// s+STAGES-1 of shared memory while the warps compute on stage s, so global
// latency hides behind math with no registers spent on staging. A is stored
// transposed (one 4-byte cp.async per element) so the warp tile reads it as
// float4; B is copied 16 bytes at a time. Out-of-range slots are zero-filled
// by the copy itself. Blocks are ordered in groups of GROUP_M block rows for
// L2 reuse. Needs K and N multiples of 4 (16-byte rows); any M.
//
// The configuration that ships is chosen in double_buffer.cu by measurement;
// the template stays open for the tuning program.
#pragma once

#include "kernels/ladder/ladder_device.cuh"
#include "kernels/ladder/warp_tile.cuh"

namespace ts::ladder {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int STAGES_, int MIN_BLOCKS_, int GROUP_M_,
          int KK_UNROLL_ = BK_, int ORDER_ = 0>
struct DoubleBufferConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int STAGES = STAGES_, MIN_BLOCKS = MIN_BLOCKS_, GROUP_M = GROUP_M_, KK_UNROLL = KK_UNROLL_, ORDER = ORDER_;
  static constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  // A's rows are padded by 4 words: a warp's transposed 4-byte copies (8 k x 4
  // rows) then land in 32 different banks.
  static constexpr int kLda = BM + 4;
  static constexpr int kStageFloats = BK * kLda + BK * BN;
  static constexpr int kSharedBytes = STAGES * kStageFloats * 4;
  static_assert(BM % WM == 0 && BN % WN == 0, "warps tile the block");
  static_assert(BK % 8 == 0, "A is copied in runs of 8 k");
  static_assert(BM * BK % kThreads == 0 && BK * BN % (4 * kThreads) == 0, "threads copy whole tiles");
  static_assert(STAGES >= 2, "at least double buffering");
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::MIN_BLOCKS)
    double_buffer(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, kLda = Cfg::kLda, kThreads = Cfg::kThreads;
  constexpr int kACopies = BM * BK / kThreads, kBCopies = BK * BN / (4 * kThreads);
  extern __shared__ __align__(16) float shared[];
  int block_row, block_col;
  swizzled_block<Cfg::GROUP_M>(ceil_div(M, BM), ceil_div(N, BN), block_row, block_col);
  const int row0 = block_row * BM, col0 = block_col * BN;
  const int t = threadIdx.x;
  const int warp = t / 32, warp_m = warp / Cfg::kWarpsN, warp_n = warp % Cfg::kWarpsN;

  // What this thread copies, fixed for the whole loop: element e of A's tile
  // is row (e / 8) % BM, k (e % 8) + 8 * (e / (8 * BM)), so a warp reads 4 rows
  // x 32 contiguous bytes and writes 32 distinct banks.
  int a_row[kACopies], a_k[kACopies];
#pragma unroll
  for (int i = 0; i < kACopies; ++i) {
    const int e = t + i * kThreads;
    a_row[i] = (e / 8) % BM;
    a_k[i] = e % 8 + 8 * (e / (8 * BM));
  }
  int b_k[kBCopies], b_col[kBCopies];
#pragma unroll
  for (int i = 0; i < kBCopies; ++i) {
    const int e = t + i * kThreads;
    b_k[i] = e / (BN / 4);
    b_col[i] = (e % (BN / 4)) * 4;
  }

  // Issues the copies of k-tile `tile` into stage `stage`; slots past M, N or K are zero-filled.
  const auto load_tile = [&](int stage, int tile) {
    float* As = shared + stage * Cfg::kStageFloats;
    float* Bs = As + BK * kLda;
    const int k0 = tile * BK;
#pragma unroll
    for (int i = 0; i < kACopies; ++i) {
      const int r = row0 + a_row[i], k = k0 + a_k[i];
      const bool in = r < M && k < K;
      cp_async_4(&As[a_k[i] * kLda + a_row[i]], in ? &A[r * K + k] : A, in);
    }
#pragma unroll
    for (int i = 0; i < kBCopies; ++i) {
      const int k = k0 + b_k[i], c = col0 + b_col[i];
      const bool in = k < K && c < N;
      cp_async_16(&Bs[b_k[i] * BN + b_col[i]], in ? &B[k * N + c] : B, in);
    }
  };

  WarpTileThread<Cfg::WM, Cfg::WN, Cfg::TM, Cfg::TN, Cfg::ORDER> patch(t % 32);
  cp_async_pipeline<Cfg::STAGES>(ceil_div(K, BK), load_tile, [&](int stage) {
    const float* As = shared + stage * Cfg::kStageFloats;
    const float* Bs = As + BK * kLda;
    patch.template multiply<BK, Cfg::KK_UNROLL>(&As[warp_m * Cfg::WM], kLda, &Bs[warp_n * Cfg::WN], BN);
  });
  patch.store(C, M, N, row0 + warp_m * Cfg::WM, col0 + warp_n * Cfg::WN);
}

template <class Cfg>
void launch_double_buffer_config(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const int blocks = ceil_div(m, Cfg::BM) * ceil_div(n, Cfg::BN);
  launch_checked(double_buffer<Cfg>, dim3(blocks), Cfg::kThreads, Cfg::kSharedBytes, stream, a, b, c, m, n, k);
}

}  // namespace ts::ladder
