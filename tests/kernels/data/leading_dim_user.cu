// A kernel with scalars after M, N, K (tests/kernels/user_args_test.cpp): A's
// rows are lda apart, a leading dimension bound with --arg, and the product is
// scaled by alpha, which has a default.
#include <tilescope/kernel.h>

/* Not the entry: a word of it in a comment, void matmul_ld(int x) */
TS_DEVICE void matmul_ld(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K,
                         const int lda,  // A[row][k] is A[row * lda + k]
                         float alpha = 1.0f) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * lda + k] * B[k * N + col];
  C[row * N + col] = alpha * acc;
}
