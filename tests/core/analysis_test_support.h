// analysis_test_support.h — recordings and an independent, brute-force count
// of warp-level requests for the analysis tests.
#pragma once

#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "app/core/analysis/memory_stats.h"
#include "tests/core/trace_test_support.h"

namespace ts::test {

inline Trace square_trace(KernelKind kind, int tile, int size) { return small_trace(kind, tile, size, size, size); }

// Groups events by (block, warp, epoch, array, op, n-th such access of the
// thread in the epoch) with ordered maps, then counts sectors with a set and
// bank conflicts with a set per bank: no code shared with the analysis.
// Valid where every lane of a warp makes the same number of each access
// (no lane skips some and keeps later ones).
struct BruteForceTotals {
  std::map<std::pair<Space, Op>, std::uint64_t> requests, sectors, wavefronts;
};

inline BruteForceTotals brute_force_totals(const Trace& t) {
  using Key = std::tuple<std::uint64_t, std::uint32_t, std::uint32_t, int, int, std::uint32_t>;
  std::map<Key, std::vector<std::uint64_t>> groups;
  for (std::uint64_t th = 0; th < t.thread_count(); ++th) {
    const ThreadCoord c = t.thread_coord(th);
    std::map<std::tuple<std::uint32_t, int, int>, std::uint32_t> nth;
    for (const Event& e : t.thread_events(th)) {
      const int array = static_cast<int>(e.array_id()), op = static_cast<int>(e.op());
      const std::uint32_t n = nth[{static_cast<std::uint32_t>(e.epoch), array, op}]++;
      groups[{c.block_linear, c.warp, e.epoch, array, op, n}].push_back(t.address(e.array_id(), e.index));
    }
  }
  BruteForceTotals out;
  for (const auto& [key, addresses] : groups) {
    const auto array = static_cast<ArrayId>(std::get<3>(key));
    const auto kind = std::make_pair(space_of(array), static_cast<Op>(std::get<4>(key)));
    ++out.requests[kind];
    if (kind.first == Space::Global) {
      std::set<std::uint64_t> sectors;
      for (std::uint64_t a : addresses) sectors.insert(a / 32);
      out.sectors[kind] += sectors.size();
    } else {
      std::map<std::uint64_t, std::set<std::uint64_t>> words_per_bank;
      for (std::uint64_t a : addresses) words_per_bank[(a / 4) % 32].insert(a / 4);
      std::size_t ways = 0;
      for (const auto& [bank, words] : words_per_bank) ways = std::max(ways, words.size());
      out.wavefronts[kind] += ways;
    }
  }
  return out;
}

}  // namespace ts::test
