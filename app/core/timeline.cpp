// timeline.cpp — per-SM tracks, co-residency, waves, tail and achieved
// occupancy from per-block timing.
#include "app/core/timeline.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ts {
namespace {

void check_shape(const TimelineShape& s) {
  if (s.sm_count <= 0 || s.warps_per_block <= 0 || s.max_warps_per_sm <= 0 || s.blocks_per_sm < 0)
    throw std::invalid_argument("a timeline needs the SM count, warps per block and warp slots per SM");
}

void check_block(const BlockTiming& b, std::size_t i) {
  if (b.start_ns == ~0ull || b.end_ns < b.start_ns)
    throw std::invalid_argument("block " + std::to_string(i) + " has no valid start/end time");
  if (b.sm > 65535) throw std::invalid_argument("block " + std::to_string(i) + " names SM " + std::to_string(b.sm));
}

// Lanes of one SM: each block takes the lowest lane that is free at its start.
// Greedy by start time uses exactly as many lanes as the most blocks that
// overlap, so the lane count is the SM's peak co-residency.
void assign_lanes(std::span<TimelineBlock> blocks, SmTrack& track) {
  std::vector<std::uint64_t> lane_end;
  std::vector<std::uint32_t> lane_blocks;
  std::uint64_t covered_until = 0;
  bool any = false;
  for (TimelineBlock& b : blocks) {
    std::size_t lane = 0;
    while (lane < lane_end.size() && lane_end[lane] > b.start_ns) ++lane;
    if (lane == lane_end.size()) {
      lane_end.push_back(0);
      lane_blocks.push_back(0);
    }
    lane_end[lane] = b.end_ns;
    b.lane = static_cast<std::uint32_t>(lane);
    b.wave = lane_blocks[lane]++;
    // Active time: the union of the SM's block intervals (blocks come by start).
    if (!any || b.start_ns >= covered_until) {
      track.active_ns += b.end_ns - b.start_ns;
      covered_until = b.end_ns;
      any = true;
    } else if (b.end_ns > covered_until) {
      track.active_ns += b.end_ns - covered_until;
      covered_until = b.end_ns;
    }
  }
  track.lanes = static_cast<std::uint32_t>(lane_end.size());
}

std::uint64_t smallest_step(const std::vector<TimelineBlock>& blocks) {
  std::vector<std::uint64_t> t;
  t.reserve(blocks.size() * 2);
  for (const TimelineBlock& b : blocks) {
    t.push_back(b.start_ns);
    t.push_back(b.end_ns);
  }
  std::sort(t.begin(), t.end());
  std::uint64_t step = 0;
  for (std::size_t i = 1; i < t.size(); ++i) {
    const std::uint64_t d = t[i] - t[i - 1];
    if (d > 0 && (step == 0 || d < step)) step = d;
  }
  return step;
}

}  // namespace

