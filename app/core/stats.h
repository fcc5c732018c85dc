// stats.h — what a trace holds: event counts (one pass over the events) and,
// for `tilescope stats`, the memory analysis on top of them.
#pragma once

#include <array>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/reuse.h"
#include "trace/by_memory.h"
#include "trace/trace.h"
#include "app/core/trace_index.h"

namespace ts {

struct TraceCounts {
  ByMemory<std::array<std::uint64_t, 2>> by_array;        // [memory id][op]: per buffer and region
  std::array<std::array<std::uint64_t, 2>, 2> by_space{};            // [space][op]
  std::uint64_t padding_stores = 0;
  std::uint32_t a_loads_min = 0, a_loads_max = 0, b_loads_min = 0, b_loads_max = 0;
};

struct TraceStats {
  TraceCounts counts;
  MemoryStats memory;  // requests, sectors, wavefronts, bank conflicts
  ReuseStats reuse;    // loads per element, bytes against the minimum, shared reuse
};

TraceCounts count_events(const Trace& trace, const TraceIndex& index);
// Adds the events of block `block` of trace to the counts by array and space
// (the per-element load ranges come from the reuse analysis).
void count_block_events(const Trace& trace, std::uint32_t block, TraceCounts& counts);
void add_counts(TraceCounts& into, const TraceCounts& from);
// The counts plus the memory and reuse analyses (several passes over the events).
TraceStats compute_stats(const Trace& trace, const TraceIndex& index);
nlohmann::json stats_to_json(const Trace& trace, const TraceStats& stats);
// The same keys for a launch whose events were counted, not kept (`tilescope counters`).
nlohmann::json stats_to_json(const LaunchInfo& launch, std::uint64_t events, std::uint64_t threads,
                             const TraceStats& stats);

}  // namespace ts
