// double_buffer.cu — ladder rung 5: the configuration of double_buffer.cuh
// that ships, the fastest FP32 kernel of the ladder. The choice and the
// figures behind it are in docs/ladder-notes.md.
#include "kernels/ladder/double_buffer.cuh"
#include "kernels/ladder/ladder.h"

namespace ts::ladder {

// 128 x 256 x 16 block tile, 8 warps of 64 x 64, 16 x 8 per thread (24 shared
// loads feed 128 FMAs per k), 3 stages, 1 block per SM, groups of 8 block
// rows, the k loop fully unrolled. Run 4: 88.8% of cuBLAS at 4096, against
// 86.3% for the same tile with 8 x 16 per thread.
using DoubleBufferShipped = DoubleBufferConfig<128, 256, 16, 64, 64, 16, 8, 3, 1, 8>;

void launch_double_buffer(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_double_buffer_config<DoubleBufferShipped>(a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
