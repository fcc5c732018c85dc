// tf32_wgmma.cu — ladder rung 7: the configuration of tf32_wgmma.cuh that
// ships, built for sm_90a only. The choice and the figures behind it are in
// docs/ladder-notes.md.
#include "kernels/ladder/ladder.h"
#include "kernels/ladder/tf32_wgmma.cuh"

namespace ts::ladder {

// 256 rows x 128 columns of C per block (two warpgroups of 64 columns, each
// one m64n256k8 wgmma per 8 k), 4 stages, 128-byte swizzled A, groups of 8.
using WgmmaShipped = WgmmaConfig<256, 2, 4, 0, 0, 8>;

void launch_tf32_wgmma(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_wgmma_config<WgmmaShipped>(a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
