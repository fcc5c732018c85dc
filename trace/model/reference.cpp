// reference.cpp — double-precision matmul, blocked over k for cache reuse.
#include "trace/model/reference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

std::string product_name(double alpha) {
  if (alpha == 1.0) return "A x B";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g x A x B", alpha);
  return buf;
}

std::string check_matmul(std::span<const float> a, std::span<const float> b, std::span<const float> c, int m, int n,
                         int k, double alpha) {
  const double u = std::ldexp(1.0, -24);
  std::vector<double> ref(static_cast<std::size_t>(n)), mag(static_cast<std::size_t>(n));
  std::uint64_t wrong = 0;
  double worst_excess = -1;  // error / bound of the worst cell (infinity: not finite)
  int worst_r = 0, worst_c = 0;
  double worst_ref = 0;
  for (int i = 0; i < m; ++i) {
    std::fill(ref.begin(), ref.end(), 0.0);
    std::fill(mag.begin(), mag.end(), 0.0);
    for (int p = 0; p < k; ++p) {
      const double av = a[std::size_t(i) * k + p];
      const float* brow = b.data() + std::size_t(p) * n;
      for (int j = 0; j < n; ++j) {
        ref[j] += av * brow[j];
        mag[j] += std::fabs(av * brow[j]);
      }
    }
    for (int j = 0; j < n; ++j) {
      const float got = c[std::size_t(i) * n + j];
      const double bound = 2.0 * k * u * std::fabs(alpha) * mag[j];
      const double err = std::fabs(double(got) - alpha * ref[j]);
      const double excess = !std::isfinite(got) ? std::numeric_limits<double>::infinity()
                                                : (err > bound ? (bound > 0 ? err / bound : err + 1) : 0.0);
      if (excess == 0.0) continue;
      ++wrong;
      if (excess > worst_excess) {
        worst_excess = excess;
        worst_r = i;
        worst_c = j;
        worst_ref = alpha * ref[j];
      }
    }
  }
  if (wrong == 0) return {};
  const float got = c[std::size_t(worst_r) * n + worst_c];
  const std::string product = product_name(alpha);
  char buf[360];
  if (std::isnan(got))
    std::snprintf(buf, sizeof buf, "C[%d][%d] was never written (NaN) where %s gives %.7g; %llu of %llu cells are wrong",
                  worst_r, worst_c, product.c_str(), worst_ref, static_cast<unsigned long long>(wrong),
                  static_cast<unsigned long long>(std::uint64_t(m) * n));
  else
    std::snprintf(buf, sizeof buf, "C[%d][%d] = %.7g but %s gives %.7g there; %llu of %llu cells are wrong", worst_r,
                  worst_c, double(got), product.c_str(), worst_ref, static_cast<unsigned long long>(wrong),
                  static_cast<unsigned long long>(std::uint64_t(m) * n));
  return buf;
}

}  // namespace ts
