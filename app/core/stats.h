// stats.h — event counts of a trace, for `tilescope stats` and the app.
#pragma once

#include <array>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/reuse.h"
#include "app/core/trace.h"
#include "app/core/trace_index.h"

namespace ts {

struct TraceStats {
  std::array<std::array<std::uint64_t, 2>, kArrayCount> by_array{};  // [array][op]
  std::array<std::array<std::uint64_t, 2>, 2> by_space{};            // [space][op]
  std::uint64_t padding_stores = 0;
  std::uint32_t a_loads_min = 0, a_loads_max = 0, b_loads_min = 0, b_loads_max = 0;
  MemoryStats memory;  // requests, sectors, wavefronts, bank conflicts
  ReuseStats reuse;    // loads per element, bytes against the minimum, shared reuse
};

TraceStats compute_stats(const Trace& trace, const TraceIndex& index);
nlohmann::json stats_to_json(const Trace& trace, const TraceStats& stats);

}  // namespace ts
