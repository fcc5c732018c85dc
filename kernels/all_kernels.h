// all_kernels.h — every kernel family and one entry point, run_kernel<KIND, TILE>,
// for the mode that the includer set up (see kernel_api.h). The ladder's rungs
// take their fixed configuration from kernels/rungs.h (TILE is 0).
#pragma once
#include "kernels/blocktile_1d.h"
#include "kernels/blocktile_2d.h"
#include "kernels/coarsened.h"
#include "kernels/double_buffer.h"
#include "kernels/kernel_kind.h"
#include "kernels/naive.h"
#include "kernels/naive_row.h"
#include "kernels/rungs.h"
#include "kernels/tf32_tensor_core.h"
#include "kernels/tiled.h"
#include "kernels/tiled_transposed.h"
#include "kernels/vectorized.h"
#include "kernels/warptile.h"

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
  else {
    constexpr ::ts::RungConfig c = ::ts::rung_config(KIND);
    if constexpr (KIND == KernelKind::Blocktile1d) matmul_blocktile_1d<c.bm, c.bn, c.bk, c.tm>(A, B, C, M, N, K);
    else if constexpr (KIND == KernelKind::Blocktile2d)
      matmul_blocktile_2d<c.bm, c.bn, c.bk, c.tm, c.tn>(A, B, C, M, N, K);
    else if constexpr (KIND == KernelKind::Vectorized) matmul_vectorized<c.bm, c.bn, c.bk, c.tm, c.tn>(A, B, C, M, N, K);
    else if constexpr (KIND == KernelKind::Warptile)
      matmul_warptile<c.bm, c.bn, c.bk, c.wm, c.wn, c.tm, c.tn>(A, B, C, M, N, K);
    else if constexpr (KIND == KernelKind::DoubleBuffer)
      matmul_double_buffer<c.bm, c.bn, c.bk, c.wm, c.wn, c.tm, c.tn, c.stages, c.group_m>(A, B, C, M, N, K);
    else if constexpr (KIND == KernelKind::Tf32TensorCore)
      matmul_tf32_tensor_core<c.bm, c.bn, c.bk, c.wm, c.wn, c.stages, c.group_m>(A, B, C, M, N, K);
  }
}

}  // namespace TS_KERNEL_NS
