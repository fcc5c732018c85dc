// missing_bounds_check.cu — first_tiled.cu without its bounds checks: right
// when TILE divides M, N and K, out of bounds otherwise. Record it at a size
// TILE does not divide:
//   tilescope record --kernel-file examples/kernels/missing_bounds_check.cu --entry matmul_tiled \
//       --block 16x16 -D TILE=16 --size 50 -o oob.tstrace
#include <tilescope/kernel.h>

TS_DEVICE void matmul_tiled(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  TS_SHARED(float, As, TILE, TILE);
  TS_SHARED(float, Bs, TILE, TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    // BUG: no check that row < M and t * TILE + tx < K (nor for B): the last
    // tiles of a ragged size read past the ends of A and B.
    As[ty][tx] = A[row * K + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;  // BUG: also written outside C
}
