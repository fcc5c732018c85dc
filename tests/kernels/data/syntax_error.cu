// A user kernel with a syntax error on line 5 (user_kernel_test asserts the file:line).
#include <tilescope/kernel.h>

TS_DEVICE void broken(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  float x = ;
  C[0] = A[0] * B[0] + x + M + N + K;
}
