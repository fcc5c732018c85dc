// all_kernels.h — every kernel family and one entry point, run_kernel<KIND, TILE>,
// for the mode that the includer set up (see kernel_api.h).
#pragma once
#include "kernels/coarsened.h"
#include "kernels/kernel_kind.h"
#include "kernels/naive.h"
#include "kernels/naive_row.h"
#include "kernels/tiled.h"
#include "kernels/tiled_transposed.h"

namespace TS_KERNEL_NS {

template <::ts::KernelKind KIND, int TILE>
TS_DEVICE inline void run_kernel(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  using ::ts::KernelKind;
  if constexpr (KIND == KernelKind::Naive) matmul_naive(A, B, C, M, N, K);
  else if constexpr (KIND == KernelKind::NaiveRow) matmul_naive_row(A, B, C, M, N, K);
  else if constexpr (KIND == KernelKind::Tiled) matmul_tiled<TILE>(A, B, C, M, N, K);
  else if constexpr (KIND == KernelKind::Coarsened) matmul_coarsened<TILE>(A, B, C, M, N, K);
  else if constexpr (KIND == KernelKind::TiledTransposed) matmul_tiled_transposed<TILE, 0>(A, B, C, M, N, K);
  else if constexpr (KIND == KernelKind::TiledPadded) matmul_tiled_transposed<TILE, 1>(A, B, C, M, N, K);
}

}  // namespace TS_KERNEL_NS
