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
  const std::size_t cells = std::size_t(std::max(0, L.m)) * std::size_t(std::max(0, L.n));
  c_event_.assign(cells, 0);
  c_thread_.assign(cells, 0);
  const std::uint32_t ia = L.role_id(BufferRole::A), ib = L.role_id(BufferRole::B), ic = L.role_id(BufferRole::C);
  const Buffer* const buf_a = L.buffer_at(ia);
  const Buffer* const buf_b = L.buffer_at(ib);
  const Buffer* const buf_c = L.buffer_at(ic);
  a_loads_.offsets.assign(t.a.size() + 1, 0);
  b_loads_.offsets.assign(t.b.size() + 1, 0);
  // Which of A (0) and B (1) each memory id is; 2: neither.
  std::uint8_t operand[kMaxMemoryIds];
  std::fill(std::begin(operand), std::end(operand), std::uint8_t{2});
  if (ia < kMaxMemoryIds) operand[ia] = 0;
  if (ib < kMaxMemoryIds) operand[ib] = 1;
  ElementLoads* const loads[2] = {&a_loads_, &b_loads_};

  // Pass 1: count the loads of each element, grow the boxes, find C's writers.
  const Event* ev = t.events.data();
  const std::uint64_t threads = t.thread_count();
  for (std::uint64_t th = 0; th < threads; ++th) {
    const std::uint64_t block = slot_of(static_cast<std::uint32_t>(th / per_block));
    if (block == kNoSlot) continue;  // an untraced block of a focused trace: no events
    for (std::uint64_t e = t.thread_offsets[th], end = t.thread_offsets[th + 1]; e < end; ++e) {
      const Event& x = ev[e];
      if (x.array == ic) {
        if (x.flags & kFlagStore) {
          const MatrixCoord c = buf_c->coord(x.index);
          const std::uint64_t cell = std::uint64_t{c.row} * static_cast<std::uint32_t>(L.n) + c.col;
          if (cell >= c_event_.size()) continue;
          c_event_[cell] = static_cast<std::uint32_t>(e + 1);
          c_thread_[cell] = static_cast<std::uint32_t>(th);
        }
        continue;
      }
      const std::uint8_t which = operand[x.array];
      if (which > 1 || (x.flags & kFlagStore) || x.index + 1 >= loads[which]->offsets.size()) continue;
      loads[which]->offsets[x.index + 1]++;
      const MatrixCoord at = (which == 0 ? buf_a : buf_b)->coord(x.index);
      const std::uint32_t step = std::min<std::uint32_t>(x.iter, steps_ - 1);
      TileBox& b = boxes_[(block * steps_ + step) * 2 + which];
      b.row0 = std::min(b.row0, at.row);
      b.row1 = std::max(b.row1, at.row + 1);
      b.col0 = std::min(b.col0, at.col);
      b.col1 = std::max(b.col1, at.col + 1);
      ++b.loads;
    }
  }
  for (TileBox& b : boxes_)
    if (b.loads == 0) b = TileBox{};

  // Pass 2: list each element's loads, in thread order.
  for (ElementLoads* l : loads) {
    for (std::size_t i = 1; i < l->offsets.size(); ++i) l->offsets[i] += l->offsets[i - 1];
    l->events.resize(l->offsets.back());
  }
  std::vector<std::uint32_t> next[2] = {{a_loads_.offsets.begin(), a_loads_.offsets.end() - 1},
                                        {b_loads_.offsets.begin(), b_loads_.offsets.end() - 1}};
  for (std::uint64_t e = 0, n = t.events.size(); e < n; ++e) {
    const Event& x = ev[e];
    const std::uint8_t which = operand[x.array];
    if (which > 1 || (x.flags & kFlagStore) || x.index + 1 >= loads[which]->offsets.size()) continue;
    loads[which]->events[next[which][x.index]++] = static_cast<std::uint32_t>(e);
  }
}

TileBox TraceIndex::block_loads(std::uint32_t block, std::uint32_t iter, BufferRole role) const {
  if (block >= trace_->launch.grid.count() || iter >= steps_ || (role != BufferRole::A && role != BufferRole::B))
    return {};
  const std::uint64_t slot = slot_of(block);
  if (slot == kNoSlot) return {};
  return boxes_[(slot * steps_ + iter) * 2 + (role == BufferRole::A ? 0 : 1)];
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

std::span<const std::uint32_t> TraceIndex::global_loads_of(BufferRole role, std::uint32_t index) const {
  const ElementLoads* l = loads_of(role);
  if (!l || index + 1 >= l->offsets.size()) return {};
  return std::span<const std::uint32_t>(l->events).subspan(l->offsets[index], l->offsets[index + 1] - l->offsets[index]);
}

std::uint32_t TraceIndex::load_count(BufferRole role, std::uint32_t index) const {
  return static_cast<std::uint32_t>(global_loads_of(role, index).size());
}

std::uint64_t TraceIndex::thread_of_event(std::uint64_t event) const {
  const auto& off = trace_->thread_offsets;
  const auto it = std::upper_bound(off.begin(), off.end(), event);
  return static_cast<std::uint64_t>(it - off.begin()) - 1;
}

std::uint32_t TraceIndex::min_loads(BufferRole role) const {
  std::uint32_t lo = 0, hi = 0;
  loads_range(role, lo, hi);
  return lo;
}

std::uint32_t TraceIndex::max_loads(BufferRole role) const {
  std::uint32_t lo = 0, hi = 0;
  loads_range(role, lo, hi);
  return hi;
}

// Over the matrix's elements only (a padded leading dimension's gap holds none).
void TraceIndex::loads_range(BufferRole role, std::uint32_t& lo, std::uint32_t& hi) const {
  lo = hi = 0;
  const ElementLoads* l = loads_of(role);
  const Buffer* buf = trace_->launch.buffer_with_role(role);
  if (!l || !buf || l->offsets.size() < 2) return;
  lo = ~0u;
  for (std::uint32_t r = 0; r < buf->rows; ++r)
    for (std::uint32_t c = 0; c < buf->cols; ++c) {
      const std::uint64_t i = buf->index_of(r, c);
      if (i + 1 >= l->offsets.size()) continue;
      const std::uint32_t n = l->offsets[i + 1] - l->offsets[i];
      lo = std::min(lo, n);
      hi = std::max(hi, n);
    }
  if (lo > hi) lo = 0;
}

std::uint64_t TraceIndex::memory_bytes() const {
  return boxes_.size() * sizeof(TileBox) + (c_event_.size() + c_thread_.size()) * 4 +
         (a_loads_.offsets.size() + a_loads_.events.size() + b_loads_.offsets.size() + b_loads_.events.size()) * 4;
}

}  // namespace ts
