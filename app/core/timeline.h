// timeline.h — the SM timeline of a launch, built from per-block timing:
// which blocks were co-resident on each SM, the waves, the tail, and the
// achieved occupancy over time.
//
// Achieved occupancy is Nsight Compute's definition applied to blocks: the
// resident warps integrated over time, divided by each SM's active time
// (while it held at least one block) and by the SM's warp slots. A block
// counts all its warps from its first warp's start to its last warp's end.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace/trace.h"

namespace ts {

struct TimelineShape {
  int sm_count = 0;           // SMs of the GPU, idle ones included
  int warps_per_block = 0;
  int max_warps_per_sm = 0;
  int blocks_per_sm = 0;      // the calculator's (or the API's) bound, for waves
};

struct TimelineBlock {
  std::uint32_t block = 0;  // block-linear index in the grid
  std::uint32_t sm = 0;
  std::uint32_t lane = 0;   // row on its SM's track: blocks of a lane never overlap
  std::uint32_t wave = 0;   // position in its lane: 0 for the first wave
  std::uint64_t start_ns = 0, end_ns = 0;  // relative to the launch's earliest start
};

struct SmTrack {
  std::uint32_t first = 0, count = 0;  // its blocks: Timeline::blocks[first, first + count), by start
  std::uint32_t lanes = 0;             // == the most blocks co-resident on it
  std::uint64_t active_ns = 0;         // time holding at least one block
  double warp_ns = 0;                  // resident warps integrated over time
};

struct Timeline {
  TimelineShape shape;
  std::vector<TimelineBlock> blocks;  // grouped by SM, by start within an SM
  std::vector<SmTrack> sms;           // one per SM id, idle ones included
  std::uint64_t duration_ns = 0;      // earliest start to latest end

  double achieved_occupancy = 0;     // over each SM's active time (Nsight Compute's definition)
  double occupancy_over_launch = 0;  // over the whole duration, idle SMs included
  std::uint32_t max_coresident = 0;  // most blocks on one SM at once
  std::uint32_t sms_used = 0;
  double waves = 0;                     // blocks / (blocks_per_sm * sm_count)
  std::uint32_t waves_observed = 0;     // the longest lane
  std::uint64_t last_start_ns = 0;      // after this no block is waiting: the tail
  std::uint64_t tail_ns = 0;
  double tail_occupancy = 0;            // over the tail, all SMs
  std::uint64_t timer_step_ns = 0;      // smallest non-zero gap between timestamps

  std::span<const TimelineBlock> sm_blocks(std::uint32_t sm) const {
    return std::span<const TimelineBlock>(blocks).subspan(sms[sm].first, sms[sm].count);
  }
};

// Throws std::invalid_argument on an impossible recording (a block that ends
// before it starts, an unwritten entry, a zero shape).
Timeline build_timeline(std::span<const BlockTiming> timing, const TimelineShape& shape);

// Occupancy (resident warps / warp slots) averaged over each of `bins` equal
// slices of [t0, t1), over every SM or one (sm >= 0).
std::vector<double> occupancy_series(const Timeline& timeline, std::uint64_t t0, std::uint64_t t1, int bins,
                                     int sm = -1);

}  // namespace ts
