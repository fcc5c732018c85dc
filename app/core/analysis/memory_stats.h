// memory_stats.h — the memory-system numbers a kernel engineer reads from
// Nsight Compute, computed from a trace: warp-level requests, the sectors of
// global requests (coalescing), the wavefronts of shared requests (bank
// conflicts), per array and op and in total. The counters themselves
// (AccessTotals, MemoryStats) are trace/model/memory_counts.h: the GPU's
// counting build fills them too.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/core/analysis/coalescing.h"
#include "app/core/analysis/warp_requests.h"
#include "trace/by_memory.h"
#include "trace/model/memory_counts.h"
#include "trace/trace.h"

namespace ts {

// Adds one warp-level request (its lanes' byte addresses) to the totals; a
// cp.async copy's read also adds its write's wavefronts for the further lines
// it reads (copy_line_wavefronts) to the destination's shared stores. The
// AccessTotals form counts the request alone.
void count_request(MemoryStats& stats, const WarpRequest& request, std::span<const std::uint64_t> addresses,
                   std::span<const std::uint32_t> lanes);
void count_request(AccessTotals& totals, const WarpRequest& request, std::span<const std::uint64_t> addresses,
                   std::span<const std::uint32_t> lanes);

// A step is a k-iteration (Event::iter); the last one is C's store.
inline constexpr std::uint32_t kAllSteps = 0xFFFFFFFFu;

// Every request of the trace (or of one step), spread over worker threads (0: one per core).
MemoryStats analyze_memory(const Trace& trace, unsigned workers = 0, std::uint32_t step = kAllSteps);

// Only what one block (and, within it, one warp) did, for the side-by-side views.
MemoryStats analyze_block(const Trace& trace, std::uint32_t block, std::uint32_t step = kAllSteps);
MemoryStats analyze_warp(const Trace& trace, std::uint32_t block, std::uint32_t warp, std::uint32_t step = kAllSteps);

// One block's counters per step, from a single alignment of each of its
// warps: warp(w, s) equals analyze_warp(trace, block, w, s) and block(s)
// equals analyze_block(trace, block, s). The Warp memory panel follows the
// replay step by step; re-aligning the block's whole trace at every new step
// took about 30 ms at N = 4096.
class BlockStepStats {
 public:
  BlockStepStats(const Trace& trace, std::uint32_t block);
  MemoryStats warp(std::uint32_t warp, std::uint32_t step) const;
  MemoryStats block(std::uint32_t step) const;

 private:
  struct Warp {
    std::map<std::uint32_t, MemoryStats> by_step;
    AlignmentCounts alignment;  // of the whole warp, as analyze_warp reports at every step
  };
  std::vector<Warp> warps_;
};

// The flat counters named as in `tilescope stats --json` (global_load_requests, ...).
nlohmann::json memory_counters_json(const MemoryStats& stats);
// Per array and op, with histograms, and the alignment counts.
nlohmann::json memory_details_json(const LaunchInfo& launch, const MemoryStats& stats);

}  // namespace ts
