// sgemm_alpha_beta.cu — SGEMM as BLAS defines it, C = alpha A B + beta C, in
// the shape of a course's or a blog's first listing: one thread per cell of C.
// Its scalars come from the command line. Record it with
//   tilescope record --kernel-file examples/kernels/sgemm_alpha_beta.cu --entry sgemm \
//       --block 16x16 --arg alpha=2 --arg beta=0.5 --size 64 -o sgemm.tstrace
// An entry that takes a beta finds C at 0 (beta C adds nothing), and C is
// checked against alpha A x B.
#include <tilescope/kernel.h>

TS_DEVICE void sgemm(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, float alpha, float beta) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float tmp = 0.0f;
    for (int i = 0; i < K; ++i) tmp += A[row * K + i] * B[i * N + col];
    C[row * N + col] = alpha * tmp + beta * C[row * N + col];
  }
}
