// ladder.cpp — the ladder's rungs in order (then fp32-best, the tuned FP32
// entry that dispatches per shape), and what each one can run.
#include "kernels/ladder/ladder.h"

#include <cstdint>
#include <limits>

namespace ts::ladder {
namespace {

// clang-format off
constexpr LadderKernel kLadder[] = {
  {"blocktile-1d", "1D register blocktiling: 8 cells of a column per thread", "kernels/blocktile_1d.h",
   false, 64, 64, 1, 0, launch_blocktile_1d},
  {"blocktile-1d-before", "1D register blocktiling, the benchmark-only kernel it replaced",
   "kernels/ladder/blocktile_1d.cu", false, 64, 64, 1, 0, launch_blocktile_1d_before},
  {"blocktile-2d", "2D register blocktiling: 8 x 8 cells per thread", "kernels/blocktile_2d.h",
   false, 128, 128, 1, 0, launch_blocktile_2d},
  {"blocktile-2d-before", "2D register blocktiling, the benchmark-only kernel it replaced",
   "kernels/ladder/blocktile_2d.cu", false, 128, 128, 1, 0, launch_blocktile_2d_before},
  {"vectorized", "float4 loads and stores, A transposed in shared memory", "kernels/vectorized.h",
   false, 128, 128, 4, 0, launch_vectorized},
  {"vectorized-before", "float4 loads and stores, the benchmark-only kernel it replaced",
   "kernels/ladder/vectorized.cu", false, 128, 128, 4, 0, launch_vectorized_before},
  {"warptile", "warptiling: block, warp and thread tiles", "kernels/warptile.h",
   false, 128, 128, 4, 0, launch_warptile},
  {"warptile-before", "warptiling, the benchmark-only kernel it replaced", "kernels/ladder/warptile.cu",
   false, 128, 128, 4, 0, launch_warptile_before},
  {"double-buffer", "warptiling fed by a multi-stage cp.async pipeline", "kernels/double_buffer.h",
   false, 128, 256, 4, 0, launch_double_buffer},
  {"double-buffer-before", "the tuned cp.async pipeline: copies spread between the multiply-adds",
   "kernels/ladder/double_buffer.cuh", false, 128, 256, 4, 0, launch_double_buffer_before},
  {"tf32-tensor-core", "TF32 tensor cores (mma.sync m16n8k8) on the same pipeline", "kernels/ladder/tf32_tensor_core.cu",
   true, 128, 256, 4, 0, launch_tf32_tensor_core},
  {"tf32-tensor-core-before", "rung 6 as it was before its single-source header, for the side-by-side timing",
   "kernels/ladder/tf32_tensor_core.cuh", true, 128, 256, 4, 0, launch_tf32_tensor_core_before},
  {"tf32-wgmma", "TF32 warpgroup MMA (wgmma, Hopper), A read by the tensor cores from shared memory",
   "kernels/ladder/tf32_wgmma.cu", true, 256, 128, 4, 90, launch_tf32_wgmma},
  // A 256 x 128 tile per CTA; a cluster of two side by side in n reads A's tile once (TMA multicast):
  // for the bytes moved, the pair's 256 x 256.
  {"tf32-wgmma-ws",
   "TF32 wgmma, warp-specialised: TMA producer, two consumer warpgroups, mbarrier ring, persistent, pairs of CTAs "
   "sharing A by multicast (Hopper)",
   "kernels/ladder/tf32_wgmma_ws.cu", true, 256, 256, 1, 90, launch_tf32_wgmma_ws},
  {"fp32-best", "the best FP32 kernel for the shape: block tile and split of k chosen per shape, any size",
   "kernels/ladder/fp32_best.cu", false, 128, 256, 1, 0, launch_fp32_best},
};
// clang-format on

}  // namespace

std::span<const LadderKernel> ladder_kernels() { return kLadder; }

const LadderKernel* find_ladder_kernel(std::string_view name) {
  for (const LadderKernel& k : kLadder)
    if (k.name == name) return &k;
  return nullptr;
}

std::string index_refusal(int m, int n, int k) {
  const auto limit = static_cast<std::int64_t>(std::numeric_limits<int>::max());
  if (std::int64_t(m) * k > limit || std::int64_t(k) * n > limit || std::int64_t(m) * n > limit)
    return "a matrix of 2^31 or more elements is beyond the kernels' 32-bit indexing";
  return {};
}

std::string ladder_refusal(const LadderKernel& kernel, int m, int n, int k, int compute_capability) {
  const auto cc_text = [](int cc) { return std::to_string(cc / 10) + "." + std::to_string(cc % 10); };
  if (kernel.only_cc && compute_capability != kernel.only_cc)
    return std::string(kernel.name) + " is built for compute capability " + cc_text(kernel.only_cc) +
           " only (Hopper's wgmma, sm_90a); this GPU is " + cc_text(compute_capability);
  if (compute_capability < 80)
    return std::string(kernel.name) + " is built for compute capability 8.0 and newer (cp.async, TF32 mma); this GPU is " +
           cc_text(compute_capability);
  if (m < 1 || n < 1 || k < 1) return "m, n and k must be positive";
  if (std::string why = index_refusal(m, n, k); !why.empty()) return why;
  if (kernel.multiple_of > 1 && (k % kernel.multiple_of != 0 || n % kernel.multiple_of != 0))
    return std::string(kernel.name) + " loads 16-byte rows (float4): k and n must be multiples of " +
           std::to_string(kernel.multiple_of) + " (got k = " + std::to_string(k) + ", n = " + std::to_string(n) + ")";
  return {};
}

}  // namespace ts::ladder
