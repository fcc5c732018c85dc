// first_tiled.cu — a first shared-memory tiled matmul, as a course writes it
// (kernels/tiled.h is tilescope's own copy). Record it with
//   tilescope record --kernel-file examples/kernels/first_tiled.cu --entry matmul_tiled \
//       --block 16x16 -D TILE=16 --size 100 -o first.tstrace
// Each block computes a TILE x TILE tile of C; per k-step it stages one tile of
// A and one of B in shared memory (each thread copies one element of each),
// waits, and multiplies out of shared memory.
#include <tilescope/kernel.h>

TS_DEVICE void matmul_tiled(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  TS_SHARED(float, As, TILE, TILE);  // shared tiles are named As and Bs
  TS_SHARED(float, Bs, TILE, TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_col = t * TILE + tx;
    const int b_row = t * TILE + ty;
    // Slots outside the matrices get zeros, so any M, N, K works.
    if (row < M && a_col < K) As[ty][tx] = A[row * K + a_col];
    else                      As[ty][tx] = 0.0f;
    if (b_row < K && col < N) Bs[ty][tx] = B[b_row * N + col];
    else                      Bs[ty][tx] = 0.0f;
    __syncthreads();  // the tiles are complete
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();  // everyone is done reading before the next load
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
