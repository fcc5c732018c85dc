// coalescing.h — what one warp-level global access costs the memory system:
// the 32-byte sectors and 128-byte lines its active lanes touch.
//
// On Volta and later a warp's global load or store is one request to L1TEX;
// the request is served sector by sector, so the sectors it touches are what
// it moves. 32 lanes reading 32 consecutive floats touch 4 sectors (one line);
// 32 lanes reading floats a row apart touch 32 sectors.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace/model/memory_counts.h"  // the units: kWarpSize, kSectorBytes, kLineBytes, kElementBytes

namespace ts {

struct GlobalFootprint {
  std::uint32_t lanes = 0;    // active lanes (accesses)
  std::uint32_t words = 0;    // distinct 4-byte words among them
  std::uint32_t sectors = 0;  // distinct 32-byte sectors
  std::uint32_t lines = 0;    // distinct 128-byte lines
  // The fewest sectors that could hold the words the lanes asked for.
  std::uint32_t ideal_sectors() const {
    return static_cast<std::uint32_t>((std::uint64_t{words} * kElementBytes + kSectorBytes - 1) / kSectorBytes);
  }
};

// byte_addresses: one access of access_bytes (4, 8 or 16) per active lane, at
// most kWarpSize of them. A warp's vector access is still one request; its
// sectors are those of every byte it touches.
GlobalFootprint global_footprint(std::span<const std::uint64_t> byte_addresses, std::uint32_t access_bytes = 4);

// The distinct sectors the accesses touch, as sector numbers (address / 32),
// ascending: the warp view draws lane -> sector with these.
std::vector<std::uint64_t> touched_sectors(std::span<const std::uint64_t> byte_addresses,
                                           std::uint32_t access_bytes = 4);

}  // namespace ts
