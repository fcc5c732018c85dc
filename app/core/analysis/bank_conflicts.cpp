// bank_conflicts.cpp — n-way conflicts and wavefronts of one warp-level shared access.
#include "app/core/analysis/bank_conflicts.h"

#include "app/core/analysis/small_sort.h"

namespace ts {

BankAccess shared_bank_access(std::span<const std::uint64_t> byte_offsets) {
  BankAccess b;
  b.lanes = static_cast<std::uint32_t>(byte_offsets.size());
  SmallSorted words(byte_offsets, kBankWordBytes);
  b.distinct_words = words.distinct();
  std::array<std::uint32_t, kBanks> per_bank{};
  for (std::uint64_t w : words.values()) b.ways = std::max(b.ways, ++per_bank[w % kBanks]);
  b.broadcast_lanes = words.repeats();
  return b;
}

BankLanes bank_lanes(std::span<const std::uint64_t> byte_offsets, std::span<const std::uint32_t> lanes) {
  BankLanes out;
  for (std::size_t i = 0; i < byte_offsets.size() && i < lanes.size(); ++i)
    out.lanes[bank_of(byte_offsets[i])].push_back(lanes[i]);
  SmallSorted words(byte_offsets, kBankWordBytes);
  for (std::uint64_t w : words.values()) ++out.distinct_words[w % kBanks];
  return out;
}

}  // namespace ts
