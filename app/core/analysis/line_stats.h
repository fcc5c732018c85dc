// line_stats.h — the memory figures of each source line, the way Nsight
// Compute's source page shows them: for every line whose subscripts touch
// memory, its warp requests, sectors per request against the ideal, shared
// wavefronts and bank conflicts, global loads per element, and in words what
// it wastes.
//
// A request belongs to the line of its first lane's event (the lanes of one
// instruction share a line), so the lines' figures add up to the whole
// trace's (analyze_memory) exactly. The lines come from the emulator
// (Trace::lines); a trace without them (a GPU recording, a file) borrows the
// emulator's lines of the same launch when every thread made as many events
// (lines_fit, trace/trace.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/core/analysis/memory_stats.h"
#include "trace/trace.h"

namespace ts {

struct LineStats {
  std::uint32_t line = 0;  // 0: events whose line is not known
  MemoryStats memory;      // the requests of this line
  // Global loads of this line: the floats loaded (lane events); per request, the
  // distinct elements it loaded, summed; the distinct elements per block, summed
  // over blocks; and the distinct elements over the launch.
  std::uint64_t global_load_events = 0, request_elements = 0, block_elements = 0, launch_elements = 0;

  double loads_per_element() const;       // global load events per distinct element (as `stats` counts)
  double block_reloads() const;           // requests per element per block: 1 when each block loads it once
  std::vector<std::string> findings() const;  // uncoalesced, n-way conflict, re-loaded from global
};

// Every line that touches memory, ascending. lines: one per event of trace.
std::vector<LineStats> analyze_lines(const Trace& trace, std::span<const std::uint16_t> lines);

// The buffers and regions a line's requests touch, by name in table order ("A As").
std::string line_memory_names(const LaunchInfo& launch, const LineStats& line);

// For `stats --by-line --json`: one object per line, with its source text when
// given, and its requests per buffer and region ("by_array", by name).
nlohmann::json line_stats_json(const LaunchInfo& launch, std::span<const LineStats> stats,
                               std::span<const std::string> source);

}  // namespace ts
