// blocktile_1d.cu — ladder rung 1: 1D register blocktiling (seed 004's kernel 4), as it
// was written for the benchmark alone ("blocktile-1d-before"), and the launch of its
// single-source version, kernels/blocktile_1d.h ("blocktile-1d").
// A 64 x 64 block tile of C; each thread keeps a column of TM = 8 cells in
// registers, so one value of B read from shared memory feeds 8 FMAs instead
// of 1. Any M, N, K: slots outside the matrices are staged as zeros.
#include "kernels/cuda/plain_kernels.cuh"
#include "kernels/ladder/ladder.h"
#include "kernels/ladder/ladder_device.cuh"

namespace ts::ladder {
namespace {

constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
constexpr int kThreads = BM * BN / TM;  // 512
static_assert(BM * BK == kThreads && BK * BN == kThreads, "each thread stages one element of A and one of B");

__global__ void __launch_bounds__(kThreads) blocktile_1d_before(const float* __restrict__ A, const float* __restrict__ B,
                                                         float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  const int cell_col = t % BN, cell_row = (t / BN) * TM;  // this thread's column of TM cells
  const int a_row = t / BK, a_col = t % BK;               // what it stages
  const int b_row = t / BN, b_col = t % BN;

  float acc[TM] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = row0 + a_row, ak = k0 + a_col, bk = k0 + b_row, bc = col0 + b_col;
    As[a_row][a_col] = (ar < M && ak < K) ? A[ar * K + ak] : 0.0f;
    Bs[b_row][b_col] = (bk < K && bc < N) ? B[bk * N + bc] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      const float b = Bs[kk][cell_col];  // one shared load ...
#pragma unroll
      for (int i = 0; i < TM; ++i) acc[i] += As[cell_row + i][kk] * b;  // ... reused TM times
    }
    __syncthreads();
  }
  const int col = col0 + cell_col;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + cell_row + i;
    if (row < M && col < N) C[row * N + col] = acc[i];
  }
}

}  // namespace

void launch_blocktile_1d_before(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_checked(blocktile_1d_before, dim3(ceil_div(n, BN), ceil_div(m, BM)), kThreads, 0, stream, a, b, c, m, n, k);
}

}  // namespace ts::ladder

namespace ts::ladder {

// The rung as the benchmark times it now: the plain build of kernels/blocktile_1d.h,
// the same source the app records. The kernel above stays as "blocktile-1d-before"
// until the two have been compared on a GPU (docs/ladder-notes.md).
void launch_blocktile_1d(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  gpu::launch_plain(KernelKind::Blocktile1d, 0, a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
