// reuse.cpp — global loads per element, bytes against the minimum, and the
// reads of each value staged in shared memory.
#include "app/core/analysis/reuse.h"

#include <algorithm>
#include <atomic>
#include <limits>

#include "app/core/analysis/epoch_runs.h"

namespace ts {
namespace {

// A real tile is at most a few thousand words; a layout that claims more comes
// from a damaged file and is left out rather than allocated.
constexpr std::uint64_t kMaxSharedWords = 1u << 16;

// Over the elements of the matrix only: a padded leading dimension's gap
// holds no element, and its zero count is no minimum.
void min_max(const Buffer* buf, const std::vector<std::uint32_t>& v, std::uint32_t& lo, std::uint32_t& hi) {
  if (v.empty() || !buf) return;
  if (buf->order == MatrixOrder::RowMajor && buf->ld == buf->cols) {
    const auto [a, b] = std::minmax_element(v.begin(), v.end());
    lo = *a;
    hi = *b;
    return;
  }
  lo = ~0u;
  hi = 0;
  for (std::uint32_t r = 0; r < buf->rows; ++r)
    for (std::uint32_t c = 0; c < buf->cols; ++c) {
      const std::uint64_t i = buf->index_of(r, c);
      if (i >= v.size()) continue;
      lo = std::min(lo, v[i]);
      hi = std::max(hi, v[i]);
    }
  if (lo > hi) lo = 0;
}

void count_load(std::span<std::uint32_t> loads, std::uint32_t index, bool atomic) {
  if (index >= loads.size()) return;  // the loader checked every index; a block trace may be partial
  if (atomic) std::atomic_ref<std::uint32_t>(loads[index]).fetch_add(1, std::memory_order_relaxed);
  else ++loads[index];
}

}  // namespace

ReuseAccumulator::ReuseAccumulator(const LaunchInfo& L)
    : a_id_(L.role_id(BufferRole::A)), b_id_(L.role_id(BufferRole::B)) {
  tiles_.resize(L.memory_count());
  for (std::size_t r = 0; r < L.regions.size(); ++r) {
    const std::uint64_t elements = L.regions[r].elements();
    if (elements > kMaxSharedWords) continue;
    SharedTileState& tile = tiles_[L.region_id(r)];
    tile.slot.assign(elements, Slot::Empty);
    tile.reads.assign(elements, 0);
  }
}

void ReuseAccumulator::shared_store(SharedTileState& t, std::uint32_t word, bool padding) {
  retire(t, word);
  t.slot[word] = padding ? Slot::Padding : Slot::Staged;
  t.reads[word] = 0;
  if (padding) ++sums_.padding_values;
}

void ReuseAccumulator::retire(SharedTileState& t, std::uint32_t word) {
  if (t.slot[word] != Slot::Staged) return;
  const std::uint32_t r = t.reads[word];
  ++sums_.staged_values;
  sums_.staged_reads += r;
  staged_min_ = std::min(staged_min_, r);
  sums_.staged_reads_max = std::max(sums_.staged_reads_max, r);
  t.slot[word] = Slot::Empty;
}

// Walks the block barrier epoch by barrier epoch: within an epoch, every
// thread's stores land before any thread's loads are counted (a load in the
// same epoch as another thread's store to that slot would be a race).
void ReuseAccumulator::add_block(const Trace& t, std::uint32_t block, std::span<std::uint32_t> a_loads,
                                 std::span<std::uint32_t> b_loads, bool atomic) {
  const std::uint32_t threads = t.launch.threads_per_block();
  const std::uint64_t first = std::uint64_t{block} * threads;
  const Event* ev = t.events.data();
  for (std::uint64_t q = t.thread_offsets[first], end = t.thread_offsets[first + threads]; q < end; ++q) {
    const Event& e = ev[q];
    if (e.space() != Space::Global) continue;
    if (e.op() == Op::Store) {
      ++sums_.global_stores;
      continue;
    }
    ++sums_.global_loads;
    if (e.array == a_id_) count_load(a_loads, e.index, atomic);
    else if (e.array == b_id_) count_load(b_loads, e.index, atomic);
  }
  bool any = false;
  for (const SharedTileState& tile : tiles_) any |= !tile.slot.empty();
  if (!any) return;
  EpochRuns runs;
  runs.reset(t, first, threads);
  while (runs.next()) {
    for (std::uint32_t i = 0; i < threads; ++i)
      for (std::uint64_t q = runs.begin(i); q < runs.end(i); ++q) {
        const Event& e = ev[q];
        if (e.space() == Space::Shared && e.op() == Op::Store && !tiles_[e.array].slot.empty())
          shared_store(tiles_[e.array], e.index, e.is_padding());
      }
    for (std::uint32_t i = 0; i < threads; ++i)
      for (std::uint64_t q = runs.begin(i); q < runs.end(i); ++q) {
        const Event& e = ev[q];
        if (e.space() == Space::Shared && e.op() == Op::Load && !tiles_[e.array].slot.empty() &&
            tiles_[e.array].slot[e.index] == Slot::Staged)
          ++tiles_[e.array].reads[e.index];
      }
  }
  // The block ends: its tiles' last values are retired, and the next block starts empty.
  for (SharedTileState& tile : tiles_)
    for (std::uint32_t w = 0; w < tile.slot.size(); ++w) retire(tile, w);
}

void ReuseAccumulator::merge(const ReuseAccumulator& o) {
  sums_.global_loads += o.sums_.global_loads;
  sums_.global_stores += o.sums_.global_stores;
  sums_.staged_values += o.sums_.staged_values;
  sums_.padding_values += o.sums_.padding_values;
  sums_.staged_reads += o.sums_.staged_reads;
  sums_.staged_reads_max = std::max(sums_.staged_reads_max, o.sums_.staged_reads_max);
  staged_min_ = std::min(staged_min_, o.staged_min_);
}

ReuseStats ReuseAccumulator::finish(const LaunchInfo& L, std::vector<std::uint32_t> a_loads,
                                    std::vector<std::uint32_t> b_loads) const {
  ReuseStats r = sums_;
  r.a_loads = std::move(a_loads);
  r.b_loads = std::move(b_loads);
  r.staged_reads_min = r.staged_values ? staged_min_ : 0;
  complete_reuse(r, L);
  return r;
}

void complete_reuse(ReuseStats& r, const LaunchInfo& L) {
  min_max(L.buffer_with_role(BufferRole::A), r.a_loads, r.a_min, r.a_max);
  min_max(L.buffer_with_role(BufferRole::B), r.b_loads, r.b_min, r.b_max);
  const std::uint64_t m = static_cast<std::uint64_t>(L.m), n = static_cast<std::uint64_t>(L.n),
                      k = static_cast<std::uint64_t>(L.k);
  r.global_bytes_loaded = r.global_loads * sizeof(float);
  r.global_bytes_stored = r.global_stores * sizeof(float);
  r.min_bytes = (m * k + k * n + m * n) * sizeof(float);
  r.flops = 2 * m * n * k;
  if (L.focused()) {
    // The traced blocks' own work, as their loads are: the cells of C they
    // store (each once), and each element of A and B they read, read once.
    const auto touched = [](const std::vector<std::uint32_t>& loads) {
      const auto read = [](std::uint32_t count) { return count > 0; };
      return static_cast<std::uint64_t>(std::count_if(loads.begin(), loads.end(), read));
    };
    r.min_bytes = (touched(r.a_loads) + touched(r.b_loads) + r.global_stores) * sizeof(float);
    r.flops = 2 * k * r.global_stores;
  }
  if (r.global_bytes_loaded) r.arithmetic_intensity = static_cast<double>(r.flops) / static_cast<double>(r.global_bytes_loaded);
  if (r.min_bytes) r.ideal_arithmetic_intensity = static_cast<double>(r.flops) / static_cast<double>(r.min_bytes);
}

std::uint64_t ReuseAccumulator::memory_bytes() const {
  std::uint64_t bytes = sizeof *this;
  for (const SharedTileState& t : tiles_) bytes += t.slot.capacity() + t.reads.capacity() * sizeof(std::uint32_t);
  return bytes;
}

ReuseStats analyze_reuse(const Trace& t) {
  const LaunchInfo& L = t.launch;
  const auto elements = [&](BufferRole role) {
    const Buffer* b = L.buffer_with_role(role);
    return b ? static_cast<std::size_t>(b->elements()) : std::size_t{0};
  };
  std::vector<std::uint32_t> a_loads(elements(BufferRole::A), 0);
  std::vector<std::uint32_t> b_loads(elements(BufferRole::B), 0);
  ReuseAccumulator acc(L);
  for (std::uint64_t block = 0, blocks = L.grid.count(); block < blocks; ++block)
    acc.add_block(t, static_cast<std::uint32_t>(block), a_loads, b_loads, false);
  return acc.finish(L, std::move(a_loads), std::move(b_loads));
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
