// tf32_tensor_core.cu — ladder rung 6: the configuration of
// tf32_tensor_core.cuh that ships. The choice and the figures behind it are
// in docs/ladder-notes.md.
#include "kernels/ladder/ladder.h"
#include "kernels/ladder/tf32_tensor_core.cuh"

namespace ts::ladder {

// 128 x 256 x 32 block tile, 8 warps of 64 x 64 (4 x 8 mma tiles each), 3
// stages, 1 block per SM, groups of 8 block rows.
using Tf32Shipped = Tf32Config<128, 256, 32, 64, 64, 3, 1, 8>;

void launch_tf32_tensor_core(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_tf32_config<Tf32Shipped>(a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
