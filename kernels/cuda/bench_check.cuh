// bench_check.cuh — correctness before speed: fresh random inputs drawn on the
// GPU, a double-precision reference on the CPU (every cell for small shapes,
// a grid of sampled rows x columns that includes the edges for large ones),
// and the check of one kernel's output, which was poisoned with NaN before
// the kernel ran so that any cell it never wrote shows up.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ts::gpu {

// Uniform in [-1, 1), from a counter-based hash of (seed, index): no zeros-only inputs.
void fill_uniform(float* device, std::size_t count, std::uint64_t seed, cudaStream_t stream);

// Fills C with NaN bytes.
void poison(float* device, std::size_t count, cudaStream_t stream);

struct ReferenceCells {
  std::vector<int> rows, cols;  // C's cells rows x cols
  std::vector<double> values;   // row-major, rows.size() x cols.size()
  bool every_cell = false;
};

// Every cell when m*n*k is small enough to multiply on the CPU in well under a
// second, else up to 64 rows x 64 columns (the first, last and random ones).
ReferenceCells reference_cells(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k,
                               std::uint64_t seed);

// Normwise relative error tolerated against the double-precision reference and
// against cuBLAS of the same precision: far above FP32 rounding at k = 8192
// (~1e-6), far below what a wrong index or a missed tile gives (~1e-2 and up).
inline constexpr double kFp32Tolerance = 1e-4;
inline constexpr double kTf32Tolerance = 5e-3;  // TF32 keeps 10 mantissa bits: ~5e-4 is its rounding

struct CheckResult {
  bool ok = true;
  std::string message;  // why not
  double rel_err_ref = 0, rel_err_cublas = 0;
};

// c: the kernel's m x n output; cublas: cuBLAS's of the same precision, or null
// to skip that comparison.
CheckResult check_output(const std::vector<float>& c, int m, int n, const ReferenceCells& ref,
                         const std::vector<float>* cublas, double tolerance);

}  // namespace ts::gpu
