// block_timing.h — where and when one block ran, in a GPU recording. Plain
// data: compiled by g++, nvcc and NVRTC (the recorded mode includes it).
#pragma once

#include <cstdint>

namespace ts {

struct BlockTiming {
  std::uint32_t sm = 0;
  std::uint32_t reserved = 0;
  std::uint64_t start_ns = 0, end_ns = 0;  // %globaltimer
};
static_assert(sizeof(BlockTiming) == 24);

}  // namespace ts
