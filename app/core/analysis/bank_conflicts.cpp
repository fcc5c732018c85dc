// bank_conflicts.cpp — n-way conflicts and wavefronts of one warp-level shared access.
#include "app/core/analysis/bank_conflicts.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <utility>

#include "app/core/analysis/coalescing.h"
#include "app/core/analysis/small_sort.h"

namespace ts {

namespace {

// The most distinct words one bank must deliver, of these distinct words:
// the wavefronts a phase of them takes.
std::uint32_t worst_bank(std::span<const std::uint64_t> distinct_words) {
  std::array<std::uint32_t, kBanks> per_bank{};
  std::uint32_t ways = 0;
  for (std::uint64_t w : distinct_words) ways = std::max(ways, ++per_bank[w % kBanks]);
  return ways;
}

// One phase: the lanes' words, each bank's distinct words.
void add_phase(BankAccess& b, std::span<const std::uint64_t> word_bytes) {
  if (word_bytes.empty()) return;
  SmallSorted words(word_bytes, kBankWordBytes);
  const std::uint32_t ways = worst_bank(words.values());
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

// The phases the access is served in, as runs [begin, end) of its accesses
// (lanes ascending): the warp for 4-byte accesses, else runs of lanes that
// move 128 bytes, a load's two neighbouring ones as one where their lanes pair
// up with one address and their words fall in distinct banks.
// At most 4 (a 128-bit access's quarter-warps); no allocation on the counting path.
struct Phases {
  std::array<std::pair<std::size_t, std::size_t>, 4> run{};
  std::size_t count = 0;
  void emplace_back(std::size_t from, std::size_t to) { run[count++] = {from, to}; }
  const std::pair<std::size_t, std::size_t>* begin() const { return run.data(); }
  const std::pair<std::size_t, std::size_t>* end() const { return run.data() + count; }
  std::size_t size() const { return count; }
  const std::pair<std::size_t, std::size_t>& operator[](std::size_t i) const { return run[i]; }
};

Phases served_phases(std::span<const std::uint64_t> byte_offsets, const AccessWords& touched,
                     std::uint32_t access_bytes, std::span<const std::uint32_t> lanes, Op op) {
  Phases out;
  const std::uint32_t per = access_bytes > 4 ? access_bytes / 4 : 1;
  if (per == 1) {
    if (!byte_offsets.empty()) out.emplace_back(0, byte_offsets.size());
    return out;
  }
  const std::uint32_t phase_lanes = 128 / access_bytes;
  const auto lane_at = [&](std::size_t i) { return static_cast<std::uint32_t>(i < lanes.size() ? lanes[i] : i); };
  std::array<std::size_t, kWarpSize + 1> first{};  // phase p: accesses [first[p], first[p + 1])
  const std::uint32_t phase_count = kWarpSize / phase_lanes;
  for (std::uint32_t p = 0, i = 0; p <= phase_count; ++p) {
    while (i < byte_offsets.size() && lane_at(i) / phase_lanes < p) ++i;
    first[p] = i;
  }
  std::array<std::uint64_t, kWarpSize> at{};
  std::uint32_t active = 0;
  if (op == Op::Load)
    for (std::size_t i = 0; i < byte_offsets.size(); ++i) {
      at[lane_at(i) % kWarpSize] = byte_offsets[i];
      active |= 1u << (lane_at(i) % kWarpSize);
    }
  const auto add = [&](std::size_t from, std::size_t to) {
    if (from != to) out.emplace_back(from, to);
  };
  for (std::uint32_t p = 0; p < phase_count; p += 2) {
    const std::uint32_t group = (phase_lanes * 2 == kWarpSize ? ~0u : (1u << phase_lanes * 2) - 1u) << (p * phase_lanes);
    const auto both = touched.bytes().subspan(first[p] * per, (first[p + 2] - first[p]) * per);
    if (op == Op::Load && first[p] != first[p + 1] && first[p + 1] != first[p + 2] &&
        (pairs_agree(at, active, group, 1) || pairs_agree(at, active, group, 2)) &&
        worst_bank(SmallSorted(both, kBankWordBytes).values()) == 1) {
      add(first[p], first[p + 2]);
      continue;
    }
    add(first[p], first[p + 1]);
    add(first[p + 1], first[p + 2]);
  }
  return out;
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
  for (const auto& [from, to] : served_phases(byte_offsets, touched, access_bytes, lanes, op))
    add_phase(b, touched.bytes().subspan(from * per, (to - from) * per));
  // A word shared by lanes of one phase is a broadcast; in words, not lanes: back to lanes.
  b.broadcast_lanes /= per;
  return b;
}

std::uint32_t copy_line_wavefronts(std::span<const std::uint64_t> global_addresses,
                                   std::span<const std::uint32_t> lanes, std::uint32_t access_bytes) {
  if (access_bytes > 8) return 0;
  const std::uint32_t phase_lanes = access_bytes == 8 ? kWarpSize / 2 : kWarpSize;
  std::uint32_t further = 0;
  for (std::uint32_t phase = 0; phase < kWarpSize / phase_lanes; ++phase) {
    std::array<std::uint64_t, kWarpSize> lines{};
    std::size_t n = 0;
    for (std::size_t i = 0; i < global_addresses.size() && n < kWarpSize; ++i) {
      const std::uint32_t lane = i < lanes.size() ? lanes[i] : static_cast<std::uint32_t>(i);
      if (lane / phase_lanes == phase) lines[n++] = global_addresses[i];
    }
    if (n == 0) continue;
    further += SmallSorted({lines.data(), n}, kLineBytes).distinct() - 1;
  }
  return further;
}

std::vector<BankWavefront> bank_wavefronts(std::span<const std::uint64_t> byte_offsets, std::uint32_t access_bytes,
                                           std::span<const std::uint32_t> lanes, Op op) {
  std::vector<BankWavefront> out;
  const AccessWords touched(byte_offsets, access_bytes);
  const std::uint32_t per = access_bytes > 4 ? access_bytes / 4 : 1;
  const auto phases = served_phases(byte_offsets, touched, access_bytes, lanes, op);
  for (std::uint32_t p = 0; p < phases.size(); ++p) {
    // Each bank's distinct words of the phase, in address order, with the lanes each serves.
    std::array<std::map<std::uint64_t, std::uint32_t>, kBanks> words;
    for (std::size_t i = phases[p].first; i < phases[p].second; ++i) {
      const std::uint32_t lane = i < lanes.size() ? lanes[i] : static_cast<std::uint32_t>(i);
      for (std::uint32_t e = 0; e < per; ++e) {
        const std::uint64_t word = byte_offsets[i] / kBankWordBytes + e;
        words[word % kBanks][word] |= 1u << (lane % kWarpSize);
      }
    }
    std::size_t rows = 0;
    for (const auto& bank : words) rows = std::max(rows, bank.size());
    const std::size_t first_row = out.size();
    out.resize(first_row + rows);
    for (std::size_t r = 0; r < rows; ++r) {
      out[first_row + r].phase = p;
      out[first_row + r].conflict = r > 0;
    }
    for (std::uint32_t bank = 0; bank < kBanks; ++bank) {
      std::size_t r = first_row;
      for (const auto& [word, lane_mask] : words[bank]) {
        out[r].word[bank] = static_cast<std::int64_t>(word);
        out[r].lanes[bank] = lane_mask;
        ++r;
      }
    }
  }
  return out;
}

}  // namespace ts
