// tiled.h — shared-memory tiled matmul, block = TILE x TILE threads (seed 003).
// Per k-iteration the block stages one TILE x TILE tile of A and one of B in
// shared memory (each thread copies one element of each), waits, and every
// thread does TILE multiply-adds out of shared memory. Slots that fall outside
// the matrices are filled with zeros, so any M x K x N works.
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

template <int TILE>
TS_DEVICE inline void matmul_tiled(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  static_assert(TILE >= 1 && TILE <= 32 && (TILE & (TILE - 1)) == 0, "TILE: a power of two up to 32");
  TS_SHARED(float, As, TILE, TILE);
  TS_SHARED(float, Bs, TILE, TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_col = t * TILE + tx;
    const int b_row = t * TILE + ty;
    if (row < M && a_col < K) As[ty][tx] = A[row * K + a_col];  // [load]
    else                      As[ty][tx] = 0.0f;
    if (b_row < K && col < N) Bs[ty][tx] = B[b_row * N + col];  // [load]
    else                      Bs[ty][tx] = 0.0f;
    __syncthreads();  // [barrier] the tiles are complete
    for (int k = 0; k < TILE; ++k) {
      acc += As[ty][k] * Bs[k][tx];  // [mac]
    }
    __syncthreads();  // [barrier] everyone is done reading before the next load
  }
  if (row < M && col < N) C[row * N + col] = acc;  // [store]
}

}  // namespace TS_KERNEL_NS
