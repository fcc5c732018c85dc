// trace_index.h — the queries the viewer asks of a trace at interactive speed.
//
// Built in one pass over the events (plus one to fill the per-element lists):
//   - a thread's events: Trace::thread_events;
//   - the part of A and of B each block loads from global memory per iteration;
//   - for a cell of C, the thread that wrote it and the event;
//   - for an element of A or B, every global load of it (who, and how often).
// A, B and C are the buffers whose roles they are (trace/memory.h), at
// whatever memory id and in whatever layout the launch gives them; rows and
// columns come from their layouts, element indices are their storage order.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "trace/trace.h"

namespace ts {

// A rectangle of a matrix, rows [row0, row1) x cols [col0, col1), and how
// many global loads fell inside it.
struct TileBox {
  std::uint32_t row0 = 0, row1 = 0, col0 = 0, col1 = 0;
  std::uint64_t loads = 0;
  bool empty() const { return loads == 0; }
};

struct EventRef {
  std::uint64_t thread = 0;
  std::uint64_t event = 0;  // index into Trace::events
};

class TraceIndex {
 public:
  explicit TraceIndex(const Trace& trace);

  const Trace& trace() const { return *trace_; }
  // Iterations of the k-loop, plus one step for the final store of C.
  std::uint32_t steps() const { return steps_; }

  // What block `block` loaded of A (or B) from global memory in iteration iter.
  TileBox block_loads(std::uint32_t block, std::uint32_t iter, BufferRole role) const;

  // The store that wrote C[row][col], if any thread wrote it.
  std::optional<EventRef> c_writer(std::uint32_t row, std::uint32_t col) const;

  // Every global load of element `index` (storage order) of A or B, as event indices.
  std::span<const std::uint32_t> global_loads_of(BufferRole role, std::uint32_t index) const;
  std::uint64_t thread_of_event(std::uint64_t event) const;

  // Global loads per element of A and B over the whole trace.
  std::uint32_t min_loads(BufferRole role) const;
  std::uint32_t max_loads(BufferRole role) const;
  std::uint32_t load_count(BufferRole role, std::uint32_t index) const;

  std::uint64_t memory_bytes() const;

 private:
  struct ElementLoads {
    std::vector<std::uint32_t> offsets;  // elements + 1
    std::vector<std::uint32_t> events;
  };
  void loads_range(BufferRole role, std::uint32_t& lo, std::uint32_t& hi) const;
  const ElementLoads* loads_of(BufferRole role) const {
    return role == BufferRole::A ? &a_loads_ : role == BufferRole::B ? &b_loads_ : nullptr;
  }

  const Trace* trace_;
  std::uint32_t steps_ = 0;
  // The row of boxes_ that holds a block: its linear id, or its place among a
  // focused trace's traced blocks (kNoSlot for a block not traced).
  static constexpr std::uint64_t kNoSlot = ~std::uint64_t{0};
  std::uint64_t slot_of(std::uint32_t block) const;
  std::vector<TileBox> boxes_;  // [block slot][step][A, B]
  std::vector<std::uint32_t> c_event_;  // per cell of C: writing event + 1, 0 = none
  std::vector<std::uint32_t> c_thread_;
  ElementLoads a_loads_, b_loads_;
};

}  // namespace ts
