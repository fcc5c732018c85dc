// Rebuilding warp-level requests from lane events: every event in exactly one
// request, lanes of a request at the same instruction, program order.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/warp_requests.h"
#include "tests/core/trace_test_support.h"

namespace ts {
namespace {

// Which of the coarsened kernel's 2 x 2 accesses an event is: i (A, rows of C)
// and j (B, columns of C), from the thread's coordinates and the element.
struct Site {
  int i = -1, j = -1;
  bool operator==(const Site&) const = default;
};

Site coarsened_site(const Trace& t, std::uint64_t thread, const Event& e) {
  const ThreadCoord c = t.thread_coord(thread);
  const int tile = t.launch.tile;
  const int row0 = static_cast<int>(c.block.y) * 2 * tile + static_cast<int>(c.thread.y);
  const int col0 = static_cast<int>(c.block.x) * 2 * tile + static_cast<int>(c.thread.x);
  const ElementCoord el = t.element(e.array_id(), e.index);
  switch (e.array_id()) {
    case ArrayId::A: return {(static_cast<int>(el.row) - row0) / tile, -1};
    case ArrayId::B: return {-1, (static_cast<int>(el.col) - col0) / tile};
    case ArrayId::C: return {(static_cast<int>(el.row) - row0) / tile, (static_cast<int>(el.col) - col0) / tile};
    default: return {};
  }
}

TEST(WarpRequests, CoarsenedEdgeLanesAreMatchedToTheirOwnInstruction) {
  for (int tile : {2, 4, 8}) {
    SCOPED_TRACE("TILE " + std::to_string(tile));
    const Trace t = test::small_trace(KernelKind::Coarsened, tile, 37, 45, 29);
    WarpAligner aligner(t);
    std::uint64_t checked = 0;
    for (std::uint32_t b = 0; b < t.launch.grid.count(); ++b)
      for (std::uint32_t w = 0; w < warps_per_block(t.launch); ++w) {
        aligner.align(b, w);
        const std::uint64_t first_thread = std::uint64_t{b} * t.launch.threads_per_block() + w * 32;
        for (const WarpRequest& r : aligner.requests()) {
          if (r.space() != Space::Global) continue;
          const auto lanes = aligner.lanes(r);
          const Site site = coarsened_site(t, first_thread + lanes[0].lane, t.events[lanes[0].event]);
          for (const LaneEvent& le : lanes)
            EXPECT_EQ(coarsened_site(t, first_thread + le.lane, t.events[le.event]), site)
                << "block " << b << " warp " << w << " " << array_name(r.array) << " #" << r.ordinal;
          ++checked;
        }
      }
    EXPECT_GT(checked, 0u);
    if (tile > 2) {  // TILE 2 has one 4-lane warp per block: nothing to realign
      EXPECT_GT(aligner.alignment().realigned_lanes, 0u);
    }
    EXPECT_EQ(aligner.alignment().unresolved_lanes, 0u);
  }
}

void expect_every_event_once(const Trace& t) {
  WarpAligner aligner(t);
  std::vector<std::uint8_t> seen(t.events.size(), 0);
  for (std::uint32_t b = 0; b < t.launch.grid.count(); ++b)
    for (std::uint32_t w = 0; w < warps_per_block(t.launch); ++w) {
      aligner.align(b, w, true);
      for (const WarpRequest& r : aligner.requests()) {
        std::set<std::uint32_t> lanes;
        for (const LaneEvent& le : aligner.lanes(r)) {
          ASSERT_LT(le.event, t.events.size());
          ++seen[le.event];
          EXPECT_TRUE(lanes.insert(le.lane).second) << "a lane twice in one request";
          const Event& e = t.events[le.event];
          EXPECT_EQ(e.array_id(), r.array);
          EXPECT_EQ(e.op(), r.op);
          EXPECT_EQ(e.epoch, r.epoch);
        }
      }
    }
  for (std::uint64_t e = 0; e < seen.size(); ++e) ASSERT_EQ(seen[e], 1) << "event " << e;
}

TEST(WarpRequests, EveryEventIsInExactlyOneRequest) {
  for (KernelKind kind : kAllKernels) expect_every_event_once(test::small_trace(kind, 4, 21, 19, 13));
  expect_every_event_once(test::small_trace(KernelKind::Tiled, 32, 40, 40, 40));  // partial warps of TILE 32 blocks
  expect_every_event_once(test::small_trace(KernelKind::Naive, 2, 5, 7, 3));      // 4-thread blocks: 4-lane warps
}

TEST(WarpRequests, ProgramOrderOfTheTiledKernel) {
  const Trace t = test::small_trace(KernelKind::Tiled, 8, 16, 16, 16);
  WarpAligner aligner(t);
  aligner.align(0, 0, true);
  const auto reqs = aligner.requests();
  // Epoch 0: A[..] -> As, B[..] -> Bs. Epoch 1: As, Bs alternately, TILE times.
  ASSERT_GE(reqs.size(), 4u + 16u);
  const std::pair<ArrayId, Op> first[] = {
      {ArrayId::A, Op::Load}, {ArrayId::As, Op::Store}, {ArrayId::B, Op::Load}, {ArrayId::Bs, Op::Store}};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(reqs[i].array, first[i].first);
    EXPECT_EQ(reqs[i].op, first[i].second);
    EXPECT_EQ(reqs[i].epoch, 0);
    EXPECT_EQ(reqs[i].count, 32u);
  }
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(reqs[4 + 2 * k].array, ArrayId::As);
    EXPECT_EQ(reqs[4 + 2 * k].ordinal, static_cast<std::uint32_t>(k));
    EXPECT_EQ(reqs[5 + 2 * k].array, ArrayId::Bs);
    EXPECT_EQ(reqs[5 + 2 * k].epoch, 1);
    EXPECT_EQ(reqs[5 + 2 * k].iter, 0);
  }
  EXPECT_EQ(reqs.back().array, ArrayId::C);
  EXPECT_EQ(reqs.back().iter, 2);  // the store comes after the two iterations
}

