// block_iteration.cpp — a block's shared traffic around one iteration's reads.
#include "app/core/block_iteration.h"

#include <algorithm>
#include <bit>

namespace ts {

std::uint32_t reads_epoch(const IterationRule& rule, std::uint32_t iteration) {
  return iteration * rule.barriers_per_iteration + 1;
}

std::span<const Event> events_in_epochs(const Trace& t, std::uint64_t thread, std::uint32_t first, std::uint32_t last) {
  // Epochs never decrease along a thread's events (trace_validation.cpp checks it).
  const std::span<const Event> all = t.thread_events(thread);
  const auto lo = std::partition_point(all.begin(), all.end(), [&](const Event& e) { return e.epoch < first; });
  const auto hi = std::partition_point(lo, all.end(), [&](const Event& e) { return e.epoch <= last; });
  return all.subspan(static_cast<std::size_t>(lo - all.begin()), static_cast<std::size_t>(hi - lo));
}

BlockIteration::BlockIteration(const Trace& t, std::uint32_t block, std::uint32_t iteration)
    : block_(block), iteration_(iteration) {
  const LaunchInfo& L = t.launch;
  const IterationRule& rule = L.iteration_rule;
  epoch_ = reads_epoch(rule, iteration);
  if (rule.barriers_per_iteration == 0 || block >= L.grid.count()) return;
  for (int i = 0; i < 2; ++i) {
    const ArrayLayout& l = L.array(ArrayId(static_cast<int>(ArrayId::As) + i));
    const std::size_t n = l.present ? static_cast<std::size_t>(l.elements()) : 0;
    tiles_[i].filled.resize(n);
    tiles_[i].in_flight.resize(n);
    tiles_[i].read.resize(n);
  }
  // A buffer is refilled at most `stages` k-tiles before it is read: look
  // that far back (and one barrier more, for a prologue).
  const std::uint32_t stages = std::max<std::uint32_t>(1, L.tiling.stages);
  const std::uint32_t back = rule.barriers_per_iteration * (stages + 1) + 1;
  const std::uint32_t first = epoch_ > back ? epoch_ - back : 0;
  const std::uint64_t per_block = L.threads_per_block();
  for (std::uint64_t i = 0; i < per_block; ++i) {
    // The global loads not yet copied into shared memory, oldest first: a
    // copy's store takes the oldest one that holds its value (a cp.async
    // records its load then its store; a float4 copy through registers its
    // four loads, then its four stores, possibly transposed).
    std::vector<const Event*> pending;
    std::size_t next = 0;
    for (const Event& e : events_in_epochs(t, std::uint64_t{block} * per_block + i, first, epoch_)) {
      if (e.is_global_load()) {
        pending.push_back(&e);
        continue;
      }
      if (e.space() != Space::Shared) continue;
      Tile& tile = tiles_[e.array_id() == ArrayId::As ? 0 : 1];
      if (e.index >= tile.read.size()) continue;
      if (e.op() == Op::Load) {
        if (e.epoch == epoch_) tile.read[e.index] = true;
        continue;
      }
      SlotStore s;
      s.present = true;
      s.padding = e.is_padding();
      s.async = e.is_async();
      s.value = e.value;
      s.writer = static_cast<std::uint32_t>(i);
      s.epoch = e.epoch;
      s.width = e.access_width();
      s.global = e.array_id() == ArrayId::As ? ArrayId::A : ArrayId::B;
      while (!s.padding && next < pending.size()) {
        const Event& load = *pending[next++];
        if (std::bit_cast<std::uint32_t>(load.value) != std::bit_cast<std::uint32_t>(e.value)) continue;
        s.global = load.array_id();
        s.source = t.element(s.global, load.index);
        break;
      }
      if (e.epoch == epoch_) {
        tile.in_flight[e.index] = s;
      } else {
        SlotStore& f = tile.filled[e.index];
        if (!f.present || f.epoch <= s.epoch) f = s;
      }
    }
  }
}

const BlockIteration::Tile* BlockIteration::tile(ArrayId shared) const {
  if (shared == ArrayId::As) return &tiles_[0];
  if (shared == ArrayId::Bs) return &tiles_[1];
  return nullptr;
}

std::uint32_t BlockIteration::slots(ArrayId shared) const {
  const Tile* t = tile(shared);
  return t ? static_cast<std::uint32_t>(t->read.size()) : 0;
}

const SlotStore& BlockIteration::filled(ArrayId shared, std::uint32_t slot) const {
  static const SlotStore kNone;
  const Tile* t = tile(shared);
  return t && slot < t->filled.size() ? t->filled[slot] : kNone;
}

const SlotStore& BlockIteration::in_flight(ArrayId shared, std::uint32_t slot) const {
  static const SlotStore kNone;
  const Tile* t = tile(shared);
  return t && slot < t->in_flight.size() ? t->in_flight[slot] : kNone;
}

bool BlockIteration::read(ArrayId shared, std::uint32_t slot) const {
  const Tile* t = tile(shared);
  return t && slot < t->read.size() && t->read[slot];
}

}  // namespace ts
