// naive_row.h — one thread per cell of C, threadIdx.x -> row (uncoalesced).
// The same arithmetic as naive.h with the thread mapping swapped, as in seed
// 004's first kernel: the 32 lanes of a warp read 32 different rows of A and
// write 32 different rows of C, so each warp-wide access touches 32 lines.
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

TS_DEVICE inline void matmul_naive_row(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
      acc += A[row * K + k] * B[k * N + col];  // [mac]
    }
    C[row * N + col] = acc;  // [store]
  }
}

}  // namespace TS_KERNEL_NS
