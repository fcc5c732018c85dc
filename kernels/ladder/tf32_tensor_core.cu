// tf32_tensor_core.cu — ladder rung 6: the plain build of kernels/tf32_tensor_core.h
// at the configuration that ships. The choice and the figures behind it are
// in docs/ladder-notes.md. Until the two have been timed side by side on a
// GPU, the kernel this one replaced (tf32_tensor_core.cuh) is benchmarked too,
// as tf32-tensor-core-before.
// clang-format off
#define TS_PLAIN_DYNAMIC_SHARED 1  // 153 KB of tiles: launched with dynamic shared memory
#include "kernels/cuda/mode_plain.cuh"
#include "kernels/tf32_tensor_core.h"
// clang-format on

#include "kernels/ladder/ladder.h"
#include "kernels/ladder/tf32_tensor_core.cuh"

namespace ts::ladder {
namespace {

// 128 x 256 x 32 block tile, 8 warps of 64 x 64 (4 x 8 mma tiles each), 3
// stages, 1 block per SM, groups of 8 block rows.
constexpr int kBM = 128, kBN = 256, kBK = 32, kWM = 64, kWN = 64, kStages = 3, kMinBlocks = 1, kGroupM = 8;
constexpr int kThreads = 32 * (kBM / kWM) * (kBN / kWN);
constexpr int kSharedBytes = kStages * (kBM * (kBK + 4) + kBK * (kBN + 8)) * 4;

__global__ void __launch_bounds__(kThreads, kMinBlocks)
    tf32_tensor_core_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n, int k) {
  plain::matmul_tf32_tensor_core<kBM, kBN, kBK, kWM, kWN, kStages, kGroupM>(a, b, c, m, n, k);
}

}  // namespace

void launch_tf32_tensor_core(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const int blocks = ceil_div(m, kBM) * ceil_div(n, kBN);
  launch_checked(tf32_tensor_core_kernel, dim3(blocks), kThreads, kSharedBytes, stream, a, b, c, m, n, k);
}

// The same configuration of the kernel before it was written once for every mode.
using Tf32Shipped = Tf32Config<128, 256, 32, 64, 64, 3, 1, 8>;

void launch_tf32_tensor_core_before(const float* a, const float* b, float* c, int m, int n, int k,
                                    cudaStream_t stream) {
  launch_tf32_config<Tf32Shipped>(a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