Timeline build_timeline(std::span<const BlockTiming> timing, const TimelineShape& shape) {
  check_shape(shape);
  Timeline tl;
  tl.shape = shape;
  std::uint32_t top_sm = static_cast<std::uint32_t>(shape.sm_count - 1);
  std::uint64_t t0 = ~0ull;
  for (std::size_t i = 0; i < timing.size(); ++i) {
    check_block(timing[i], i);
    t0 = std::min(t0, timing[i].start_ns);
    top_sm = std::max(top_sm, timing[i].sm);
  }
  tl.sms.resize(top_sm + 1);
  if (timing.empty()) return tl;

  tl.blocks.resize(timing.size());
  for (std::size_t i = 0; i < timing.size(); ++i) {
    TimelineBlock& b = tl.blocks[i];
    b.block = static_cast<std::uint32_t>(i);
    b.sm = timing[i].sm;
    b.start_ns = timing[i].start_ns - t0;
    b.end_ns = timing[i].end_ns - t0;
    tl.duration_ns = std::max(tl.duration_ns, b.end_ns);
    tl.last_start_ns = std::max(tl.last_start_ns, b.start_ns);
  }
  std::sort(tl.blocks.begin(), tl.blocks.end(), [](const TimelineBlock& x, const TimelineBlock& y) {
    if (x.sm != y.sm) return x.sm < y.sm;
    if (x.start_ns != y.start_ns) return x.start_ns < y.start_ns;
    return x.block < y.block;
  });

  double warp_ns = 0, active_ns = 0;
  for (std::uint32_t i = 0; i < tl.blocks.size();) {
    const std::uint32_t sm = tl.blocks[i].sm;
    std::uint32_t j = i;
    while (j < tl.blocks.size() && tl.blocks[j].sm == sm) ++j;
    SmTrack& track = tl.sms[sm];
    track.first = i;
    track.count = j - i;
    assign_lanes(std::span<TimelineBlock>(tl.blocks).subspan(i, j - i), track);
    for (std::uint32_t b = i; b < j; ++b)
      track.warp_ns += double(shape.warps_per_block) * double(tl.blocks[b].end_ns - tl.blocks[b].start_ns);
    for (std::uint32_t b = i; b < j; ++b) tl.waves_observed = std::max(tl.waves_observed, tl.blocks[b].wave + 1);
    tl.max_coresident = std::max(tl.max_coresident, track.lanes);
    ++tl.sms_used;
    warp_ns += track.warp_ns;
    active_ns += double(track.active_ns);
    i = j;
  }
  const double slots = double(shape.max_warps_per_sm);
  tl.achieved_occupancy = active_ns > 0 ? warp_ns / (active_ns * slots) : 0.0;
  tl.occupancy_over_launch =
      tl.duration_ns > 0 ? warp_ns / (double(tl.duration_ns) * slots * double(tl.sms.size())) : 0.0;
  if (shape.blocks_per_sm > 0)
    tl.waves = double(timing.size()) / (double(shape.blocks_per_sm) * double(shape.sm_count));
  tl.tail_ns = tl.duration_ns - tl.last_start_ns;
  if (tl.tail_ns > 0) tl.tail_occupancy = occupancy_series(tl, tl.last_start_ns, tl.duration_ns, 1).front();
  tl.timer_step_ns = smallest_step(tl.blocks);
  return tl;
}

std::vector<double> occupancy_series(const Timeline& tl, std::uint64_t t0, std::uint64_t t1, int bins, int sm) {
  if (bins <= 0 || t1 <= t0) return {};
  const double width = double(t1 - t0) / bins;
  // Partial first/last bins directly; whole bins in between through a
  // difference array, so a long block costs O(1).
  std::vector<double> sum(bins, 0.0), whole(bins + 1, 0.0);
  auto add = [&](const TimelineBlock& b) {
    const std::uint64_t s = std::max(b.start_ns, t0), e = std::min(b.end_ns, t1);
    if (e <= s) return;
    const double w = tl.shape.warps_per_block;
    const double xs = double(s - t0) / width, xe = double(e - t0) / width;
    const int b0 = std::min(bins - 1, static_cast<int>(xs));
    const int b1 = std::min(bins - 1, static_cast<int>(xe));
    if (b0 == b1) {
      sum[b0] += w * double(e - s);
      return;
    }
    sum[b0] += w * (double(b0 + 1) - xs) * width;
    sum[b1] += w * (xe - double(b1)) * width;
    whole[b0 + 1] += w * width;
    whole[b1] -= w * width;
  };
  if (sm >= 0) {
    if (static_cast<std::size_t>(sm) >= tl.sms.size()) return std::vector<double>(bins, 0.0);
    for (const TimelineBlock& b : tl.sm_blocks(static_cast<std::uint32_t>(sm))) add(b);
  } else {
    for (const TimelineBlock& b : tl.blocks) add(b);
  }
  const double sm_slots = double(tl.shape.max_warps_per_sm) * (sm >= 0 ? 1.0 : double(tl.sms.size()));
  double running = 0;
  for (int i = 0; i < bins; ++i) {
    running += whole[i];
    sum[i] = (sum[i] + running) / (width * sm_slots);
  }
  return sum;
}

}  // namespace ts
