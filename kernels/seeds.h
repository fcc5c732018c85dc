// seeds.h — a fresh seed for inputs when none was given: random, odd, never 0
// (0 means "draw a fresh one" on every command line).
#pragma once

#include <cstdint>
#include <random>

namespace ts {

inline std::uint64_t fresh_seed() {
  std::random_device rd;
  return rd() | (std::uint64_t{rd()} << 32) | 1;
}

}  // namespace ts
