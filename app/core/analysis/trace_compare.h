// trace_compare.h — two traces side by side (naive vs tiled, transposed vs
// padded): their memory counters over the whole launch, or for the block and
// warp that computed one cell of C, in one step.
#pragma once

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/core/analysis/memory_stats.h"
#include "trace/trace.h"

namespace ts {

// The thread that stored C[row][col], found by a scan (the app asks its index instead).
std::optional<std::uint64_t> c_writer_thread(const Trace& trace, std::uint32_t row, std::uint32_t col);

// What the block and the warp of one thread did in one step (kAllSteps: all).
struct ThreadScope {
  std::uint64_t thread = 0;
  std::uint32_t block = 0, warp = 0;
  MemoryStats block_stats, warp_stats;
};
ThreadScope thread_scope(const Trace& trace, std::uint64_t thread, std::uint32_t step = kAllSteps);

struct CompareOptions {
  std::optional<ElementCoord> cell;  // compare the block and warp that computed this cell of C
  std::uint32_t step = kAllSteps;    // only this k-iteration (the last step is C's store)
};

// {"a": {...}, "b": {...}, "ratio": {...}}: each side's launch, counters (the
// flat ones of `tilescope stats --json`) and, with a cell, "block" and "warp"
// counters; ratio is b / a for every counter both have and a is not zero.
// Throws std::invalid_argument when the cell lies outside either C.
nlohmann::json compare_traces_json(const Trace& a, const Trace& b, const CompareOptions& options);

}  // namespace ts
