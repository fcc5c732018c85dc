// naive.h — one thread per cell of C, threadIdx.x -> column (coalesced).
// Each thread walks row `row` of A and column `col` of B straight from global
// memory. Seed 003's first listing, bounds-checked for any M x K x N.
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

TS_DEVICE inline void matmul_naive(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
      acc += A[row * K + k] * B[k * N + col];  // [mac]
    }
    C[row * N + col] = acc;  // [store]
  }
}

}  // namespace TS_KERNEL_NS
