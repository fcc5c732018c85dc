// memory_counts.h — the memory system's units and the counters of its
// requests: what app/core/analysis counts from a trace and the GPU's counting
// build (kernels/cuda/counted_kernels.cu) counts on the device, in the same
// types, so that either feeds `stats`, the panels and the comparisons alike.
// How they are counted is the analysis's (app/core/analysis/memory_stats.h).
#pragma once

#include <array>
#include <cstdint>

#include "trace/by_memory.h"
#include "trace/event.h"

namespace ts {

inline constexpr std::uint32_t kWarpSize = 32;
inline constexpr std::uint64_t kSectorBytes = 32;
inline constexpr std::uint64_t kLineBytes = 128;
inline constexpr std::uint64_t kElementBytes = 4;  // a float: the unit of words and of scalar accesses

// Shared loads as compiled (app/core/analysis/compiled_loads.h): the most
// offsets a family holds, and the largest offset (in words, either way). The
// counting build keeps its own copies and checks them against these.
inline constexpr std::uint32_t kFamilyLoads = 128;
inline constexpr std::int32_t kFamilyReach = 32767;

// How often lanes had to be matched to instructions they may have skipped
// (app/core/analysis/warp_requests.h).
struct AlignmentCounts {
  std::uint64_t partial_groups = 0;    // (epoch, array, op) groups whose lanes made different counts
  std::uint64_t realigned_lanes = 0;   // lanes matched at a constant address distance
  std::uint64_t unresolved_lanes = 0;  // lanes matched to the first instructions, for want of better
  void add(const AlignmentCounts& o) {
    partial_groups += o.partial_groups;
    realigned_lanes += o.realigned_lanes;
    unresolved_lanes += o.unresolved_lanes;
  }
};

struct AccessTotals {
  std::uint64_t requests = 0;  // warp-level
  std::uint64_t accesses = 0;  // thread-level: the active lanes of those requests
  // Global: sectors and lines touched, and the fewest sectors the data needed.
  std::uint64_t sectors = 0, lines = 0, ideal_sectors = 0;
  // Shared: wavefronts, and the extra ones that bank conflicts cost.
  std::uint64_t wavefronts = 0, bank_conflicts = 0, broadcast_lanes = 0;
  // Requests by sectors per request (global) or by n-way (shared), 0..32.
  std::array<std::uint64_t, kWarpSize + 1> histogram{};

  std::uint32_t max_per_request() const;  // the largest histogram bin in use
  double per_request() const;             // sectors or wavefronts per request
  void add(const AccessTotals& o);
};

struct MemoryStats {
  ByMemory<std::array<AccessTotals, 2>> by_array;  // [memory id][op]: per buffer and region
  // The shared loads as the compiler issues them (app/core/analysis/compiled_loads.h): a
  // family's adjacent 4-byte loads merged into 8- and 16-byte ones, the
  // instructions Nsight Compute counts. Per shared region; by_array holds
  // them as the source makes them.
  ByMemory<AccessTotals> compiled_loads;
  ByMemory<std::uint8_t> shared;  // 1 where the memory id is a shared region (set as it is counted)
  AlignmentCounts alignment;

  // The totals of a memory id, noting its space.
  std::array<AccessTotals, 2>& of(std::uint32_t id, Space space) {
    shared[id] = space == Space::Shared ? 1 : 0;
    return by_array[id];
  }
  AccessTotals& compiled_of(std::uint32_t id) {
    shared[id] = 1;
    return compiled_loads[id];
  }

  AccessTotals total(Space space, Op op) const;
  AccessTotals compiled_shared_load_totals() const;
  void add(const MemoryStats& o);
};

}  // namespace ts
