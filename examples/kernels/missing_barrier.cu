// missing_barrier.cu — first_tiled.cu without its second __syncthreads():
// a fast thread starts loading the next k-step's tiles while slower threads of
// its block still read the current ones. Record it with
//   tilescope record --kernel-file examples/kernels/missing_barrier.cu --entry matmul_tiled \
//       --block 16x16 -D TILE=16 --size 64 -o race.tstrace
#include <tilescope/kernel.h>

TS_DEVICE void matmul_tiled(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  TS_SHARED(float, As, TILE, TILE);
  TS_SHARED(float, Bs, TILE, TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_col = t * TILE + tx;
    const int b_row = t * TILE + ty;
    if (row < M && a_col < K) As[ty][tx] = A[row * K + a_col];
    else                      As[ty][tx] = 0.0f;
    if (b_row < K && col < N) Bs[ty][tx] = B[b_row * N + col];
    else                      Bs[ty][tx] = 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    // BUG: no __syncthreads() here; the next iteration overwrites As and Bs
    // while other threads of the block may still be reading them.
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
