// dim3.h — a grid or block shape, the host-side twin of CUDA's dim3.
#pragma once
#include <cstdint>

namespace ts {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  constexpr std::uint64_t count() const { return std::uint64_t{x} * y * z; }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

}  // namespace ts
