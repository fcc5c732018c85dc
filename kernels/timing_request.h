// timing_request.h — can a timing-only recording of this launch run at all:
// the kernels index with 32-bit ints and a grid's y extent is at most 65535.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/catalog.h"

namespace ts {

// Empty when kind at tile on M x N x K can be launched; otherwise one line saying why.
inline std::string timing_request_error(KernelKind kind, int tile, int m, int n, int k) {
  if (takes_tile(kind) && !is_valid_tile(tile))
    return "TILE must be 2, 4, 8, 16 or 32, got " + std::to_string(tile);
  if (std::string why = size_refusal(kind, m, n, k); !why.empty()) return why;
  constexpr std::uint64_t kMaxElements = 0x7fffffff;  // row * K + col must fit an int
  const std::uint64_t M = m, N = n, K = k;
  if (M * K > kMaxElements || K * N > kMaxElements || M * N > kMaxElements)
    return "each matrix must have fewer than 2^31 elements (the kernels index with int)";
  const LaunchShape s = launch_shape(kind, tile, m, n);
  if (s.grid.y > 65535)
    return "the grid would be " + std::to_string(s.grid.y) + " blocks high; CUDA allows 65535";
  return {};
}

}  // namespace ts
