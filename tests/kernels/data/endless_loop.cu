// endless_loop.cu — a kernel whose k-loop never ends (`k += 0`, the typo), for
// the tests of `record --timeout`: the emulator must stop it at the deadline
// and say where its threads are; on a GPU the launch must be abandoned.
#include <tilescope/kernel.h>

TS_DEVICE void matmul_endless(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; k += 0) {
    acc += A[row * K + k] * B[k * N + col];  // [loop]
  }
  C[row * N + col] = acc;
}
