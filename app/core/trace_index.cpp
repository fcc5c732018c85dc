// trace_index.cpp — build the index in two passes over the events.
#include "app/core/trace_index.h"

#include <algorithm>
#include <limits>

namespace ts {

TraceIndex::TraceIndex(const Trace& t) : trace_(&t) {
  const LaunchInfo& L = t.launch;
  steps_ = L.iteration_rule.iterations + 1;
  // A focused trace keeps boxes for its traced blocks only: at N = 4096 a
  // table for every block of the grid would dwarf the events themselves.
  const std::uint64_t blocks = L.focused() ? L.traced_blocks.size() : L.grid.count();
  const std::uint64_t per_block = L.block.count();
  const std::uint32_t no_row = std::numeric_limits<std::uint32_t>::max();
  boxes_.assign(blocks * steps_ * 2, TileBox{no_row, 0, no_row, 0, 0});
  c_event_.assign(t.c.size(), 0);
  c_thread_.assign(t.c.size(), 0);
  a_loads_.offsets.assign(t.a.size() + 1, 0);
  b_loads_.offsets.assign(t.b.size() + 1, 0);
  const std::uint32_t lda = L.array(ArrayId(0)).ld, ldb = L.array(ArrayId(1)).ld;

  // Pass 1: count the loads of each element, grow the boxes, find C's writers.
  const Event* ev = t.events.data();
  const std::uint64_t threads = t.thread_count();
  for (std::uint64_t th = 0; th < threads; ++th) {
    const std::uint64_t block = slot_of(static_cast<std::uint32_t>(th / per_block));
    if (block == kNoSlot) continue;  // an untraced block of a focused trace: no events
    for (std::uint64_t e = t.thread_offsets[th], end = t.thread_offsets[th + 1]; e < end; ++e) {
      const Event& x = ev[e];
      if (x.array == static_cast<std::uint8_t>(ArrayId::C)) {
        if (x.flags & kFlagStore) {
          c_event_[x.index] = static_cast<std::uint32_t>(e + 1);
          c_thread_[x.index] = static_cast<std::uint32_t>(th);
        }
        continue;
      }
      if (x.array > static_cast<std::uint8_t>(ArrayId::B) || (x.flags & kFlagStore)) continue;
      const bool is_a = x.array == static_cast<std::uint8_t>(ArrayId::A);
      (is_a ? a_loads_ : b_loads_).offsets[x.index + 1]++;
      const std::uint32_t ld = is_a ? lda : ldb;
      const std::uint32_t row = x.index / ld, col = x.index % ld;
      const std::uint32_t step = std::min<std::uint32_t>(x.iter, steps_ - 1);
      TileBox& b = boxes_[(block * steps_ + step) * 2 + (is_a ? 0 : 1)];
      b.row0 = std::min(b.row0, row);
      b.row1 = std::max(b.row1, row + 1);
      b.col0 = std::min(b.col0, col);
      b.col1 = std::max(b.col1, col + 1);
      ++b.loads;
    }
  }
  for (TileBox& b : boxes_)
    if (b.loads == 0) b = TileBox{};

  // Pass 2: list each element's loads, in thread order.
  for (ElementLoads* l : {&a_loads_, &b_loads_}) {
    for (std::size_t i = 1; i < l->offsets.size(); ++i) l->offsets[i] += l->offsets[i - 1];
    l->events.resize(l->offsets.back());
  }
  std::vector<std::uint32_t> a_next(a_loads_.offsets.begin(), a_loads_.offsets.end() - 1);
  std::vector<std::uint32_t> b_next(b_loads_.offsets.begin(), b_loads_.offsets.end() - 1);
  for (std::uint64_t e = 0, n = t.events.size(); e < n; ++e) {
    const Event& x = ev[e];
    if (x.array > static_cast<std::uint8_t>(ArrayId::B) || (x.flags & kFlagStore)) continue;
    if (x.array == static_cast<std::uint8_t>(ArrayId::A)) a_loads_.events[a_next[x.index]++] = static_cast<std::uint32_t>(e);
    else b_loads_.events[b_next[x.index]++] = static_cast<std::uint32_t>(e);
  }
}

TileBox TraceIndex::block_loads(std::uint32_t block, std::uint32_t iter, ArrayId array) const {
  if (block >= trace_->launch.grid.count() || iter >= steps_ ||
      (array != ArrayId::A && array != ArrayId::B))
    return {};
  const std::uint64_t slot = slot_of(block);
  if (slot == kNoSlot) return {};
  return boxes_[(slot * steps_ + iter) * 2 + (array == ArrayId::A ? 0 : 1)];
}

std::uint64_t TraceIndex::slot_of(std::uint32_t block) const {
  const LaunchInfo& L = trace_->launch;
  if (!L.focused()) return block;
  const auto it = std::lower_bound(L.traced_blocks.begin(), L.traced_blocks.end(), block);
  return it != L.traced_blocks.end() && *it == block ? static_cast<std::uint64_t>(it - L.traced_blocks.begin()) : kNoSlot;
}

std::optional<EventRef> TraceIndex::c_writer(std::uint32_t row, std::uint32_t col) const {
  const LaunchInfo& L = trace_->launch;
  if (row >= static_cast<std::uint32_t>(L.m) || col >= static_cast<std::uint32_t>(L.n)) return std::nullopt;
  const std::uint64_t cell = std::uint64_t{row} * L.n + col;
  if (c_event_[cell] == 0) return std::nullopt;
  return EventRef{c_thread_[cell], c_event_[cell] - 1u};
}

std::span<const std::uint32_t> TraceIndex::global_loads_of(ArrayId array, std::uint32_t index) const {
  if (array != ArrayId::A && array != ArrayId::B) return {};
  const ElementLoads& l = loads_of(array);
  if (index + 1 >= l.offsets.size()) return {};
  return std::span<const std::uint32_t>(l.events).subspan(l.offsets[index], l.offsets[index + 1] - l.offsets[index]);
}

std::uint32_t TraceIndex::load_count(ArrayId array, std::uint32_t index) const {
  return static_cast<std::uint32_t>(global_loads_of(array, index).size());
}

std::uint64_t TraceIndex::thread_of_event(std::uint64_t event) const {
  const auto& off = trace_->thread_offsets;
  const auto it = std::upper_bound(off.begin(), off.end(), event);
  return static_cast<std::uint64_t>(it - off.begin()) - 1;
}

std::uint32_t TraceIndex::min_loads(ArrayId array) const {
  const ElementLoads& l = loads_of(array);
  std::uint32_t m = std::numeric_limits<std::uint32_t>::max();
  for (std::size_t i = 0; i + 1 < l.offsets.size(); ++i) m = std::min(m, l.offsets[i + 1] - l.offsets[i]);
  return l.offsets.size() > 1 ? m : 0;
}

std::uint32_t TraceIndex::max_loads(ArrayId array) const {
  const ElementLoads& l = loads_of(array);
  std::uint32_t m = 0;
  for (std::size_t i = 0; i + 1 < l.offsets.size(); ++i) m = std::max(m, l.offsets[i + 1] - l.offsets[i]);
  return m;
}

std::uint64_t TraceIndex::memory_bytes() const {
  return boxes_.size() * sizeof(TileBox) + (c_event_.size() + c_thread_.size()) * 4 +
         (a_loads_.offsets.size() + a_loads_.events.size() + b_loads_.offsets.size() + b_loads_.events.size()) * 4;
}

}  // namespace ts
