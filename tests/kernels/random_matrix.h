// random_matrix.h — a matrix of uniform values in [-1, 1), from a seed: the
// inputs of the kernel tests that draw their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace ts::test {

inline std::vector<float> random_matrix(std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = dist(rng);
  return v;
}

}  // namespace ts::test
