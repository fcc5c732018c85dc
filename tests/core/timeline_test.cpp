// The SM timeline: lanes, co-residency, waves, tail and achieved occupancy,
// on a hand-worked launch and on random ones against brute force.
#include "app/core/timeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace ts {
namespace {

constexpr std::uint64_t kBase = 1'000'000'000;  // %globaltimer is far from 0

BlockTiming at(std::uint32_t sm, std::uint64_t start, std::uint64_t end) { return {sm, 0, kBase + start, kBase + end}; }

// 2 SMs of 8 warp slots, blocks of 4 warps (2 fit).
//   SM 0: two blocks [0, 10), then two [10, 20): full all the time.
//   SM 1: [0, 10) and [5, 15): full only in [5, 10).
std::vector<BlockTiming> worked_example() {
  return {at(0, 0, 10), at(0, 0, 10), at(0, 10, 20), at(0, 10, 20), at(1, 0, 10), at(1, 5, 15)};
}
constexpr TimelineShape kShape{2, 4, 8, 2};

TEST(Timeline, WorkedExample) {
  const Timeline tl = build_timeline(worked_example(), kShape);
  EXPECT_EQ(tl.duration_ns, 20u);
  ASSERT_EQ(tl.sms.size(), 2u);
  EXPECT_EQ(tl.sms[0].count, 4u);
  EXPECT_EQ(tl.sms[0].lanes, 2u);
  EXPECT_EQ(tl.sms[0].active_ns, 20u);
  EXPECT_EQ(tl.sms[1].lanes, 2u);
  EXPECT_EQ(tl.sms[1].active_ns, 15u);
  EXPECT_EQ(tl.max_coresident, 2u);
  EXPECT_EQ(tl.sms_used, 2u);
  EXPECT_EQ(tl.waves_observed, 2u);
  EXPECT_DOUBLE_EQ(tl.waves, 6.0 / 4.0);
  // Warp-time: SM 0 160, SM 1 80; active time 20 + 15; 8 slots.
  EXPECT_DOUBLE_EQ(tl.achieved_occupancy, 240.0 / (35.0 * 8.0));
  EXPECT_DOUBLE_EQ(tl.occupancy_over_launch, 240.0 / (20.0 * 8.0 * 2.0));
  // The last block starts at 10: the tail is [10, 20) with SM 0 full and SM 1 half full for 5 ns.
  EXPECT_EQ(tl.last_start_ns, 10u);
  EXPECT_EQ(tl.tail_ns, 10u);
  EXPECT_DOUBLE_EQ(tl.tail_occupancy, (8.0 * 10 + 4.0 * 5) / (10.0 * 16));
  EXPECT_EQ(tl.timer_step_ns, 5u);
  // Blocks that touch (one ends at 10, the next starts at 10) share a lane: waves 0 and 1.
  const auto sm0 = tl.sm_blocks(0);
  EXPECT_EQ(sm0[2].lane, 0u);
  EXPECT_EQ(sm0[2].wave, 1u);
  EXPECT_EQ(sm0[3].lane, 1u);
  EXPECT_EQ(sm0[0].start_ns, 0u);  // times are relative to the earliest start
}

TEST(Timeline, OccupancyOverTime) {
  const Timeline tl = build_timeline(worked_example(), kShape);
  const std::vector<double> two = occupancy_series(tl, 0, 20, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_DOUBLE_EQ(two[0], (80.0 + 40 + 20) / 160.0);
  EXPECT_DOUBLE_EQ(two[1], (80.0 + 20) / 160.0);
  const std::vector<double> sm1 = occupancy_series(tl, 0, 20, 4, 1);
  EXPECT_DOUBLE_EQ(sm1[0], 0.5);
  EXPECT_DOUBLE_EQ(sm1[1], 1.0);
  EXPECT_DOUBLE_EQ(sm1[2], 0.5);
  EXPECT_DOUBLE_EQ(sm1[3], 0.0);
  // Bins that split a block: 3 bins of 20/3 ns.
  const std::vector<double> three = occupancy_series(tl, 0, 20, 3, 1);
  double integral = 0;
  for (double v : three) integral += v * (20.0 / 3);
  EXPECT_NEAR(integral, 80.0 / 8.0, 1e-9);
  EXPECT_TRUE(occupancy_series(tl, 5, 5, 10).empty());
  EXPECT_TRUE(occupancy_series(tl, 0, 20, 0).empty());
  EXPECT_EQ(occupancy_series(tl, 0, 20, 2, 7), std::vector<double>(2, 0.0));
}

TEST(Timeline, IdleSmsCountOverTheLaunchNotWhileActive) {
  // One block on SM 3 of 4: the SMs that ran nothing still exist.
  const Timeline tl = build_timeline(std::vector<BlockTiming>{at(3, 0, 10)}, {4, 4, 8, 2});
  EXPECT_EQ(tl.sms.size(), 4u);
  EXPECT_EQ(tl.sms_used, 1u);
  EXPECT_DOUBLE_EQ(tl.achieved_occupancy, 0.5);
  EXPECT_DOUBLE_EQ(tl.occupancy_over_launch, 0.5 / 4);
  EXPECT_EQ(tl.sms[0].count, 0u);
  EXPECT_TRUE(tl.sm_blocks(0).empty());
}

TEST(Timeline, RefusesImpossibleRecordings) {
  EXPECT_THROW(build_timeline(std::vector<BlockTiming>{at(0, 10, 5)}, kShape), std::invalid_argument);
  EXPECT_THROW(build_timeline(std::vector<BlockTiming>{{0, 0, ~0ull, 0}}, kShape), std::invalid_argument);
  EXPECT_THROW(build_timeline(std::vector<BlockTiming>{at(1u << 20, 0, 5)}, kShape), std::invalid_argument);
  EXPECT_THROW(build_timeline(worked_example(), {0, 4, 8, 2}), std::invalid_argument);
  EXPECT_THROW(build_timeline(worked_example(), {2, 0, 8, 2}), std::invalid_argument);
  const Timeline empty = build_timeline({}, kShape);
  EXPECT_EQ(empty.duration_ns, 0u);
  EXPECT_EQ(empty.achieved_occupancy, 0.0);
}

// Random launches: no two blocks of one lane overlap, the lane count is the
// peak overlap found by brute force, and the series integrates to the same
// warp-time as the summary.
TEST(Timeline, RandomLaunchesAgreeWithBruteForce) {
  std::mt19937_64 rng(std::random_device{}());
  for (int round = 0; round < 20; ++round) {
    const int sms = 1 + static_cast<int>(rng() % 5);
    std::vector<BlockTiming> timing;
    const int blocks = 1 + static_cast<int>(rng() % 200);
    for (int b = 0; b < blocks; ++b) {
      const std::uint64_t s = rng() % 1000, len = rng() % 100;
      timing.push_back(at(static_cast<std::uint32_t>(rng() % sms), s, s + len));
    }
    const TimelineShape shape{sms, 2, 16, 8};
    const Timeline tl = build_timeline(timing, shape);
    double warp_ns = 0;
    for (int sm = 0; sm < sms; ++sm) {
      const auto mine = tl.sm_blocks(static_cast<std::uint32_t>(sm));
      for (std::size_t i = 0; i < mine.size(); ++i)
        for (std::size_t j = i + 1; j < mine.size(); ++j)
          if (mine[i].lane == mine[j].lane) {
            EXPECT_TRUE(mine[i].end_ns <= mine[j].start_ns || mine[j].end_ns <= mine[i].start_ns);
          }
      std::uint32_t peak = 0;
      for (const TimelineBlock& probe : mine) {  // the peak is at some block's start
        std::uint32_t live = 0;
        for (const TimelineBlock& b : mine) live += b.start_ns <= probe.start_ns && probe.start_ns < b.end_ns;
        peak = std::max(peak, live);
      }
      if (std::all_of(mine.begin(), mine.end(), [](const TimelineBlock& b) { return b.end_ns > b.start_ns; })) {
        EXPECT_EQ(tl.sms[sm].lanes, peak);
      }
      warp_ns += tl.sms[sm].warp_ns;
    }
    if (tl.duration_ns == 0) continue;
    const std::vector<double> series = occupancy_series(tl, 0, tl.duration_ns, 37);
    double integral = 0;
    for (double v : series) integral += v * double(tl.duration_ns) / 37 * 16 * tl.sms.size();
    EXPECT_NEAR(integral, warp_ns, 1e-6 * (1 + warp_ns));
    EXPECT_NEAR(tl.occupancy_over_launch, warp_ns / (double(tl.duration_ns) * 16 * tl.sms.size()), 1e-12);
  }
}

}  // namespace
}  // namespace ts
