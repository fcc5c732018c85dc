// bank_conflicts.h — what one warp-level shared-memory access costs: the
// n-way bank conflict and the wavefronts it takes.
//
// Shared memory is 32 banks of 4-byte words; word w lives in bank w % 32. In
// one wavefront each bank delivers one word, to any number of lanes (lanes
// asking for the same word share it: a broadcast). So a 4-byte access takes as
// many wavefronts as the most distinct words any one bank must deliver: that
// is its n-way conflict, and n - 1 of the wavefronts are conflicts.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "trace/event.h"

namespace ts {

inline constexpr std::uint32_t kBanks = 32;
inline constexpr std::uint32_t kBankWordBytes = 4;

constexpr std::uint32_t bank_of(std::uint64_t byte_offset) {
  return static_cast<std::uint32_t>((byte_offset / kBankWordBytes) % kBanks);
}

// A 64-bit access is served by half-warps and a 128-bit one by quarter-warps
// (phases of 16 and 8 lanes, each at most 128 bytes): each phase takes as many
// wavefronts as its worst bank, and the access takes the phases' sum. Its
// ideal is one wavefront per phase with an active lane.
//
// One exception, for loads with uniform addresses: where the lanes of two
// neighbouring phases (a half-warp of a 128-bit load, the warp of a 64-bit
// one) pair up with the same address (each lane and its partner lane ^ 1 both
// active and equal, or each and lane ^ 2), the hardware packs the returned
// registers, and the two phases take one wavefront if together they touch
// each bank at most once; otherwise they take their own. NVIDIA documents the
// pairing for compute capability 7.x (the SASS `.U` hint of LDS); on an H100
// and an H200 Nsight Compute's per-instruction shared wavefronts follow this
// rule for every load measured (docs/memory-analysis.md, "The uniform-pair rule"):
// the rungs, the benchmark's warp-tiled kernels and shared_wavefront_probe's
// patterns. Stores keep their phases.
struct BankAccess {
  std::uint32_t lanes = 0;            // active lanes
  std::uint32_t distinct_words = 0;   // words actually delivered
  std::uint32_t ways = 0;             // most distinct words in one bank of one phase; 0 without lanes
  std::uint32_t broadcast_lanes = 0;  // lanes that share their word with another lane
  std::uint32_t wavefront_count = 0;  // the phases' wavefronts together
  std::uint32_t phases = 0;           // phases with an active lane
  std::uint32_t wavefronts() const { return wavefront_count; }
  std::uint32_t conflicts() const { return wavefront_count - phases; }
};

// byte_offsets: one access of access_bytes (4, 8 or 16) per active lane
// (offsets in the block's shared window), at most kWarpSize of them, lanes in
// ascending order; lanes[i] is the lane that made access i (needed for 8- and
// 16-byte accesses, whose phases go by lane number). op: a load or a store
// (the uniform-pair rule above is a load's).
BankAccess shared_bank_access(std::span<const std::uint64_t> byte_offsets, std::uint32_t access_bytes = 4,
                              std::span<const std::uint32_t> lanes = {}, Op op = Op::Load);

// A cp.async copy of 4 or 8 bytes costs its shared write more than a store's
// wavefronts where its lanes read several 128-byte lines of global memory:
// each phase (the warp for 4-byte copies, a half-warp by lane number for
// 8-byte ones) takes one wavefront more per line it reads beyond the first,
// and Nsight Compute counts them as bank conflicts. Measured on an H100 over
// 176 copy patterns (docs/memory-analysis.md, "A sweep of copy patterns"),
// not documented by NVIDIA. The wavefronts are counted from the copy's global
// read: global_addresses, one per lane that reads (a zero fill reads nothing),
// lanes[i] the lane of read i (empty: lane i). 16-byte copies: 0, as no rule
// was found for them.
std::uint32_t copy_line_wavefronts(std::span<const std::uint64_t> global_addresses,
                                   std::span<const std::uint32_t> lanes, std::uint32_t access_bytes);

// For the bank view: the access wavefront by wavefront, as the model serves
// it (shared_bank_access's count of them): within each phase, wavefront r
// delivers each bank's r-th distinct word in address order. word[bank]: the
// word index (byte offset / 4) the bank delivers, -1 for none; lanes[bank]:
// the lanes that receive it (bit l: lane l).
struct BankWavefront {
  std::uint32_t phase = 0;  // which served phase, from 0
  bool conflict = false;    // beyond its phase's first wavefront
  std::array<std::int64_t, kBanks> word = filled(-1);
  std::array<std::uint32_t, kBanks> lanes{};

 private:
  static constexpr std::array<std::int64_t, kBanks> filled(std::int64_t v) {
    std::array<std::int64_t, kBanks> a{};
    a.fill(v);
    return a;
  }
};
std::vector<BankWavefront> bank_wavefronts(std::span<const std::uint64_t> byte_offsets, std::uint32_t access_bytes,
                                           std::span<const std::uint32_t> lanes, Op op = Op::Load);

}  // namespace ts
