// bench_cublas.cuh — cuBLAS, the benchmark's yardstick: row-major C = A * B in
// FP32 (SGEMM) and with TF32 tensor cores, every status checked.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

namespace ts::gpu {

class CublasHandle {
 public:
  CublasHandle();  // throws GpuError
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;

  // Row-major m x k times k x n. cuBLAS is column-major, so this asks it for
  // C^T = B^T * A^T, which has the same bytes as row-major C.
  void gemm_fp32(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
  void gemm_tf32(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);

  // Column-major, as cuBLAS sees matrices: C (m x n, ld m) = A (m x k, ld m) * B (k x n, ld k).
  void gemm_col_major(const float* a, const float* b, float* c, int m, int n, int k, bool tf32, cudaStream_t stream);

  static std::string version();  // e.g. "13.0.2"

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace ts::gpu
