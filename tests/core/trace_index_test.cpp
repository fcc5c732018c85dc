// The index answers the viewer's questions the same way a scan of the events does.
#include <gtest/gtest.h>

#include "app/core/trace_index.h"
#include "tests/core/trace_test_support.h"

namespace ts {
namespace {

TEST(TraceIndex, CellOfCLeadsToItsThread) {
  const Trace t = test::small_trace(KernelKind::Tiled, 4, 12, 10, 9);
  const TraceIndex index(t);
  for (std::uint32_t r = 0; r < 12; ++r)
    for (std::uint32_t c = 0; c < 10; ++c) {
      const auto w = index.c_writer(r, c);
      ASSERT_TRUE(w.has_value());
      const ThreadCoord tc = t.thread_coord(w->thread);
      EXPECT_EQ(tc.block.y * 4 + tc.thread.y, r);
      EXPECT_EQ(tc.block.x * 4 + tc.thread.x, c);
      EXPECT_EQ(t.events[w->event].array_id(), ArrayId::C);
      EXPECT_EQ(t.events[w->event].value, t.c[r * 10 + c]);
      EXPECT_EQ(index.thread_of_event(w->event), w->thread);
    }
  EXPECT_FALSE(index.c_writer(12, 0).has_value());
}

TEST(TraceIndex, CoarsenedThreadOwnsFourCells) {
  const Trace t = test::small_trace(KernelKind::Coarsened, 4, 16, 16, 8);
  const TraceIndex index(t);
  const auto w = index.c_writer(0, 0);
  ASSERT_TRUE(w);
  EXPECT_EQ(index.c_writer(4, 0)->thread, w->thread);
  EXPECT_EQ(index.c_writer(0, 4)->thread, w->thread);
  EXPECT_EQ(index.c_writer(4, 4)->thread, w->thread);
  EXPECT_NE(index.c_writer(1, 0)->thread, w->thread);
}

TEST(TraceIndex, LoadsOfAnElementMatchAScan) {
  const Trace t = test::small_trace(KernelKind::Naive, 4, 9, 7, 5);
  const TraceIndex index(t);
  for (std::uint32_t i = 0; i < t.a.size(); ++i) {
    std::vector<std::uint32_t> scan;
    for (std::uint32_t e = 0; e < t.events.size(); ++e)
      if (t.events[e].array_id() == ArrayId::A && t.events[e].op() == Op::Load && t.events[e].index == i)
        scan.push_back(e);
    const auto got = index.global_loads_of(BufferRole::A, i);
    EXPECT_EQ(std::vector<std::uint32_t>(got.begin(), got.end()), scan);
    EXPECT_EQ(got.size(), 7u);  // naive: once per column of C
  }
  EXPECT_TRUE(index.global_loads_of(BufferRole::A, 1u << 30).empty());
  EXPECT_TRUE(index.global_loads_of(BufferRole::C, 0).empty());
}

TEST(TraceIndex, BlockLoadsPerIterationForTheTiledKernel) {
  const Trace t = test::small_trace(KernelKind::Tiled, 4, 8, 8, 8);
  const TraceIndex index(t);
  EXPECT_EQ(index.steps(), 3u);  // two k-iterations and the final store
  // Block (x=1, y=0), iteration 1: A rows 0..3, cols 4..7; B rows 4..7, cols 4..7.
  const TileBox a = index.block_loads(1, 1, BufferRole::A);
  EXPECT_EQ(a.row0, 0u);
  EXPECT_EQ(a.row1, 4u);
  EXPECT_EQ(a.col0, 4u);
  EXPECT_EQ(a.col1, 8u);
  const TileBox b = index.block_loads(1, 1, BufferRole::B);
  EXPECT_EQ(b.row0, 4u);
  EXPECT_EQ(b.col0, 4u);
  EXPECT_EQ(b.loads, 16u);
  EXPECT_TRUE(index.block_loads(1, 2, BufferRole::A).empty());
  EXPECT_TRUE(index.block_loads(99, 0, BufferRole::A).empty());
}

}  // namespace
}  // namespace ts
