// bank_conflicts.cpp — n-way conflicts and wavefronts of one warp-level shared access.
#include "app/core/analysis/bank_conflicts.h"

#include <algorithm>
#include <array>

#include "app/core/analysis/coalescing.h"
#include "app/core/analysis/small_sort.h"

namespace ts {

namespace {

// One phase: the lanes' words, each bank's distinct words.
void add_phase(BankAccess& b, std::span<const std::uint64_t> word_bytes) {
  if (word_bytes.empty()) return;
  SmallSorted words(word_bytes, kBankWordBytes);
  std::array<std::uint32_t, kBanks> per_bank{};
  std::uint32_t ways = 0;
  for (std::uint64_t w : words.values()) ways = std::max(ways, ++per_bank[w % kBanks]);
  b.ways = std::max(b.ways, ways);
  b.wavefront_count += ways;
  ++b.phases;
  b.broadcast_lanes += words.repeats();
}

// Whether every active lane whose partner (lane ^ x) is active too reads the
// same address as it. lanes empty: offsets[i] is lane i's.
bool partners_share(std::span<const std::uint64_t> offsets, std::span<const std::uint32_t> lanes, std::uint32_t x) {
  std::array<std::uint64_t, kWarpSize> at{};
  std::uint32_t active = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const std::uint32_t lane = (lanes.empty() ? static_cast<std::uint32_t>(i) : lanes[i]) % kWarpSize;
    at[lane] = offsets[i];
    active |= 1u << lane;
  }
  for (std::uint32_t lane = 0; lane < kWarpSize; ++lane)
    if ((active >> lane & 1u) && (active >> (lane ^ x) & 1u) && at[lane] != at[lane ^ x]) return false;
  return true;
}

}  // namespace

BankAccess shared_bank_access(std::span<const std::uint64_t> byte_offsets, std::uint32_t access_bytes,
                              std::span<const std::uint32_t> lanes, Op op) {
  BankAccess b;
  b.lanes = static_cast<std::uint32_t>(byte_offsets.size());
  const AccessWords touched(byte_offsets, access_bytes);
  b.distinct_words = SmallSorted(touched.bytes(), kBankWordBytes).distinct();
  const std::uint32_t per = access_bytes > 4 ? access_bytes / 4 : 1;
  if (per == 1) {
    add_phase(b, byte_offsets);
    return b;
  }
  // Lanes come in ascending order: a phase is a run of lanes that move 128 bytes together.
  // A 128-bit load whose lanes share their addresses in pairs moves half-warps.
  const bool uniform = access_bytes == 16 && op == Op::Load &&
                       (partners_share(byte_offsets, lanes, 1) || partners_share(byte_offsets, lanes, 2));
  const std::uint32_t phase_lanes = uniform ? kWarpSize / 2 : 128 / access_bytes;
  const auto lane_at = [&](std::size_t i) { return static_cast<std::uint32_t>(i < lanes.size() ? lanes[i] : i); };
  std::size_t i = 0;
  while (i < byte_offsets.size()) {
    const std::uint32_t phase = lane_at(i) / phase_lanes;
    std::size_t j = i + 1;
    while (j < byte_offsets.size() && lane_at(j) / phase_lanes == phase) ++j;
    add_phase(b, touched.bytes().subspan(i * per, (j - i) * per));
    i = j;
  }
  // A word shared by lanes of one phase is a broadcast; in words, not lanes: back to lanes.
  b.broadcast_lanes /= per;
  return b;
}

BankLanes bank_lanes(std::span<const std::uint64_t> byte_offsets, std::span<const std::uint32_t> lanes,
                     std::uint32_t access_bytes) {
  BankLanes out;
  const AccessWords touched(byte_offsets, access_bytes);
  const std::uint32_t per = access_bytes > 4 ? access_bytes / 4 : 1;
  for (std::size_t i = 0; i < byte_offsets.size() && i < lanes.size(); ++i)
    for (std::uint32_t w = 0; w < per; ++w) out.lanes[bank_of(byte_offsets[i] + 4u * w)].push_back(lanes[i]);
  SmallSorted words(touched.bytes(), kBankWordBytes);
  for (std::uint64_t w : words.values()) ++out.distinct_words[w % kBanks];
  return out;
}

}  // namespace ts
