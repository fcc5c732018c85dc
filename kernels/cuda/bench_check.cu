// bench_check.cu — inputs, reference and output checks of the benchmark.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <span>
#include <stdexcept>

#include "trace/model/reference.h"
#include "kernels/cuda/bench_check.cuh"
#include "kernels/cuda/cuda_check.cuh"

namespace ts::gpu {
namespace {

constexpr double kEveryCellLimit = double(1 << 27);  // m*n*k multiply-adds: 512^3
constexpr int kSampledEdge = 64;

__device__ std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__global__ void fill_uniform_kernel(float* out, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::uint32_t bits = static_cast<std::uint32_t>(mix64(seed ^ mix64(i)) >> 40);  // 24 random bits
    out[i] = float(bits) * (2.0f / 16777216.0f) - 1.0f;
  }
}

// Up to `want` distinct indices of 0..size-1, always including the first and last.
std::vector<int> pick(int size, int want, std::mt19937_64& rng) {
  std::vector<int> all;
  if (size <= want) {
    for (int i = 0; i < size; ++i) all.push_back(i);
    return all;
  }
  all = {0, size - 1};
  std::uniform_int_distribution<int> dist(1, size - 2);
  while (int(all.size()) < want) {
    const int i = dist(rng);
    if (std::find(all.begin(), all.end(), i) == all.end()) all.push_back(i);
  }
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace

void fill_uniform(float* device, std::size_t count, std::uint64_t seed, cudaStream_t stream) {
  fill_uniform_kernel<<<1024, 256, 0, stream>>>(device, count, seed);
  TS_CUDA_CHECK(cudaGetLastError());
}

void poison(float* device, std::size_t count, cudaStream_t stream) {
  TS_CUDA_CHECK(cudaMemsetAsync(device, 0xFF, count * sizeof(float), stream));  // 0xFFFFFFFF is a NaN
}

ReferenceCells reference_cells(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k,
                               std::uint64_t seed) {
  ReferenceCells ref;
  if (double(m) * n * k <= kEveryCellLimit) {
    ref.every_cell = true;
    for (int i = 0; i < m; ++i) ref.rows.push_back(i);
    for (int j = 0; j < n; ++j) ref.cols.push_back(j);
    ref.values = reference_matmul(a, b, m, n, k);
    return ref;
  }
  std::mt19937_64 rng(seed);
  ref.rows = pick(m, kSampledEdge, rng);
  ref.cols = pick(n, kSampledEdge, rng);
  const std::size_t nc = ref.cols.size();
  // Gather the sampled columns of B into contiguous rows, then multiply in double.
  std::vector<double> bcols(std::size_t(k) * nc);
  for (int p = 0; p < k; ++p)
    for (std::size_t j = 0; j < nc; ++j) bcols[p * nc + j] = b[std::size_t(p) * n + ref.cols[j]];
  ref.values.assign(ref.rows.size() * nc, 0.0);
  for (std::size_t i = 0; i < ref.rows.size(); ++i) {
    double* out = &ref.values[i * nc];
    const float* arow = &a[std::size_t(ref.rows[i]) * k];
    for (int p = 0; p < k; ++p) {
      const double av = arow[p];
      const double* brow = &bcols[p * nc];
      for (std::size_t j = 0; j < nc; ++j) out[j] += av * brow[j];
    }
  }
  return ref;
}

CheckResult check_output(const std::vector<float>& c, int m, int n, const ReferenceCells& ref,
                         const std::vector<float>* cublas, double tolerance) {
  if (c.size() != std::size_t(m) * n) throw std::logic_error("check_output: C is not m x n");
  CheckResult r;
  std::size_t unwritten = 0, first = 0;
  for (std::size_t i = 0; i < c.size(); ++i)
    if (!std::isfinite(c[i]) && unwritten++ == 0) first = i;
  if (unwritten) {
    r.ok = false;
    r.rel_err_ref = r.rel_err_cublas = std::numeric_limits<double>::infinity();
    char buf[160];
    std::snprintf(buf, sizeof buf, "%zu of %zu cells of C not written (still NaN from the poison), first at row %zu, column %zu",
                  unwritten, c.size(), first / n, first % n);
    r.message = buf;
    return r;
  }
  std::vector<float> sampled;
  sampled.reserve(ref.values.size());
  for (int row : ref.rows)
    for (int col : ref.cols) sampled.push_back(c[std::size_t(row) * n + col]);
  r.rel_err_ref = relative_error(sampled, ref.values);
  if (cublas) {
    double diff = 0, norm = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      const double d = double(c[i]) - (*cublas)[i];
      diff += d * d;
      norm += double((*cublas)[i]) * (*cublas)[i];
    }
    r.rel_err_cublas = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
  }
  char buf[200];
  if (!(r.rel_err_ref <= tolerance)) {
    std::snprintf(buf, sizeof buf, "wrong result: relative error %.3g against the double-precision reference (%s), tolerance %.0e",
                  r.rel_err_ref, ref.every_cell ? "every cell" : "sampled cells", tolerance);
    r.ok = false;
    r.message = buf;
  } else if (cublas && !(r.rel_err_cublas <= tolerance)) {
    std::snprintf(buf, sizeof buf, "wrong result: relative error %.3g against cuBLAS, tolerance %.0e", r.rel_err_cublas,
                  tolerance);
    r.ok = false;
    r.message = buf;
  }
  return r;
}

}  // namespace ts::gpu
