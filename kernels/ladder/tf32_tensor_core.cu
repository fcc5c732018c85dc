// tf32_tensor_core.cu — ladder rung 6: the configuration of
// tf32_tensor_core.cuh that ships. The choice and the figures behind it are
// in docs/ladder-notes.md.
#include "kernels/ladder/ladder.h"
#include "kernels/ladder/tf32_tensor_core.cuh"

namespace ts::ladder {

// 128 x 128 x 32 block tile, 8 warps of 64 x 32, 3 stages, 2 blocks per SM,
// groups of 8 block rows.
using Tf32Shipped = Tf32Config<128, 128, 32, 64, 32, 3, 2, 8>;

void launch_tf32_tensor_core(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_tf32_config<Tf32Shipped>(a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
