// block_iteration.cpp — a block's shared traffic around one iteration's reads.
#include "app/core/block_iteration.h"

#include <algorithm>
#include <array>
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
  tiles_.resize(L.regions.size());
  for (std::size_t r = 0; r < L.regions.size(); ++r) {
    const std::size_t n = static_cast<std::size_t>(L.regions[r].elements());
    tiles_[r].filled.resize(n);
    tiles_[r].in_flight.resize(n);
    tiles_[r].read.resize(n);
  }
  const auto first_region = static_cast<std::uint32_t>(L.buffers.size());
  // Stores per region copied from A and from B: a region's role.
  std::vector<std::array<std::uint64_t, 2>> from(L.regions.size(), {0, 0});
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
      if (e.space() != Space::Shared || e.array < first_region || e.array - first_region >= tiles_.size()) continue;
      const std::uint32_t region = e.array - first_region;
      Tile& tile = tiles_[region];
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
      while (!s.padding && next < pending.size()) {
        const Event& load = *pending[next++];
        if (std::bit_cast<std::uint32_t>(load.value) != std::bit_cast<std::uint32_t>(e.value)) continue;
        s.source_id = load.array;
        s.global = L.role_of(load.array);
        const MatrixCoord c = L.coord(load.array, load.index);
        s.source = {c.row, c.col};
        if (s.global == BufferRole::A || s.global == BufferRole::B) ++from[region][static_cast<int>(s.global)];
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
  // A padding zero (or a value no load matched) counts as its region's.
  for (std::size_t r = 0; r < tiles_.size(); ++r) {
    Tile& tile = tiles_[r];
    if (from[r][0] + from[r][1] > 0) tile.role = from[r][0] >= from[r][1] ? BufferRole::A : BufferRole::B;
    for (std::vector<SlotStore>* v : {&tile.filled, &tile.in_flight})
      for (SlotStore& s : *v)
        if (s.present && s.source_id == kNoMemory) s.global = tile.role;
  }
}

std::uint32_t BlockIteration::slots(std::uint32_t region) const {
  return region < tiles_.size() ? static_cast<std::uint32_t>(tiles_[region].read.size()) : 0;
}

const SlotStore& BlockIteration::filled(std::uint32_t region, std::uint32_t slot) const {
  static const SlotStore kNone;
  return region < tiles_.size() && slot < tiles_[region].filled.size() ? tiles_[region].filled[slot] : kNone;
}

const SlotStore& BlockIteration::in_flight(std::uint32_t region, std::uint32_t slot) const {
  static const SlotStore kNone;
  return region < tiles_.size() && slot < tiles_[region].in_flight.size() ? tiles_[region].in_flight[slot] : kNone;
}

bool BlockIteration::read(std::uint32_t region, std::uint32_t slot) const {
  return region < tiles_.size() && slot < tiles_[region].read.size() && tiles_[region].read[slot];
}

}  // namespace ts