TEST(WarpRequests, LanesOutsideTheMatrixMakeNoAccess) {
  // M = 5 rows with TILE 8: warp 0 of block 0 is rows 0..3 of the tile (8
  // lanes each), all inside; warp 1 is rows 4..7, of which only row 4 is.
  const Trace t = test::small_trace(KernelKind::Tiled, 8, 5, 8, 8);
  WarpAligner aligner(t);
  aligner.align(0, 1);
  for (const WarpRequest& r : aligner.requests()) {
    if (r.array == ArrayId::A) {
      EXPECT_EQ(r.count, 8u);  // only row 4 loads A
    } else if (r.array == ArrayId::As && r.op == Op::Store) {
      EXPECT_EQ(r.count, 32u);  // the others store zeros
    } else if (r.array == ArrayId::C) {
      EXPECT_EQ(r.count, 8u);
    }
  }
}

TEST(WarpRequests, ADamagedEpochOrderStillEndsAndKeepsEveryEvent) {
  Trace t = test::small_trace(KernelKind::Tiled, 4, 12, 12, 12);
  std::mt19937 rng(7);
  for (Event& e : t.events.span()) e.epoch = rng() % 5;  // epochs going back and forth
  expect_every_event_once(t);
  const MemoryStats s = analyze_memory(t);
  std::uint64_t accesses = 0;
  for (Space sp : {Space::Global, Space::Shared})
    for (Op op : {Op::Load, Op::Store}) accesses += s.total(sp, op).accesses;
  EXPECT_EQ(accesses, t.events.size());
}

}  // namespace
}  // namespace ts

namespace ts {
namespace {

// A hand-made launch: one warp of 32 threads; lane 0 loads `n0` floats of A,
// lane 1 `n1`, the others nothing (as a damaged or extreme file might say).
Trace lopsided_warp(std::uint32_t n0, std::uint32_t n1) {
  Trace t;
  LaunchInfo& L = t.launch;
  L.kernel = "naive";
  L.tile = 32;
  L.m = L.n = 1;
  L.k = static_cast<int>(std::max(n0, n1));
  L.grid = {1, 1, 1};
  L.block = {32, 1, 1};
  L.iteration_rule = {0, 32, static_cast<std::uint32_t>(L.k), 1, 1, 0, 0};
  L.set_array(ArrayId(0), {true, 0x10000, 1, static_cast<std::uint32_t>(L.k), static_cast<std::uint32_t>(L.k)});
  t.thread_offsets.assign(33, 0);
  t.thread_offsets[1] = n0;
  for (int i = 2; i <= 32; ++i) t.thread_offsets[i] = n0 + n1;
  t.events = EventBuffer(n0 + n1);
  std::uint64_t e = 0;
  for (std::uint32_t lane_n : {n0, n1})
    for (std::uint32_t i = 0; i < lane_n; ++i) {
      Event& x = t.events[e++];
      x = Event{};
      x.index = i;
      x.array = static_cast<std::uint16_t>(ArrayId::A);
    }
  return t;
}

TEST(WarpRequests, ALopsidedWarpIsAnalysedInLinearMemory) {
  // 600 000 rows x 32 lanes would be a 150 MB table: the aligner keeps the
  // lanes' accesses in order instead and says the partial lane is unresolved.
  const Trace t = lopsided_warp(600000, 300000);
  const MemoryStats s = analyze_memory(t, 1);
  const AccessTotals a = s.total(Space::Global, Op::Load);
  EXPECT_EQ(a.accesses, 900000u);
  EXPECT_EQ(a.requests, 600000u);      // one per row; lane 1 takes part in the first half
  EXPECT_EQ(a.sectors, 300000u + 300000u);  // both lanes on the same float: one sector
  EXPECT_EQ(s.alignment.partial_groups, 1u);
  EXPECT_EQ(s.alignment.unresolved_lanes, 1u);
  // The same shape, small: the slot table path agrees.
  const MemoryStats small = analyze_memory(lopsided_warp(600, 300), 1);
  EXPECT_EQ(small.total(Space::Global, Op::Load).requests, 600u);
  EXPECT_EQ(small.total(Space::Global, Op::Load).sectors, 600u);
}

}  // namespace
}  // namespace ts
