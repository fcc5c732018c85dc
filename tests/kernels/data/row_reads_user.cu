// Reads of one row of a shared tile that the compiler merges, or not
// (app/core/analysis/compiled_loads.h; tests/kernels/user_kernel_test.cpp).
// Block TILE x TILE with TILE = 8: a warp is 4 rows of 8 lanes.
#include <tilescope/kernel.h>

TS_DEVICE void row_reads(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  TS_SHARED(float, As, TILE, TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  if (row < M && tx < K) As[ty][tx] = A[row * K + tx];
  else                   As[ty][tx] = 0.0f;
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 4; ++k) acc += As[ty][k];  // words 0..3 of the row: one 16-byte load
  acc += As[ty][1];                              // word 1 again: a load of its own
  acc += As[ty][4];                              // words 4 and 5: one 8-byte load
  acc += As[ty][5];
  acc += As[ty][7];                              // word 7 alone: a 4-byte load
  acc += As[tx][3];                              // lanes a row apart, not the family's: as it is
  if (row < M && col < N) C[row * N + col] = acc + B[col] * 0.0f;
}
