// tf32_tensor_core.cuh — ladder rung 6, the kernel template: the same block
// and warp tiling and cp.async pipeline as rung 5, but the warp's products
// are mma.sync m16n8k8 instructions on the tensor cores with TF32 inputs
// (10-bit mantissa, FP32 accumulation). A stays row-major in shared memory
// and reaches the fragments through ldmatrix; B's fragments are single
// words. Rows are padded (A by 4 words, B by 8) so that both are read
// without bank conflicts. Needs K and N multiples of 4; any M.
//
// The configuration that ships is chosen in tf32_tensor_core.cu by
// measurement; the template stays open for the tuning program.
#pragma once

#include <cstdint>

#include "kernels/ladder/ladder_device.cuh"

namespace ts::ladder {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int STAGES_, int MIN_BLOCKS_, int GROUP_M_>
struct Tf32Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_;
  static constexpr int STAGES = STAGES_, MIN_BLOCKS = MIN_BLOCKS_, GROUP_M = GROUP_M_;
  static constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  static constexpr int kTilesM = WM / 16, kTilesN = WN / 8;  // mma tiles per warp
  static constexpr int kLda = BK + 4, kLdb = BN + 8;
  static constexpr int kStageFloats = BM * kLda + BK * kLdb;
  static constexpr int kSharedBytes = STAGES * kStageFloats * 4;
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 8 == 0 && BK % 8 == 0, "tiles nest");
  static_assert(BM * BK % (4 * kThreads) == 0 && BK * BN % (4 * kThreads) == 0, "threads copy whole tiles");
  static_assert(STAGES >= 2, "at least double buffering");
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::MIN_BLOCKS)
    tf32_tensor_core(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, kLda = Cfg::kLda, kLdb = Cfg::kLdb;
  constexpr int kThreads = Cfg::kThreads, kTilesM = Cfg::kTilesM, kTilesN = Cfg::kTilesN;
  constexpr int kACopies = BM * BK / (4 * kThreads), kBCopies = BK * BN / (4 * kThreads);
  extern __shared__ __align__(16) float shared[];
  int block_row, block_col;
  swizzled_block<Cfg::GROUP_M>(ceil_div(M, BM), ceil_div(N, BN), block_row, block_col);
  const int row0 = block_row * BM, col0 = block_col * BN;
  const int t = threadIdx.x, lane = t % 32;
  const int warp = t / 32, warp_row = (warp / Cfg::kWarpsN) * Cfg::WM, warp_col = (warp % Cfg::kWarpsN) * Cfg::WN;
  const int group = lane / 4, quad = lane % 4;  // the mma fragment coordinates of this lane

  const auto load_tile = [&](int stage, int tile) {
    float* As = shared + stage * Cfg::kStageFloats;
    float* Bs = As + BM * kLda;
    const int k0 = tile * BK;
#pragma unroll
    for (int i = 0; i < kACopies; ++i) {
      const int e = t + i * kThreads, r = e / (BK / 4), kc = (e % (BK / 4)) * 4;
      const bool in = row0 + r < M && k0 + kc < K;
      cp_async_16(&As[r * kLda + kc], in ? &A[(row0 + r) * K + k0 + kc] : A, in);
    }
#pragma unroll
    for (int i = 0; i < kBCopies; ++i) {
      const int e = t + i * kThreads, r = e / (BN / 4), c = (e % (BN / 4)) * 4;
      const bool in = k0 + r < K && col0 + c < N;
      cp_async_16(&Bs[r * kLdb + c], in ? &B[(k0 + r) * N + col0 + c] : B, in);
    }
  };

  float acc[kTilesM][kTilesN][4] = {};
  cp_async_pipeline<Cfg::STAGES>(ceil_div(K, BK), load_tile, [&](int stage) {
    const float* As = shared + stage * Cfg::kStageFloats;
    const float* Bs = As + BM * kLda;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 8) {
      std::uint32_t a[kTilesM][4], b[kTilesN][2];
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) {
        // Lanes 0-15 point at rows 0-15 of k..k+3, lanes 16-31 at the same rows of k+4..k+7.
        ldmatrix_x4(a[i], &As[(warp_row + i * 16 + lane % 16) * kLda + kk + (lane / 16) * 4]);
#pragma unroll
        for (int r = 0; r < 4; ++r) a[i][r] = to_tf32(a[i][r]);
      }
#pragma unroll
      for (int j = 0; j < kTilesN; ++j) {
        const int col = warp_col + j * 8 + group;
        b[j][0] = to_tf32(__float_as_uint(Bs[(kk + quad) * kLdb + col]));
        b[j][1] = to_tf32(__float_as_uint(Bs[(kk + quad + 4) * kLdb + col]));
      }
#pragma unroll
      for (int i = 0; i < kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < kTilesN; ++j) mma_sync_tf32(acc[i][j], a[i], b[j]);
    }
  });
  // Each lane holds rows group and group+8, columns 2*quad and 2*quad+1 of every mma tile.
#pragma unroll
  for (int i = 0; i < kTilesM; ++i)
#pragma unroll
    for (int j = 0; j < kTilesN; ++j) {
      const int col = col0 + warp_col + j * 8 + 2 * quad;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = row0 + warp_row + i * 16 + group + 8 * h;
        if (row < M && col < N)
          *reinterpret_cast<float2*>(&C[row * N + col]) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
      }
    }
}

template <class Cfg>
void launch_tf32_config(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const int blocks = ceil_div(m, Cfg::BM) * ceil_div(n, Cfg::BN);
  launch_checked(tf32_tensor_core<Cfg>, dim3(blocks), Cfg::kThreads, Cfg::kSharedBytes, stream, a, b, c, m, n, k);
}

}  // namespace ts::ladder
