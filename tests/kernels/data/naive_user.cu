// A kernel without barriers or shared tiles (the naive kernel as a user writes it):
// its k-steps are the block tile's width (tests/kernels/user_kernel_test.cpp).
#include <tilescope/kernel.h>

TS_DEVICE void matmul_naive(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
