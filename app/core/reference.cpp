// reference.cpp — double-precision matmul, blocked over k for cache reuse.
#include "app/core/reference.h"

#include <cmath>
#include <limits>

namespace ts {

std::vector<double> reference_matmul(std::span<const float> a, std::span<const float> b, int m, int n, int k) {
  std::vector<double> c(std::size_t(m) * n, 0.0);
  for (int i = 0; i < m; ++i) {
    double* row = c.data() + std::size_t(i) * n;
    for (int p = 0; p < k; ++p) {
      const double av = a[std::size_t(i) * k + p];
      const float* brow = b.data() + std::size_t(p) * n;
      for (int j = 0; j < n; ++j) row[j] += av * brow[j];
    }
  }
  return c;
}

double relative_error(std::span<const float> c, std::span<const double> ref) {
  if (c.size() != ref.size()) return std::numeric_limits<double>::infinity();
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!std::isfinite(c[i])) return std::numeric_limits<double>::infinity();
    const double d = double(c[i]) - ref[i];
    diff += d * d;
    norm += ref[i] * ref[i];
  }
  return norm == 0 ? std::sqrt(diff) : std::sqrt(diff / norm);
}

}  // namespace ts
