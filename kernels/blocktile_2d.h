// blocktile_2d.h — 2D register blocktiling (seed 004's ladder, kernel 5).
// A block of (BM / TM) * (BN / TN) threads computes a BM x BN tile of C; each
// thread owns a TM x TN patch of it in registers (threadResults). Per k-tile
// the threads stage BM x BK of A and BK x BN of B in shared memory, then per k
// each thread reads TM values of A into regM and TN of B into regN and adds
// their outer product: TM + TN shared reads feed TM * TN multiply-adds.
// Slots outside the matrices are staged as zeros: any M, N, K. The zero is
// written first: so nvcc merges the two stores into one, as in the
// benchmark-only kernel (docs/ladder-notes.md, "plain-build parity").
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

template <int BM, int BN, int BK, int TM, int TN>
TS_DEVICE inline void matmul_blocktile_2d(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  static_assert(BM * BK % kThreads == 0 && BK * BN % kThreads == 0, "the threads stage whole tiles");
  TS_SHARED(float, As, BM, BK);
  TS_SHARED(float, Bs, BK, BN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  const int threadRow = (t / (BN / TN)) * TM, threadCol = (t % (BN / TN)) * TN;  // this thread's patch
  float threadResults[TM][TN] = {};
  float regM[TM], regN[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    TS_UNROLL for (int e = t; e < BM * BK; e += kThreads) {  // neighbouring threads: neighbouring k of a row of A
      const int r = e / BK, c = e % BK;
      if (row0 + r >= M || k0 + c >= K) As[r][c] = 0.0f;  // outside A
      else                              As[r][c] = A[(row0 + r) * K + k0 + c];  // [load]
    }
    TS_UNROLL for (int e = t; e < BK * BN; e += kThreads) {
      const int r = e / BN, c = e % BN;
      if (k0 + r >= K || col0 + c >= N) Bs[r][c] = 0.0f;  // outside B
      else                              Bs[r][c] = B[(k0 + r) * N + col0 + c];  // [load]
    }
    __syncthreads();  // [barrier] the tiles are complete
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      TS_UNROLL for (int i = 0; i < TM; ++i) regM[i] = As[threadRow + i][k];  // [mac] registers from shared
      TS_UNROLL for (int j = 0; j < TN; ++j) regN[j] = Bs[k][threadCol + j];
      TS_UNROLL for (int i = 0; i < TM; ++i)
        TS_UNROLL for (int j = 0; j < TN; ++j) threadResults[i][j] += regM[i] * regN[j];  // the outer product
    }
    __syncthreads();  // [barrier] everyone is done reading before the next load
  }
  TS_UNROLL for (int i = 0; i < TM; ++i)
    TS_UNROLL for (int j = 0; j < TN; ++j) {
      const int row = row0 + threadRow + i, col = col0 + threadCol + j;
      if (row < M && col < N) C[row * N + col] = threadResults[i][j];  // [store]
    }
}

}  // namespace TS_KERNEL_NS
