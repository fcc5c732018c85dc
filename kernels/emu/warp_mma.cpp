// warp_mma.cpp — the emulator's TF32 mma: fragment layouts and the adder model.
#include "kernels/emu/warp_mma.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/api/mma.h"

namespace ts::emu {
namespace {

constexpr int kMaxTerms = 9;  // 8 products and the accumulator

float tf32_value(std::uint32_t bits) { return mma::bits_float(bits & 0xFFFFE000u); }

// A product and the exponent the adder aligns it by: its own, or (a model of
// an adder that aligns before normalizing) the sum of its factors' exponents.
struct Product {
  double value;
  int exponent;
};

// c + the products p[0..n), in the model of warp_mma.h. Values are exact doubles.
float add_step(float c, const Product* p, int n, const AdderModel& model) {
  double terms[kMaxTerms];
  int exponents[kMaxTerms];
  int count = 0;
  terms[count] = c;
  exponents[count++] = c != 0.0f && std::isfinite(c) ? std::ilogb(c) : 0;
  for (int i = 0; i < n && count < kMaxTerms; ++i) terms[count] = p[i].value, exponents[count++] = p[i].exponent;
  bool nan = false, pos_inf = false, neg_inf = false;
  int emax = std::numeric_limits<int>::min();
  for (int i = 0; i < count; ++i) {
    const double t = terms[i];
    if (std::isnan(t)) nan = true;
    else if (std::isinf(t)) (t > 0 ? pos_inf : neg_inf) = true;
    else if (t != 0.0) emax = std::max(emax, exponents[i]);
  }
  if (nan || (pos_inf && neg_inf)) return std::numeric_limits<float>::quiet_NaN();
  if (pos_inf) return std::numeric_limits<float>::infinity();
  if (neg_inf) return -std::numeric_limits<float>::infinity();
  if (emax == std::numeric_limits<int>::min()) return c + 0.0f;  // all zero: +0 unless every term is -0
  // Units of 2^(emax - 23 - extra_bits): each term becomes a whole number of them, cut toward zero.
  const int unit = emax - 23 - model.extra_bits;
  std::int64_t sum = 0;
  for (int i = 0; i < count; ++i) sum += static_cast<std::int64_t>(std::trunc(std::ldexp(terms[i], -unit)));
  if (sum == 0) return 0.0f;
  // Cut the exact sum toward zero to FP32's 24 bits (or round it to nearest).
  const double exact = std::ldexp(static_cast<double>(sum), unit);  // sum < 2^53: exact in a double
  if (model.nearest) return static_cast<float>(exact);
  const int e = std::ilogb(exact);
  const int keep = std::max(e - 23, -149);  // FP32's last place at this magnitude (subnormals: 2^-149)
  const double cut = std::ldexp(std::trunc(std::ldexp(exact, -keep)), keep);
  if (std::fabs(cut) > std::numeric_limits<float>::max())
    return cut > 0 ? std::numeric_limits<float>::max() : -std::numeric_limits<float>::max();  // toward zero
  return static_cast<float>(cut);
}

}  // namespace

float mma_dot_tf32(const std::uint32_t (&a)[8], const std::uint32_t (&b)[8], float c, const AdderModel& model) {
  Product p[8];
  for (int k = 0; k < 8; ++k) {
    const double x = tf32_value(a[k]), y = tf32_value(b[k]);
    p[k].value = x * y;  // 11 x 11 bits: exact
    const bool finite_nonzero = p[k].value != 0.0 && std::isfinite(p[k].value);
    p[k].exponent = !finite_nonzero                  ? 0
                    : model.align_by_factor_exponents ? std::ilogb(x) + std::ilogb(y)
                                                      : std::ilogb(p[k].value);
  }
  const int step = std::clamp(model.products_per_step, 1, 8);
  if (!model.accumulator_last) {
    for (int k = 0; k < 8; k += step) c = add_step(c, p + k, std::min(step, 8 - k), model);
    return c;
  }
  float sum = 0.0f;
  for (int k = 0; k < 8; k += step) sum = add_step(sum, p + k, std::min(step, 8 - k), model);
  const Product s{sum, sum != 0.0f && std::isfinite(sum) ? std::ilogb(sum) : 0};
  return add_step(c, &s, 1, model);
}

void warp_mma_tf32(const std::uint32_t (&a)[32][4], const std::uint32_t (&b)[32][2], float (&c)[32][4],
                   const AdderModel& model) {
  // The matrices, from the lanes' fragments.
  std::uint32_t A[16][8], B[8][8];
  float C[16][8];
  for (int lane = 0; lane < mma::kWarpLanes; ++lane) {
    for (int s = 0; s < 4; ++s) {
      const mma::Coord at = mma::a_coord(lane, s);
      A[at.row][at.col] = a[lane][s];
      const mma::Coord ct = mma::c_coord(lane, s);
      C[ct.row][ct.col] = c[lane][s];
    }
    for (int s = 0; s < 2; ++s) {
      const mma::Coord at = mma::b_coord(lane, s);
      B[at.row][at.col] = b[lane][s];
    }
  }
  for (int lane = 0; lane < mma::kWarpLanes; ++lane)
    for (int s = 0; s < 4; ++s) {
      const mma::Coord ct = mma::c_coord(lane, s);
      std::uint32_t row[8], col[8];
      for (int k = 0; k < 8; ++k) row[k] = A[ct.row][k], col[k] = B[k][ct.col];
      c[lane][s] = mma_dot_tf32(row, col, C[ct.row][ct.col], model);
    }
}

}  // namespace ts::emu
