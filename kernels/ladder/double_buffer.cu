// double_buffer.cu — ladder rung 5 in the benchmark: kernels/double_buffer.h,
// the listing the app records, at the configuration that ships; and the
// tuned kernel it is compared with (double_buffer.cuh), as double-buffer-before.
// The choices and the figures behind them are in docs/ladder-notes.md.
// clang-format off
#include "kernels/ladder/double_buffer_listing.cuh"  // first: it sets up the plain mode
// clang-format on

#include "kernels/ladder/double_buffer.cuh"
#include "kernels/ladder/ladder.h"

namespace ts::ladder {

// The listing: 128 x 256 x 32 block tile, 8 warps of 64 x 64, 16 x 8 cells per
// lane, 4 stages (194 KB of dynamic shared memory, 1 block per SM), a grid
// laid out like C's tiles (run 14: 93.6-93.8% of cuBLAS at 4096^3 on the H100,
// against 91.4-91.5% in groups of 8 block rows), the refill copies issued after
// a k-tile's multiply-adds (run 28: 96.3% at 4096^3 on the H100, 94.4% with
// them before).
using DoubleBufferListing = ListingConfig<128, 256, 32, 64, 64, 16, 8, 4, 0>;

void launch_double_buffer(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_double_buffer_listing<DoubleBufferListing>(a, b, c, m, n, k, stream);
}

// The tuned kernel: the same tiles, lanes paired for half-wavefront fragment
// loads, the copies of a k-tile in 4 runs of 6 between the multiply-adds,
// clamped addresses, the barrier before a tile's last k. Run 7 (H200): 97.2%
// of cuBLAS at 4096, 99.8% at 8192.
using DoubleBufferTuned = DoubleBufferConfig<128, 256, 32, 64, 64, 16, 8, 3, 8, 0, 1, 6>;

void launch_double_buffer_before(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_double_buffer_config<DoubleBufferTuned>(a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
