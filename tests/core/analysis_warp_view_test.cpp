// The warp and bank views' data: lanes -> sectors, lanes -> banks and
// wavefronts, and which request a replay step is about.
#include <gtest/gtest.h>

#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/warp_view.h"
#include "tests/core/trace_test_support.h"

namespace ts {
namespace {

TEST(WarpView, NaiveRowLoadsOfAAreOneSectorPerLane) {
  const Trace t = test::small_trace(KernelKind::NaiveRow, 32, 64, 64, 64);
  const ReplayTimeline timeline(t.launch);
  const auto views = warp_request_views(t, 0, 0, 1);  // k = 32 .. 63
  ASSERT_FALSE(views.empty());
  const auto at = requests_at(views, ReplayStep{1, Phase::Mac, 3}, timeline);
  ASSERT_EQ(at.size(), 2u);  // A[row][35] and B[35][col]
  EXPECT_EQ(views[at[1]].request.array, ArrayId::B);
  EXPECT_EQ(views[at[1]].footprint.sectors, 1u);  // one column of B: every lane the same float
  EXPECT_EQ(costliest(views, at), at[0]);
  const WarpRequestView& v = views[at[0]];
  EXPECT_EQ(v.request.array, ArrayId::A);
  EXPECT_EQ(v.request.ordinal, 35u);  // the naive kernels' loads are numbered over the whole k-loop
  ASSERT_EQ(v.lanes.size(), 32u);
  EXPECT_EQ(v.sectors.size(), 32u);
  for (std::uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(v.lanes[l].lane, l);
    EXPECT_EQ(v.lanes[l].element.row, l);  // threadIdx.x -> row
    EXPECT_EQ(v.lanes[l].element.col, 35u);
    EXPECT_EQ(v.lanes[l].sector, l);
    EXPECT_EQ(v.sectors[l], v.lanes[l].address / 32);
  }
  EXPECT_EQ(v.footprint.sectors, 32u);
}

TEST(WarpView, TransposedTileShowsAllLanesInOneBankOneWavefrontEach) {
  const Trace t = test::small_trace(KernelKind::TiledTransposed, 32, 64, 64, 64);
  const ReplayTimeline timeline(t.launch);
  const auto views = warp_request_views(t, 0, 2, 0);
  // Mac k = 5 reads As[ty][5] (a broadcast) and Bs[tx][5] (32-way).
  const auto at = requests_at(views, ReplayStep{0, Phase::Mac, 5}, timeline);
  ASSERT_EQ(at.size(), 2u);
  EXPECT_EQ(views[at[0]].request.array, ArrayId::As);
  EXPECT_EQ(views[at[0]].request.ordinal, 5u);
  EXPECT_EQ(views[at[0]].banks.ways, 1u);
  EXPECT_EQ(views[at[0]].banks.broadcast_lanes, 32u);
  ASSERT_EQ(costliest(views, at), at[1]);
  const WarpRequestView& bs = views[at[1]];
  ASSERT_EQ(bs.request.array, ArrayId::Bs);
  EXPECT_EQ(bs.request.ordinal, 5u);
  EXPECT_EQ(bs.banks.ways, 32u);
  const std::uint32_t bank = bs.lanes[0].bank;
  ASSERT_EQ(bs.wavefronts.size(), 32u);
  for (std::uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(bs.lanes[l].bank, bank);
    EXPECT_EQ(bs.lanes[l].wavefront, l);  // lane l's word is served in wavefront l
    EXPECT_EQ(bs.wavefronts[l].lanes[bank], 1u << l);
    EXPECT_EQ(bs.wavefronts[l].conflict, l > 0);
  }
}

TEST(WarpView, FollowsLoadAndStoreSteps) {
  const Trace t = test::small_trace(KernelKind::Tiled, 8, 16, 16, 16);
  const ReplayTimeline timeline(t.launch);
  const auto load = warp_request_views(t, 1, 0, 1);
  const auto at = requests_at(load, ReplayStep{1, Phase::Load, 0}, timeline);
  ASSERT_EQ(at.size(), 4u);  // A -> As, B -> Bs
  EXPECT_EQ(load[at[0]].request.array, ArrayId::A);
  EXPECT_EQ(load[at[1]].request.array, ArrayId::As);
  EXPECT_EQ(load[at[3]].request.array, ArrayId::Bs);
  EXPECT_TRUE(requests_at(load, ReplayStep{1, Phase::Barrier, 0}, timeline).empty());
  const auto store = warp_request_views(t, 1, 0, 2);
  const auto st = requests_at(store, ReplayStep{2, Phase::Store, 0}, timeline);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(store[st[0]].request.array, ArrayId::C);
  EXPECT_TRUE(warp_request_views(t, 99, 0, 0).empty());
}

// The Warp memory panel keeps one alignment per block and warp while the
// replay steps: what it shows at every step must equal a fresh analysis of
// that step (a wrong split per step, or a warp's counts leaking into
// another's, shows here). Shapes with edge tiles, register tiles and a
// cp.async pipeline.
TEST(WarpView, KeptAlignmentsGiveEachStepWhatAFreshAnalysisGives) {
  struct Case {
    KernelKind kind;
    int tile, m, n, k;
  };
  for (const Case& c : {Case{KernelKind::Tiled, 4, 12, 10, 9}, Case{KernelKind::NaiveRow, 32, 40, 36, 70},
                        Case{KernelKind::TiledTransposed, 8, 24, 20, 19}, Case{KernelKind::Blocktile2d, 0, 70, 66, 40},
                        Case{KernelKind::DoubleBuffer, 0, 130, 132, 48}}) {
    SCOPED_TRACE(testing::Message() << "kernel " << static_cast<int>(c.kind));
    const Trace t = test::small_trace(c.kind, c.tile, c.m, c.n, c.k);
    const std::uint32_t warps = warps_per_block(t.launch);
    std::uint32_t last_step = 0;
    for (std::size_t i = 0; i < t.events.size(); ++i) last_step = std::max<std::uint32_t>(last_step, t.events[i].iter);
    for (const std::uint32_t block : {0u, static_cast<std::uint32_t>(t.launch.grid.count() - 1)}) {
      const BlockStepStats kept(t, block);
      std::vector<std::uint32_t> steps{kAllSteps, last_step + 1};
      for (std::uint32_t s = 0; s <= last_step; ++s) steps.push_back(s);
      for (const std::uint32_t step : steps) {
        SCOPED_TRACE(testing::Message() << "block " << block << " step " << step);
        EXPECT_EQ(memory_details_json(t.launch, kept.block(step)),
                  memory_details_json(t.launch, analyze_block(t, block, step)));
        for (std::uint32_t w = 0; w < warps; ++w) {
          EXPECT_EQ(memory_details_json(t.launch, kept.warp(w, step)),
                    memory_details_json(t.launch, analyze_warp(t, block, w, step)));
          WarpAligner aligned(t);
          aligned.align(block, w, true);
          const auto fresh = warp_request_views(t, block, w, step), from_kept = warp_request_views(t, aligned, step);
          ASSERT_EQ(from_kept.size(), fresh.size());
          for (std::size_t i = 0; i < fresh.size(); ++i) {
            EXPECT_EQ(from_kept[i].request.ordinal, fresh[i].request.ordinal);
            EXPECT_EQ(from_kept[i].request.array, fresh[i].request.array);
            ASSERT_EQ(from_kept[i].lanes.size(), fresh[i].lanes.size());
            for (std::size_t l = 0; l < fresh[i].lanes.size(); ++l) {
              EXPECT_EQ(from_kept[i].lanes[l].event, fresh[i].lanes[l].event);
              EXPECT_EQ(from_kept[i].lanes[l].address, fresh[i].lanes[l].address);
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace ts
