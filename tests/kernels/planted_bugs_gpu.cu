// planted_bugs_gpu.cu — the planted bugs of planted_bugs.h compiled as plain
// CUDA kernels, for compute-sanitizer to find on a GPU what the emulator's
// checks find (scripts/gpu-checks.d/85-sanitizer-agreement.sh runs both).
//
//   planted_bugs_gpu BUG     BUG: missing-barrier | no-bounds-check | unstaged-column | early-return | none
//
// Launches the variant once with TILE = 16 at M = N = K = 40 (ragged: the last
// tiles are partial), the size sanitizer_test's GpuCheckSize case runs on the
// emulator. Built with -lineinfo so that the tools name planted_bugs.h's lines.
// clang-format off
#include "kernels/cuda/mode_plain.cuh"
#include "kernels/tiled.h"
#include "tests/kernels/planted_bugs.h"
// clang-format on

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr int kTile = 16, kSize = 40;

#define CHECK(call)                                                                           \
  do {                                                                                        \
    const cudaError_t err_ = (call);                                                          \
    if (err_ != cudaSuccess) {                                                                \
      std::fprintf(stderr, "planted_bugs_gpu: %s: %s\n", #call, cudaGetErrorString(err_));    \
      return 1;                                                                               \
    }                                                                                         \
  } while (0)

template <int BUG>
__global__ void planted(const float* a, const float* b, float* c, int m, int n, int k) {
  using namespace ts::plain;
  if constexpr (BUG == 0) planted_missing_barrier<kTile>(a, b, c, m, n, k);
  else if constexpr (BUG == 1) planted_no_bounds_check<kTile>(a, b, c, m, n, k);
  else if constexpr (BUG == 2) planted_unstaged_column<kTile>(a, b, c, m, n, k);
  else if constexpr (BUG == 3) planted_early_return<kTile>(a, b, c, m, n, k);
  else matmul_tiled<kTile>(a, b, c, m, n, k);
}

}  // namespace

int main(int argc, char** argv) {
  const char* names[] = {"missing-barrier", "no-bounds-check", "unstaged-column", "early-return", "none"};
  int bug = -1;
  for (int i = 0; i < 5 && argc == 2; ++i)
    if (std::strcmp(argv[1], names[i]) == 0) bug = i;
  if (bug < 0) {
    std::fprintf(stderr, "usage: planted_bugs_gpu missing-barrier|no-bounds-check|unstaged-column|early-return|none\n");
    return 2;
  }
  const std::size_t n = std::size_t{kSize} * kSize;
  std::vector<float> host(n, 1.0f);
  float *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * sizeof(float)));
  CHECK(cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const dim3 block(kTile, kTile), grid((kSize + kTile - 1) / kTile, (kSize + kTile - 1) / kTile);
  switch (bug) {
    case 0: planted<0><<<grid, block>>>(a, b, c, kSize, kSize, kSize); break;
    case 1: planted<1><<<grid, block>>>(a, b, c, kSize, kSize, kSize); break;
    case 2: planted<2><<<grid, block>>>(a, b, c, kSize, kSize, kSize); break;
    case 3: planted<3><<<grid, block>>>(a, b, c, kSize, kSize, kSize); break;
    default: planted<4><<<grid, block>>>(a, b, c, kSize, kSize, kSize); break;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  std::printf("planted_bugs_gpu %s: launched TILE=%d at M=N=K=%d\n", names[bug], kTile, kSize);
  return 0;
}
