// block_iteration.h — one block's shared-memory traffic in one k-iteration,
// read from its threads' events by barrier epoch (the barriers a thread has
// passed only grow along its program order; a pipeline's k-tile stamps do not:
// its copies of tile t + 1 are issued while tile t is read).
//
//  - The iteration's reads are the shared loads of its multiply-accumulate
//    phase: those made after the barrier that completes its tiles
//    (reads_epoch()).
//  - The word a read finds in a slot is the latest store to that slot before
//    that epoch: a kernel without races orders the two with a barrier, and a
//    pipeline issued the copy one or more iterations earlier.
//  - Stores issued during the reads (epoch reads_epoch()) fill another
//    buffer for a later iteration: a pipeline's copies in flight.
//  - Every shared region of the launch (trace/memory.h) is followed alike,
//    whatever its name: a region is "of A" (or of B) when the copies into it
//    come from the buffer whose role is A (or B).
//
// Pure logic over a Trace; the replay's highlights and the Shared memory
// panel are built on it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace/trace.h"

namespace ts {

// The epoch of an iteration's multiply-accumulate reads: one barrier after
// its tiles were stored (both for two barriers per k-tile and for a
// pipeline's one barrier per k-tile after one prologue barrier).
std::uint32_t reads_epoch(const IterationRule& rule, std::uint32_t iteration);

// A thread's events whose barrier epoch lies in [first, last].
std::span<const Event> events_in_epochs(const Trace& t, std::uint64_t thread, std::uint32_t first, std::uint32_t last);

// One store into a shared slot, with where its value came from.
struct SlotStore {
  bool present = false;
  bool padding = false;  // a zero for a slot outside the matrices
  bool async = false;    // a cp.async copy
  // The role of the buffer copied from (a padding zero: its region's role),
  // that buffer's memory id (kNoMemory: no load matched, e.g. a value
  // computed in registers) and the element copied.
  BufferRole global = BufferRole::Other;
  std::uint32_t source_id = kNoMemory;
  ElementCoord source{};
  float value = 0.0f;
  std::uint32_t writer = 0;  // thread inside the block, x-fastest
  std::uint32_t epoch = 0;
  Width width = Width::B4;  // of the shared store's access
};

class BlockIteration {
 public:
  BlockIteration(const Trace& t, std::uint32_t block, std::uint32_t iteration);

  std::uint32_t block() const { return block_; }
  std::uint32_t iteration() const { return iteration_; }
  std::uint32_t epoch() const { return epoch_; }  // reads_epoch(rule, iteration)
  // Regions are numbered as the launch's table lists them (LaunchInfo::regions).
  std::uint32_t regions() const { return static_cast<std::uint32_t>(tiles_.size()); }
  // The store a read of this iteration finds in slot `slot` (element index)
  // of a region (not present: nothing stored there yet).
  const SlotStore& filled(std::uint32_t region, std::uint32_t slot) const;
  // Whether any thread of the block reads the slot in this iteration.
  bool read(std::uint32_t region, std::uint32_t slot) const;
  // A store issued while the iteration reads (a pipeline's next tiles).
  const SlotStore& in_flight(std::uint32_t region, std::uint32_t slot) const;
  std::uint32_t slots(std::uint32_t region) const;
  // The role of the buffer most copies into the region came from (Other:
  // none came from A or B, e.g. a staged tile of C).
  BufferRole role(std::uint32_t region) const { return region < tiles_.size() ? tiles_[region].role : BufferRole::Other; }

 private:
  struct Tile {
    std::vector<SlotStore> filled, in_flight;
    std::vector<bool> read;
    BufferRole role = BufferRole::Other;
  };
  std::uint32_t block_ = 0, iteration_ = 0, epoch_ = 0;
  std::vector<Tile> tiles_;  // one per region
};

}  // namespace ts
