// cp.async copies of 4 bytes whose lanes read several 128-byte lines of A
// (app/core/analysis/bank_conflicts.h, copy_line_wavefronts;
// tests/kernels/user_kernel_test.cpp). Block TILE x TILE with TILE = 8: a warp
// is 4 rows of 8 lanes. Each k-tile, a thread copies its row's element
// k0 + tx of A into As[tx][ty] (transposed, as double-buffer copies A); with
// K = 64 the warp's 4 rows of A lie in 4 lines.
#include <tilescope/kernel.h>

TS_DEVICE void copy_rows(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  TS_SHARED(float, As, TILE, TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    const bool in = row < M && k0 + tx < K;
    cp_async4_or_zero(As[tx][ty], A[in ? row * K + k0 + tx : 0], in);
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[k][ty] * B[(k0 + k < K ? k0 + k : 0) * N + (col < N ? col : 0)];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
