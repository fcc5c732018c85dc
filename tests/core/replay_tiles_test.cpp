// The ladder's rungs in the replay: a thread's register tile, its warp's
// tile, what it reads from shared memory into registers at each k, and the
// shared buffers of a pipeline, all from recorded events, held against the
// tiling arithmetic written out here (the rung configurations of
// kernels/rungs.h) on emulator recordings at square and ragged shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "app/core/replay.h"
#include "app/core/trace_index.h"
#include "kernels/catalog.h"
#include "kernels/rungs.h"
#include "tests/core/trace_test_support.h"
#include "tests/kernels/kernel_cases.h"

namespace ts {
namespace {

using Cell = std::pair<std::uint32_t, std::uint32_t>;

std::set<Cell> cells_of(const std::vector<ElementCoord>& v) {
  std::set<Cell> s;
  for (const ElementCoord& e : v) s.insert({e.row, e.col});
  return s;
}

bool inside(const CellRect& outer, const CellRect& inner) {
  return inner.row0 >= outer.row0 && inner.row1 <= outer.row1 && inner.col0 >= outer.col0 && inner.col1 <= outer.col1;
}

// An mma.sync m16n8k8 step (k0: its first k): the lane's A fragment
// registers come from rows of its warp's tile and k's k0..k0 + 7, its B
// registers from those k's and the warp's columns; the warp's operand pieces
// are 16 x 8 of A and 8 x 8 of B (smaller only where padding zeros stand
// past the edges), and the cell's accumulator tile is where they meet.
void expect_mma_fragments(const CellHighlight& h, std::uint32_t k0, std::uint32_t K, bool whole_pieces) {
  EXPECT_EQ(h.k_per_read_group, 8u);
  EXPECT_TRUE(h.tensor_cores);
  ASSERT_FALSE(h.registers_now.empty());
  for (const RegisterRead& r : h.registers_now) {
    EXPECT_TRUE(r.fragment);
    if (r.padding) continue;
    const std::uint32_t k = r.global == BufferRole::A ? r.element.col : r.element.row;
    EXPECT_TRUE(k >= k0 && k < k0 + 8) << "k " << k << " outside " << k0 << "..+8";
    if (r.global == BufferRole::A) EXPECT_TRUE(r.element.row >= h.warp_cells.row0 && r.element.row < h.warp_cells.row1);
    else EXPECT_TRUE(r.element.col >= h.warp_cells.col0 && r.element.col < h.warp_cells.col1);
  }
  if (k0 >= K) {  // the padded tail past K: every fragment register holds a zero
    EXPECT_TRUE(h.fragment_tiles.empty());
    return;
  }
  ASSERT_FALSE(h.fragment_tiles.empty());
  for (const CellHighlight::FragmentTile& f : h.fragment_tiles) {
    const std::uint32_t rows = f.cells.row1 - f.cells.row0, cols = f.cells.col1 - f.cells.col0;
    const std::uint32_t want_rows = f.global == BufferRole::A ? 16 : 8, want_cols = 8;
    if (whole_pieces) {
      EXPECT_EQ(rows, want_rows);
      EXPECT_EQ(cols, want_cols);
    } else {
      EXPECT_LE(rows, want_rows);
      EXPECT_LE(cols, want_cols);
    }
  }
  if (whole_pieces) {
    EXPECT_TRUE(h.mma_c_tile.contains(h.cell.row, h.cell.col));
    EXPECT_EQ(h.mma_c_tile.row1 - h.mma_c_tile.row0, 16u);
    EXPECT_EQ(h.mma_c_tile.col1 - h.mma_c_tile.col0, 8u);
  }
}

class ReplayRung : public ::testing::TestWithParam<test::KernelCase> {
 protected:
  void SetUp() override {
    const test::KernelCase c = GetParam();
    trace = test::record_on(DeviceChoice::Cpu, c.kind, 0, c.m, c.n, c.k);
    index = std::make_unique<TraceIndex>(trace);
    rung = rung_config(c.kind);
  }
  Trace trace;
  std::unique_ptr<TraceIndex> index;
  RungConfig rung;
};

// The thread's cells as rectangles, its warp's and block's tiles around them.
TEST_P(ReplayRung, RegisterTileNestsInTheWarpAndBlockTiles) {
  const std::uint32_t M = trace.launch.m, N = trace.launch.n;
  for (std::uint32_t row = 0; row < M; row += 5)
    for (std::uint32_t col = 0; col < N; col += 7) {
      const auto h = highlight_cell(trace, *index, row, col, ReplayStep{0, Phase::Load, 0});
      ASSERT_TRUE(h);
      ASSERT_LE(h->thread_cells.size(), std::size_t(rung.tm * rung.tn));
      std::set<Cell> covered;
      std::size_t area = 0;
      for (const CellRect& p : h->thread_pieces) {
        area += std::size_t{p.row1 - p.row0} * (p.col1 - p.col0);
        for (std::uint32_t r = p.row0; r < p.row1; ++r)
          for (std::uint32_t c = p.col0; c < p.col1; ++c) covered.insert({r, c});
        EXPECT_TRUE(inside(h->warp_cells, p));
      }
      EXPECT_EQ(area, h->thread_cells.size());  // the pieces do not overlap ...
      EXPECT_EQ(covered, cells_of(h->thread_cells));  // ... and cover the thread's cells
      EXPECT_TRUE(covered.count({row, col}));
      EXPECT_TRUE(inside(h->block_cells, h->warp_cells));
      // The cells are the thread's whole TM x TN patch wherever it lies inside C.
      if (row + rung.tm <= M && col + rung.tn <= N && M % rung.bm == 0 && N % rung.bn == 0) {
        EXPECT_EQ(h->thread_cells.size(), std::size_t(rung.tm * rung.tn));
      }
    }
}

// At every k the thread reads, from shared memory, A[its rows][k] and
// B[k][its columns] (zeros past the edges): the outer product that updates
// every cell it owns. The slots' contents come from the recorded stores.
TEST_P(ReplayRung, RegistersAtEachKHoldTheOuterProductsFactors) {
  const ReplayTimeline tl(trace.launch);
  const std::uint32_t T = tl.tile(), M = trace.launch.m, N = trace.launch.n, K = trace.launch.k;
  for (std::uint32_t row = 0; row < M; row += 11)
    for (std::uint32_t col = 0; col < N; col += 13)
      for (std::uint32_t it = 0; it < tl.iterations(); ++it)
        for (std::uint32_t k : {0u, T / 2, T - 1}) {
          const auto h = highlight_cell(trace, *index, row, col, ReplayStep{it, Phase::Mac, k});
          ASSERT_TRUE(h);
          std::set<std::uint32_t> rows, cols;
          for (const ElementCoord& c : h->thread_cells) rows.insert(c.row), cols.insert(c.col);
          if (h->k_per_read_group > 1) {
            expect_mma_fragments(*h, it * T + k / 8 * 8, K, M % 16 == 0 && N % 8 == 0 && K % 8 == 0);
            continue;
          }
          EXPECT_FALSE(h->tensor_cores);
          ASSERT_EQ(h->registers_now.size(), std::size_t(rung.shared_reads_per_k)) << row << "," << col << " it " << it;
          const std::uint32_t kk = it * T + k;
          std::set<std::uint32_t> a_rows, b_cols;
          for (const RegisterRead& r : h->registers_now) {
            if (r.padding) continue;  // a zero: past K, M or N
            if (r.global == BufferRole::A) {
              EXPECT_EQ(r.region, 0u);  // As
              EXPECT_EQ(r.element.col, kk);
              a_rows.insert(r.element.row);
            } else {
              EXPECT_EQ(r.region, 1u);  // Bs
              EXPECT_EQ(r.element.row, kk);
              b_cols.insert(r.element.col);
            }
          }
          if (kk < K) {
            EXPECT_EQ(a_rows, rows) << "k " << kk;  // every row the thread stores, and no other
            EXPECT_EQ(b_cols, cols) << "k " << kk;
          } else {
            EXPECT_TRUE(a_rows.empty() && b_cols.empty());
          }
          // Over the iteration: the thread's rows of the A tile, its columns of the B tile.
          for (const ElementCoord& e : h->a_thread_reads)
            EXPECT_TRUE(rows.count(e.row) && e.col >= it * T && e.col < (it + 1) * T);
          for (const ElementCoord& e : h->b_thread_reads)
            EXPECT_TRUE(cols.count(e.col) && e.row >= it * T && e.row < (it + 1) * T);
        }
}

// What an iteration reads of As and Bs was copied from exactly the block's
// tiles of A and B for that k-tile, each element once; the selected thread's
// own copies are among them, a float4 copy's words in order.
TEST_P(ReplayRung, EachIterationReadsExactlyItsTilesCopies) {
  const ReplayTimeline tl(trace.launch);
  const std::uint32_t M = trace.launch.m, N = trace.launch.n;
  for (const Cell& cell : {Cell{0, 0}, Cell{M - 1, N - 1}, Cell{M / 2, N / 3}}) {
    for (std::uint32_t it = 0; it < tl.iterations(); ++it) {
      const auto h = highlight_cell(trace, *index, cell.first, cell.second, ReplayStep{it, Phase::Load, 0});
      ASSERT_TRUE(h);
      const auto tiles = shared_contents(trace, h->coord.block_linear, it);
      ASSERT_EQ(tiles.size(), 2u);
      std::map<Cell, int> copies[2];
      for (int i = 0; i < 2; ++i)
        for (const SharedWord& w : tiles[i].words)
          if (w.read && w.written && !w.padding) ++copies[i][{w.source.row, w.source.col}];
      const CellRect tile[2] = {h->a_tile, h->b_tile};
      for (int i = 0; i < 2; ++i) {
        std::size_t cells = 0;
        for (const auto& [where, n] : copies[i]) {
          EXPECT_EQ(n, 1) << "element copied more than once";
          EXPECT_TRUE(tile[i].contains(where.first, where.second));
          ++cells;
        }
        EXPECT_EQ(cells, std::size_t{tile[i].row1 - tile[i].row0} * (tile[i].col1 - tile[i].col0)) << "iteration " << it;
      }
      EXPECT_FALSE(h->copied.empty()) << "iteration " << it;  // every thread of a rung copies a part of each tile
      for (std::size_t i = 0; i < h->copied.size(); ++i) {
        const CopiedWord& w = h->copied[i];
        if (w.padding) continue;
        EXPECT_TRUE(copies[w.region == 0 ? 0 : 1].count({w.element.row, w.element.col}));
        // A 16-byte copy fills 4 consecutive slots from 4 consecutive elements of one row.
        if (w.width == Width::B16 && w.slot % 4 == 0 && i + 3 < h->copied.size()) {
          for (std::uint32_t j = 1; j < 4; ++j) {
            const CopiedWord& v = h->copied[i + j];
            EXPECT_EQ(v.slot, w.slot + j);
            if (!v.padding) {
              EXPECT_EQ(v.element, (ElementCoord{w.element.row, w.element.col + j}));
            }
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Rungs, ReplayRung, ::testing::ValuesIn(test::rung_cases(test::rung_shapes())),
                         test::kernel_case_name);

// warptile at 128^3: 8 warps of 64 x 32; a lane's 8 x 8 cells are four 4 x 4
// pieces, kLanesM * 4 = 32 rows and kLanesN * 4 = 16 columns apart.
TEST(ReplayWarptile, WarpTileAndTheLanesFourPieces) {
  const Trace t = test::record_on(DeviceChoice::Cpu, KernelKind::Warptile, 0, 128, 128, 32);
  const TraceIndex index(t);
  const auto h = highlight_cell(t, index, 70, 45, ReplayStep{0, Phase::Mac, 3});
  ASSERT_TRUE(h);
  EXPECT_EQ(h->warp_cells, (CellRect{64, 128, 32, 64}));  // warp 5: warp row 1, warp column 1
  ASSERT_EQ(h->thread_pieces.size(), 4u);
  std::set<std::pair<std::uint32_t, std::uint32_t>> corners;
  for (const CellRect& p : h->thread_pieces) {
    EXPECT_EQ(p.row1 - p.row0, 4u);
    EXPECT_EQ(p.col1 - p.col0, 4u);
    corners.insert({p.row0, p.col0});
  }
  // Cell (70, 45): lane row 70 - 64 = 6 -> laneRow 4, lane column 45 - 32 = 13 -> laneCol 12.
  EXPECT_EQ(corners, (std::set<std::pair<std::uint32_t, std::uint32_t>>{{68, 44}, {68, 60}, {100, 44}, {100, 60}}));
  // Its register reads at k are float4s: two of As (8 rows), two of Bs (8 columns).
  std::size_t starts = 0;
  for (const RegisterRead& r : h->registers_now) starts += r.access_start && r.width == Width::B16;
  EXPECT_EQ(starts, 4u);
}

// double-buffer: iteration t reads buffer t % 2 while cp.async fills the
// other with k-tile t + 1 (none in the last iteration).
TEST(ReplayPipeline, OneBufferIsReadWhileTheOtherFills) {
  const Trace t = test::record_on(DeviceChoice::Cpu, KernelKind::DoubleBuffer, 0, 64, 64, 64);
  const ReplayTimeline tl(t.launch);
  ASSERT_EQ(tl.iterations(), 4u);
  for (std::uint32_t it = 0; it < tl.iterations(); ++it) {
    const auto tiles = shared_contents(t, 0, it);
    ASSERT_EQ(tiles.size(), 2u);
    for (const SharedTileContents& tile : tiles) {
      ASSERT_EQ(tile.stages, 2u);
      EXPECT_TRUE(tile.stage_read[it % 2]);
      EXPECT_FALSE(tile.stage_read[(it + 1) % 2]);
      EXPECT_EQ(tile.stage_filling[(it + 1) % 2], it + 1 < tl.iterations()) << "iteration " << it;
      EXPECT_FALSE(tile.stage_filling[it % 2]);
      // The words in flight come from the next k-tile (A's columns, B's rows).
      for (const SharedWord& w : tile.words) {
        if (!w.in_flight || w.in_flight_padding) continue;
        const std::uint32_t k = tile.role == BufferRole::A ? w.in_flight_source.col : w.in_flight_source.row;
        EXPECT_EQ(k / 16, it + 1);
      }
    }
  }
}

}  // namespace
}  // namespace ts
