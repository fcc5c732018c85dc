// product_check.h — C held to A x B as far as the kernel's arithmetic allows.
//
// FP32 kernels: within 1e-5 normwise of the double-precision product, as
// every kernel test always held them. The TF32 tensor-core rung: cell by cell
// against the product of A and B rounded to TF32 (what its tensor cores
// multiply, kernels/api/mma.h's to_tf32), within check_matmul's bound of an
// FP32 sum, 2 K u sum_p |a_ip b_pj| with u = 2^-24. Why that bound holds:
// products of TF32 values (11-bit significands) are exact; each mma k-step
// adds 8 of them and the accumulator aligned to their largest exponent E,
// each cut 2 bits below FP32's last place there (< 9 * 2^(E-25) in all), and
// cuts the sum to FP32 (< 2^-23 of it): under 3.25 * 2^-23 of the step's
// magnitudes, which sum_p |a_ip b_pj| bounds. ceil(K / 8) such steps (k-steps
// past K add zeros and are exact) stay under K * 2^-23 = 2 K u for K >= 4,
// which the rung's rule (K a multiple of 4) ensures.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "trace/model/reference.h"
#include "kernels/api/mma.h"
#include "kernels/catalog.h"

namespace ts::test {

inline bool rounds_to_tf32(KernelKind kind) { return is_rung(kind) && rung_config(kind).tf32; }

inline std::vector<float> rounded_to_tf32(std::span<const float> values) {
  std::vector<float> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, &values[i], sizeof bits);
    bits = mma::to_tf32(bits);
    std::memcpy(&out[i], &bits, sizeof bits);
  }
  return out;
}

// "" when C is right for kind, else one line saying how it is not.
inline std::string check_product(KernelKind kind, std::span<const float> a, std::span<const float> b,
                                 std::span<const float> c, int m, int n, int k) {
  if (rounds_to_tf32(kind)) return check_matmul(rounded_to_tf32(a), rounded_to_tf32(b), c, m, n, k);
  const double error = relative_error(c, reference_matmul(a, b, m, n, k));
  if (error < 1e-5) return "";
  return "relative error " + std::to_string(error) + " against the double-precision product (at most 1e-5)";
}

}  // namespace ts::test
