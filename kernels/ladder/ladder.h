// ladder.h — the benchmark-only kernels beyond the visualized ones: each rung
// of seed 004's ladder toward cuBLAS, one kernel per file named by its rung.
// They run on the GPU only (no emulator, no recording) and compute
// C = A * B, all row-major FP32 (A m x k, B k x n).
#pragma once

#include <cuda_runtime.h>

#include <span>
#include <string>
#include <string_view>

namespace ts::ladder {

using LaunchFn = void (*)(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);

struct LadderKernel {
  std::string_view name;    // command-line name, e.g. "warptile"
  std::string_view title;   // for people
  std::string_view source;  // the file that holds it
  bool tf32;                // tensor cores with TF32 inputs (else FP32 FMA)
  int block_m, block_n;     // the tile of C one block owns: sets the global bytes moved
  int multiple_of;          // k and n must be multiples of this (float4 rows: 4), 1 = any size
  int only_cc;              // runs only on this compute capability (90: sm_90a code), 0 = any from 8.0
  LaunchFn launch;          // checks the launch, does not synchronize
};

// In ladder order, lowest rung first.
std::span<const LadderKernel> ladder_kernels();
const LadderKernel* find_ladder_kernel(std::string_view name);

// Why kernel cannot run this shape on a GPU of this compute capability, or
// empty when it can. Every rung handles sizes that are not multiples of its
// tile; the vectorized rungs need 16-byte aligned rows.
std::string ladder_refusal(const LadderKernel& kernel, int m, int n, int k, int compute_capability);

// Why a shape is beyond 32-bit int indexing (a matrix of 2^31 or more
// elements), or empty. The ladder and the visualized kernels both index so.
std::string index_refusal(int m, int n, int k);

// One declaration per rung, defined in the rung's file.
void launch_blocktile_1d(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_blocktile_2d(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
// The rungs as they were before their single-source headers, kept for the comparison.
void launch_blocktile_1d_before(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_blocktile_2d_before(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_vectorized_before(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_warptile_before(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_double_buffer_before(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_vectorized(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_warptile(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_double_buffer(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_tf32_tensor_core(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_tf32_tensor_core_before(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
void launch_tf32_wgmma(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
// Not a rung of its own in the course: rung 7 built like production Hopper GEMMs (tf32_wgmma_ws.h).
void launch_tf32_wgmma_ws(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
// Not a rung: the fastest FP32 plan for the shape (fp32_best.h).
void launch_fp32_best(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);

}  // namespace ts::ladder
