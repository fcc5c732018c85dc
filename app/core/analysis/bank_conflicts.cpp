// bank_conflicts.cpp — n-way conflicts and wavefronts of one warp-level shared access.
#include "app/core/analysis/bank_conflicts.h"

#include <algorithm>
#include <array>
#include <bit>

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

// The mask with each lane's bit moved to its partner lane ^ x (x = 1 or 2).
constexpr std::uint32_t swap_partners(std::uint32_t mask, std::uint32_t x) {
  const std::uint32_t low = x == 1 ? 0x55555555u : 0x33333333u;
  return (mask & low) << x | (mask >> x & low);
}

// Whether the lanes of `group` (a mask of lane numbers) pair up with one
// address: each lane and its partner lane ^ x both active with the same
// address, or both inactive. at[lane]: lane's address; active: a mask.
bool pairs_agree(const std::array<std::uint64_t, kWarpSize>& at, std::uint32_t active, std::uint32_t group,
                 std::uint32_t x) {
  if ((active & group) != (swap_partners(active, x) & group)) return false;
  for (std::uint32_t m = active & group; m != 0; m &= m - 1) {
    const auto lane = static_cast<std::uint32_t>(std::countr_zero(m));
    if (at[lane] != at[lane ^ x]) return false;
  }
  return true;
}

// How many banks the words at these byte offsets fall in.
std::uint32_t banks_touched(std::span<const std::uint64_t> word_bytes) {
  std::uint32_t seen = 0;
  for (std::uint64_t byte : word_bytes) seen |= 1u << bank_of(byte);
  return static_cast<std::uint32_t>(std::popcount(seen));
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
  const std::uint32_t phase_lanes = 128 / access_bytes;
  const auto lane_at = [&](std::size_t i) { return static_cast<std::uint32_t>(i < lanes.size() ? lanes[i] : i); };
  std::array<std::size_t, kWarpSize + 1> first{};  // phase p: accesses [first[p], first[p + 1])
  const std::uint32_t phase_count = kWarpSize / phase_lanes;
  for (std::uint32_t p = 0, i = 0; p <= phase_count; ++p) {
    while (i < byte_offsets.size() && lane_at(i) / phase_lanes < p) ++i;
    first[p] = i;
  }
  const auto words_of = [&](std::uint32_t from, std::uint32_t to) {  // phases [from, to)
    return touched.bytes().subspan(first[from] * per, (first[to] - first[from]) * per);
  };
  // A load whose lanes pair up with one address: two phases served in one
  // wavefront where together they touch each bank at most once.
  std::array<std::uint64_t, kWarpSize> at{};
  std::uint32_t active = 0;
  if (op == Op::Load)
    for (std::size_t i = 0; i < byte_offsets.size(); ++i) {
      at[lane_at(i) % kWarpSize] = byte_offsets[i];
      active |= 1u << (lane_at(i) % kWarpSize);
    }
  for (std::uint32_t p = 0; p < phase_count; p += 2) {
    const std::uint32_t group = (phase_lanes * 2 == kWarpSize ? ~0u : (1u << phase_lanes * 2) - 1u) << (p * phase_lanes);
    const std::span<const std::uint64_t> both = words_of(p, p + 2);
    if (op == Op::Load && first[p] != first[p + 1] && first[p + 1] != first[p + 2] &&
        (pairs_agree(at, active, group, 1) || pairs_agree(at, active, group, 2)) &&
        SmallSorted(both, kBankWordBytes).distinct() == banks_touched(both)) {
      add_phase(b, both);
      continue;
    }
    add_phase(b, words_of(p, p + 1));
    add_phase(b, words_of(p + 1, p + 2));
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
