// vectorized.cu — ladder rung 3: vectorized memory access (seed 004's kernel 6), as it
// was written for the benchmark alone ("vectorized-before"), and the launch of its
// single-source version, kernels/vectorized.h ("vectorized").
// The 2D blocktiling of rung 2, with every global load and store 16 bytes
// wide (float4), and A's tile stored transposed in shared memory so that a
// thread's 8 values of A for one k are contiguous and load as two float4.
// Needs K and N to be multiples of 4 (16-byte aligned rows); any M, and any
// K, N beyond that, are handled with zero padding.
#include "kernels/cuda/plain_kernels.cuh"
#include "kernels/ladder/ladder.h"
#include "kernels/ladder/ladder_device.cuh"

namespace ts::ladder {
namespace {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int kThreads = (BM / TM) * (BN / TN);  // 256
static_assert(BM * BK / 4 == kThreads && BK * BN / 4 == kThreads, "each thread stages one float4 of A and of B");

__global__ void __launch_bounds__(kThreads) vectorized_before(const float* __restrict__ A, const float* __restrict__ B,
                                                       float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[BK][BM];  // transposed: As[k][m]
  __shared__ __align__(16) float Bs[BK][BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  const int cell_row = (t / (BN / TN)) * TM, cell_col = (t % (BN / TN)) * TN;
  const int a_row = t / (BK / 4), a_k = (t % (BK / 4)) * 4;  // one float4 of a row of A
  const int b_k = t / (BN / 4), b_col = (t % (BN / 4)) * 4;  // one float4 of a row of B
  const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);

  float acc[TM][TN] = {};
  float a_reg[TM], b_reg[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    const bool a_in = row0 + a_row < M && k0 + a_k < K;
    const float4 a4 = a_in ? *reinterpret_cast<const float4*>(&A[(row0 + a_row) * K + k0 + a_k]) : zero;
    As[a_k + 0][a_row] = a4.x;
    As[a_k + 1][a_row] = a4.y;
    As[a_k + 2][a_row] = a4.z;
    As[a_k + 3][a_row] = a4.w;
    const bool b_in = k0 + b_k < K && col0 + b_col < N;
    *reinterpret_cast<float4*>(&Bs[b_k][b_col]) =
        b_in ? *reinterpret_cast<const float4*>(&B[(k0 + b_k) * N + col0 + b_col]) : zero;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int i = 0; i < TM; i += 4) *reinterpret_cast<float4*>(&a_reg[i]) = *reinterpret_cast<const float4*>(&As[kk][cell_row + i]);
#pragma unroll
      for (int j = 0; j < TN; j += 4) *reinterpret_cast<float4*>(&b_reg[j]) = *reinterpret_cast<const float4*>(&Bs[kk][cell_col + j]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + cell_row + i;
    if (row >= M) continue;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const int col = col0 + cell_col + j;
      if (col < N)
        *reinterpret_cast<float4*>(&C[row * N + col]) = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
    }
  }
}

}  // namespace

void launch_vectorized_before(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_checked(vectorized_before, dim3(ceil_div(n, BN), ceil_div(m, BM)), kThreads, 0, stream, a, b, c, m, n, k);
}

}  // namespace ts::ladder

namespace ts::ladder {

// The rung as the benchmark times it now: the plain build of kernels/vectorized.h,
// the same source the app records. The kernel above stays as "vectorized-before"
// until the two have been compared on a GPU (docs/ladder-notes.md).
void launch_vectorized(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  gpu::launch_plain(KernelKind::Vectorized, 0, a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
