// blocktile_1d.h — 1D register blocktiling (seed 004's ladder, kernel 4).
// A block of BM * BN / TM threads computes a BM x BN tile of C. Per k-tile it
// stages a BM x BK tile of A and a BK x BN tile of B in shared memory (one
// element of each per thread), then each thread accumulates a column of TM
// cells in registers: one value of B read from shared memory feeds TM
// multiply-adds. Slots outside the matrices are staged as zeros: any M, N, K.
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

template <int BM, int BN, int BK, int TM>
TS_DEVICE inline void matmul_blocktile_1d(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  static_assert(BM * BK == BM * BN / TM && BK * BN == BM * BN / TM, "each thread stages one element of A and of B");
  TS_SHARED(float, As, BM, BK);
  TS_SHARED(float, Bs, BK, BN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  const int threadCol = t % BN, threadRow = (t / BN) * TM;  // this thread's column of TM cells
  const int innerRowA = t / BK, innerColA = t % BK;         // the element of A it stages
  const int innerRowB = t / BN, innerColB = t % BN;         // and of B
  float threadResults[TM] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int a_row = row0 + innerRowA, a_col = k0 + innerColA;
    const int b_row = k0 + innerRowB, b_col = col0 + innerColB;
    if (a_row < M && a_col < K) As[innerRowA][innerColA] = A[a_row * K + a_col];  // [load]
    else                        As[innerRowA][innerColA] = 0.0f;
    if (b_row < K && b_col < N) Bs[innerRowB][innerColB] = B[b_row * N + b_col];  // [load]
    else                        Bs[innerRowB][innerColB] = 0.0f;
    __syncthreads();  // [barrier] the tiles are complete
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      const float b = Bs[k][threadCol];  // [mac] one shared read ...
      TS_UNROLL for (int i = 0; i < TM; ++i) threadResults[i] += As[threadRow + i][k] * b;  // ... used TM times
    }
    __syncthreads();  // [barrier] everyone is done reading before the next load
  }
  TS_UNROLL for (int i = 0; i < TM; ++i) {
    const int row = row0 + threadRow + i, col = col0 + threadCol;
    if (row < M && col < N) C[row * N + col] = threadResults[i];  // [store]
  }
}

}  // namespace TS_KERNEL_NS
