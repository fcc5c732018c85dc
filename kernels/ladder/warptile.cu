// warptile.cu — ladder rung 4: warptiling (seed 004's kernel 10), as it
// was written for the benchmark alone ("warptile-before"), and the launch of its
// single-source version, kernels/warptile.h ("warptile").
// A 128 x 128 block tile split among 8 warps of 64 x 32; inside a warp each
// lane computes an 8 x 8 patch made of four 4 x 4 pieces (warp_tile.cuh), so
// the warp's shared-memory reads are conflict-free float4 broadcasts and the
// block -> warp -> thread hierarchy mirrors the GPU's. Tiles are loaded with
// float4 and A is stored transposed, as in rung 3; one buffer, so loads and
// math still take turns. Needs K and N multiples of 4; any M.
#include "kernels/cuda/plain_kernels.cuh"
#include "kernels/ladder/ladder.h"
#include "kernels/ladder/ladder_device.cuh"
#include "kernels/ladder/warp_tile.cuh"

namespace ts::ladder {
namespace {

constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = 32, TM = 8, TN = 8;
constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;  // 256
constexpr int kLda = BM + 4;  // padding: the transposed stores conflict 2-way, not 4-way
static_assert(BM * BK % (4 * kThreads) == 0 && BK * BN % (4 * kThreads) == 0, "threads stage whole float4 tiles");

__global__ void __launch_bounds__(kThreads) warptile_before(const float* __restrict__ A, const float* __restrict__ B,
                                                     float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[BK * kLda];  // transposed: As[k * kLda + m]
  __shared__ __align__(16) float Bs[BK * BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, warp_m = warp / kWarpsN, warp_n = warp % kWarpsN;
  WarpTileThread<WM, WN, TM, TN> patch(threadIdx.x % 32);
  const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int e = threadIdx.x; e < BM * BK / 4; e += kThreads) {
      const int r = e / (BK / 4), kc = (e % (BK / 4)) * 4;
      const bool in = row0 + r < M && k0 + kc < K;
      const float4 v = in ? *reinterpret_cast<const float4*>(&A[(row0 + r) * K + k0 + kc]) : zero;
      As[(kc + 0) * kLda + r] = v.x;
      As[(kc + 1) * kLda + r] = v.y;
      As[(kc + 2) * kLda + r] = v.z;
      As[(kc + 3) * kLda + r] = v.w;
    }
#pragma unroll
    for (int e = threadIdx.x; e < BK * BN / 4; e += kThreads) {
      const int r = e / (BN / 4), c = (e % (BN / 4)) * 4;
      const bool in = k0 + r < K && col0 + c < N;
      *reinterpret_cast<float4*>(&Bs[r * BN + c]) = in ? *reinterpret_cast<const float4*>(&B[(k0 + r) * N + col0 + c]) : zero;
    }
    __syncthreads();
    patch.template multiply<BK>(&As[warp_m * WM], kLda, &Bs[warp_n * WN], BN);
    __syncthreads();
  }
  patch.store(C, M, N, row0 + warp_m * WM, col0 + warp_n * WN);
}

}  // namespace

void launch_warptile_before(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_checked(warptile_before, dim3(ceil_div(n, BN), ceil_div(m, BM)), kThreads, 0, stream, a, b, c, m, n, k);
}

}  // namespace ts::ladder

namespace ts::ladder {

// The rung as the benchmark times it now: the plain build of kernels/warptile.h,
// the same source the app records. The kernel above stays as "warptile-before"
// until the two have been compared on a GPU (docs/ladder-notes.md).
void launch_warptile(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  gpu::launch_plain(KernelKind::Warptile, 0, a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
