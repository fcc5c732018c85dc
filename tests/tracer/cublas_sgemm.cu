// cublas_sgemm.cu — a program that calls cuBLAS's SGEMM once on N x N
// column-major matrices (A, B, C allocated in that order) and checks a few
// cells of C: what scripts/gpu-checks.d/87-tracer.sh traces with
// `tilescope record --exec --layout col` to see what cuBLAS's kernels do.
//   tracer_cublas_sgemm N
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "tracer_cublas_sgemm: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}
bool ok(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return true;
  std::fprintf(stderr, "tracer_cublas_sgemm: %s: cuBLAS status %d\n", what, static_cast<int>(s));
  return false;
}
#define CHECK(call) \
  if (!ok((call), #call)) return 1

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  if (n < 1 || n > 8192) {
    std::fprintf(stderr, "usage: tracer_cublas_sgemm N (1..8192)\n");
    return 2;
  }
  const std::size_t count = std::size_t(n) * n;
  std::vector<float> ha(count), hb(count), hc(count);
  for (std::size_t i = 0; i < count; ++i) {
    ha[i] = static_cast<float>((i * 7 + 3) % 11) - 5.0f;
    hb[i] = static_cast<float>((i * 5 + 1) % 13) - 6.0f;
  }
  float *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(cudaMalloc(&a, count * sizeof(float)));
  CHECK(cudaMalloc(&b, count * sizeof(float)));
  CHECK(cudaMalloc(&c, count * sizeof(float)));
  CHECK(cudaMemcpy(a, ha.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(c, 0, count * sizeof(float)));
  cublasHandle_t handle;
  CHECK(cublasCreate(&handle));
  const float one = 1.0f, zero = 0.0f;
  CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hc.data(), c, count * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cublasDestroy(handle));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  for (int s = 0; s < 16; ++s) {  // a few cells, column-major: C(r, col) = sum_k A(r, k) B(k, col)
    const int r = (s * 37) % n, col = (s * 53) % n;
    double want = 0;
    for (int k = 0; k < n; ++k) want += double(ha[std::size_t(k) * n + r]) * hb[std::size_t(col) * n + k];
    if (std::fabs(hc[std::size_t(col) * n + r] - want) > 1e-3 * (1 + std::fabs(want))) {
      std::fprintf(stderr, "tracer_cublas_sgemm: C(%d, %d) = %g, not %g\n", r, col, hc[std::size_t(col) * n + r], want);
      return 1;
    }
  }
  std::printf("tracer_cublas_sgemm: %d^3 SGEMM, C checked at 16 cells\n", n);
  return 0;
}
