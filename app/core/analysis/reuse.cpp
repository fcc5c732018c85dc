// reuse.cpp — global loads per element, bytes against the minimum, and the
// reads of each value staged in shared memory.
#include "app/core/analysis/reuse.h"

#include <algorithm>
#include <limits>

#include "app/core/analysis/epoch_runs.h"

namespace ts {
namespace {

// A real tile is at most a few thousand words; a layout that claims more comes
// from a damaged file and is left out rather than allocated.
constexpr std::uint64_t kMaxSharedWords = 1u << 16;

enum class Slot : std::uint8_t { Empty, Staged, Padding };

struct SharedTileState {
  std::vector<Slot> slot;
  std::vector<std::uint32_t> reads;
};

class StagedReuse {
 public:
  explicit StagedReuse(ReuseStats& out) : out_(out) {}
  void store(SharedTileState& t, std::uint32_t word, bool padding) {
    retire(t, word);
    t.slot[word] = padding ? Slot::Padding : Slot::Staged;
    t.reads[word] = 0;
    if (padding) ++out_.padding_values;
  }
  void load(SharedTileState& t, std::uint32_t word) {
    if (t.slot[word] == Slot::Staged) ++t.reads[word];
  }
  void retire(SharedTileState& t, std::uint32_t word) {
    if (t.slot[word] != Slot::Staged) return;
    const std::uint32_t r = t.reads[word];
    ++out_.staged_values;
    out_.staged_reads += r;
    min_ = std::min(min_, r);
    out_.staged_reads_max = std::max(out_.staged_reads_max, r);
    t.slot[word] = Slot::Empty;
  }
  void finish() { out_.staged_reads_min = out_.staged_values ? min_ : 0; }

 private:
  ReuseStats& out_;
  std::uint32_t min_ = std::numeric_limits<std::uint32_t>::max();
};

// Walks each block barrier epoch by barrier epoch: within an epoch, every
// thread's stores land before any thread's loads are counted (a load in the
// same epoch as another thread's store to that slot would be a race).
void shared_reuse(const Trace& t, ReuseStats& out) {
  const LaunchInfo& L = t.launch;
  SharedTileState tiles[kArrayCount];
  bool any = false;
  for (int a = 0; a < kArrayCount; ++a) {
    const ArrayLayout& l = L.arrays[a];
    if (space_of(static_cast<ArrayId>(a)) != Space::Shared || !l.present || l.elements() > kMaxSharedWords) continue;
    tiles[a].slot.assign(l.elements(), Slot::Empty);
    tiles[a].reads.assign(l.elements(), 0);
    any = true;
  }
  if (!any) return;
  StagedReuse reuse(out);
  const Event* ev = t.events.data();
  EpochRuns runs;
  for (std::uint64_t block = 0, blocks = L.grid.count(); block < blocks; ++block) {
    runs.reset(t, block * L.threads_per_block(), L.threads_per_block());
    while (runs.next()) {
      for (std::uint32_t i = 0; i < L.threads_per_block(); ++i)
        for (std::uint64_t q = runs.begin(i); q < runs.end(i); ++q) {
          const Event& e = ev[q];
          if (e.space() == Space::Shared && e.op() == Op::Store && !tiles[e.array].slot.empty())
            reuse.store(tiles[e.array], e.index, e.is_padding());
        }
      for (std::uint32_t i = 0; i < L.threads_per_block(); ++i)
        for (std::uint64_t q = runs.begin(i); q < runs.end(i); ++q) {
          const Event& e = ev[q];
          if (e.space() == Space::Shared && e.op() == Op::Load && !tiles[e.array].slot.empty())
            reuse.load(tiles[e.array], e.index);
        }
    }
    // The block ends: its tiles' last values are retired, and the next block starts empty.
    for (SharedTileState& tile : tiles)
      for (std::uint32_t w = 0; w < tile.slot.size(); ++w) reuse.retire(tile, w);
  }
  reuse.finish();
}

void min_max(const std::vector<std::uint32_t>& v, std::uint32_t& lo, std::uint32_t& hi) {
  if (v.empty()) return;
  const auto [a, b] = std::minmax_element(v.begin(), v.end());
  lo = *a;
  hi = *b;
}

}  // namespace

ReuseStats analyze_reuse(const Trace& t) {
  ReuseStats r;
  const LaunchInfo& L = t.launch;
  r.a_loads.assign(L.arrays[0].present ? L.arrays[0].elements() : 0, 0);
  r.b_loads.assign(L.arrays[1].present ? L.arrays[1].elements() : 0, 0);
  for (const Event& e : t.events.span()) {
    if (e.space() != Space::Global) continue;
    if (e.op() == Op::Store) {
      ++r.global_stores;
      continue;
    }
    ++r.global_loads;
    // The loader checked every index against its array's size.
    if (e.array_id() == ArrayId::A) ++r.a_loads[e.index];
    else if (e.array_id() == ArrayId::B) ++r.b_loads[e.index];
  }
  min_max(r.a_loads, r.a_min, r.a_max);
  min_max(r.b_loads, r.b_min, r.b_max);
  const std::uint64_t m = static_cast<std::uint64_t>(L.m), n = static_cast<std::uint64_t>(L.n),
                      k = static_cast<std::uint64_t>(L.k);
  r.global_bytes_loaded = r.global_loads * sizeof(float);
  r.global_bytes_stored = r.global_stores * sizeof(float);
  r.min_bytes = (m * k + k * n + m * n) * sizeof(float);
  r.flops = 2 * m * n * k;
  if (r.global_bytes_loaded) r.arithmetic_intensity = static_cast<double>(r.flops) / static_cast<double>(r.global_bytes_loaded);
  if (r.min_bytes) r.ideal_arithmetic_intensity = static_cast<double>(r.flops) / static_cast<double>(r.min_bytes);
  shared_reuse(t, r);
  return r;
}

nlohmann::json reuse_counters_json(const ReuseStats& r) {
  return {{"global_bytes_loaded", r.global_bytes_loaded},
          {"global_bytes_stored", r.global_bytes_stored},
          {"min_bytes", r.min_bytes},
          {"flops", r.flops},
          {"arithmetic_intensity", r.arithmetic_intensity},
          {"ideal_arithmetic_intensity", r.ideal_arithmetic_intensity},
          {"shared_staged_values", r.staged_values},
          {"shared_padding_values", r.padding_values},
          {"shared_reads_per_staged_value",
           {{"mean", r.staged_reads_mean()}, {"min", r.staged_reads_min}, {"max", r.staged_reads_max}}}};
}

}  // namespace ts
