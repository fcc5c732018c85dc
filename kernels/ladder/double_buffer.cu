// double_buffer.cu — ladder rung 5: the configuration of double_buffer.cuh
// that ships, the fastest FP32 kernel of the ladder. The choice and the
// figures behind it are in docs/ladder-notes.md.
#include "kernels/ladder/double_buffer.cuh"
#include "kernels/ladder/ladder.h"

namespace ts::ladder {

// 128 x 128 x 8 block tile, 8 warps of 64 x 32, 8 x 8 per thread, 3 stages,
// 2 blocks per SM, groups of 8 block rows.
using DoubleBufferShipped = DoubleBufferConfig<128, 128, 8, 64, 32, 8, 8, 3, 2, 8>;

void launch_double_buffer(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_double_buffer_config<DoubleBufferShipped>(a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
