// bench_cublas.cpp — the cuBLAS references of the benchmark.
#include "kernels/cuda/bench_cublas.cuh"
#include "kernels/cuda/gpu_runtime.h"

namespace ts::gpu {
namespace {

void check_cublas(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::string msg = std::string("cuBLAS: ") + cublasGetStatusString(status) + " (" + call + ")";
  if (status == CUBLAS_STATUS_ALLOC_FAILED) msg = "out of GPU memory: " + msg;
  throw GpuError(msg);
}

#define TS_CUBLAS_CHECK(call) check_cublas((call), #call)

}  // namespace

CublasHandle::CublasHandle() { TS_CUBLAS_CHECK(cublasCreate(&handle_)); }

CublasHandle::~CublasHandle() {
  if (handle_) cublasDestroy(handle_);  // nothing to report at teardown
}

void CublasHandle::gemm_fp32(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const float one = 1.0f, zero = 0.0f;
  TS_CUBLAS_CHECK(cublasSetStream(handle_, stream));
  TS_CUBLAS_CHECK(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));  // plain FP32, whatever the environment says
  TS_CUBLAS_CHECK(cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n));
}

void CublasHandle::gemm_tf32(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const float one = 1.0f, zero = 0.0f;
  TS_CUBLAS_CHECK(cublasSetStream(handle_, stream));
  TS_CUBLAS_CHECK(cublasGemmEx(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_32F, n, a, CUDA_R_32F, k,
                               &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
}

void CublasHandle::gemm_col_major(const float* a, const float* b, float* c, int m, int n, int k, bool tf32,
                                  cudaStream_t stream) {
  const float one = 1.0f, zero = 0.0f;
  TS_CUBLAS_CHECK(cublasSetStream(handle_, stream));
  TS_CUBLAS_CHECK(cublasGemmEx(handle_, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, CUDA_R_32F, m, b, CUDA_R_32F, k,
                               &zero, c, CUDA_R_32F, m, tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F,
                               CUBLAS_GEMM_DEFAULT));
}

std::string CublasHandle::version() {
  int major = 0, minor = 0, patch = 0;
  TS_CUBLAS_CHECK(cublasGetProperty(MAJOR_VERSION, &major));
  TS_CUBLAS_CHECK(cublasGetProperty(MINOR_VERSION, &minor));
  TS_CUBLAS_CHECK(cublasGetProperty(PATCH_LEVEL, &patch));
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace ts::gpu
