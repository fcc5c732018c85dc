// vectorized.h — vectorized memory access (seed 004's ladder, kernel 6).
// The 2D blocktiling of kernel 5 with every global load and store 16 bytes
// wide (float4: one request per lane moves four floats), and A's tile stored
// transposed in shared memory, As[k][m], so that the TM values of A a thread
// needs for one k are contiguous and also load as float4. Rows of A and B are
// read as float4, so K and N must be multiples of 4 (16-byte aligned rows);
// any M, and tiles past the matrices' edges, are handled with zero padding.
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

template <int BM, int BN, int BK, int TM, int TN>
TS_DEVICE inline void matmul_vectorized(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  static_assert(BM * BK / 4 == kThreads && BK * BN / 4 == kThreads, "each thread stages one float4 of A and of B");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "registers are filled four at a time");
  TS_SHARED_ALIGNED(float, As, BK, BM);  // transposed: As[k][m]
  TS_SHARED_ALIGNED(float, Bs, BK, BN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  const int threadRow = (t / (BN / TN)) * TM, threadCol = (t % (BN / TN)) * TN;  // this thread's patch
  const int innerRowA = t / (BK / 4), innerColA = (t % (BK / 4)) * 4;  // the float4 of a row of A it stages
  const int innerRowB = t / (BN / 4), innerColB = (t % (BN / 4)) * 4;  // and of a row of B
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float threadResults[TM][TN] = {};
  float regM[TM], regN[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    const bool a_in = row0 + innerRowA < M && k0 + innerColA < K;
    const float4 a = a_in ? load4(A[(row0 + innerRowA) * K + k0 + innerColA]) : zero;  // [load]
    As[innerColA + 0][innerRowA] = a.x;  // transposed on the way in
    As[innerColA + 1][innerRowA] = a.y;
    As[innerColA + 2][innerRowA] = a.z;
    As[innerColA + 3][innerRowA] = a.w;
    const bool b_in = k0 + innerRowB < K && col0 + innerColB < N;
    store4(Bs[innerRowB][innerColB], b_in ? load4(B[(k0 + innerRowB) * N + col0 + innerColB]) : zero);  // [load]
    __syncthreads();  // [barrier] the tiles are complete
    TS_UNROLL for (int k = 0; k < BK; ++k) {
      TS_UNROLL for (int i = 0; i < TM; i += 4) {
        const float4 m4 = load4(As[k][threadRow + i]);  // [mac] four rows of A in one shared read
        regM[i + 0] = m4.x, regM[i + 1] = m4.y, regM[i + 2] = m4.z, regM[i + 3] = m4.w;
      }
      TS_UNROLL for (int j = 0; j < TN; j += 4) {
        const float4 n4 = load4(Bs[k][threadCol + j]);
        regN[j + 0] = n4.x, regN[j + 1] = n4.y, regN[j + 2] = n4.z, regN[j + 3] = n4.w;
      }
      TS_UNROLL for (int i = 0; i < TM; ++i)
        TS_UNROLL for (int j = 0; j < TN; ++j) threadResults[i][j] += regM[i] * regN[j];  // the outer product
    }
    __syncthreads();  // [barrier] everyone is done reading before the next load
  }
  TS_UNROLL for (int i = 0; i < TM; ++i) {
    const int row = row0 + threadRow + i;
    TS_UNROLL for (int j = 0; j < TN; j += 4) {
      const int col = col0 + threadCol + j;
      const float* r = threadResults[i];
      if (row < M && col < N) store4(C[row * N + col], make_float4(r[j], r[j + 1], r[j + 2], r[j + 3]));  // [store]
    }
  }
}

}  // namespace TS_KERNEL_NS
