// checked_math.h — arithmetic on counts that a file or a command line claims:
// products and sums that report overflow instead of wrapping, so a lie of
// 2^30 x 4096 x 4096 blocks cannot pass for a small number.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace ts {

// a * b, or nothing when it does not fit in 64 bits.
inline std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// Saturating forms, for limits: a product too large to count compares above
// any limit instead of wrapping below it.
inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  return checked_mul(a, b).value_or(std::numeric_limits<std::uint64_t>::max());
}

inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return checked_add(a, b).value_or(std::numeric_limits<std::uint64_t>::max());
}

}  // namespace ts
