// The replay logic: what the app highlights at step s for a selected cell,
// checked without a window against the kernels' index arithmetic (written
// out here independently), the recorded provenance of every shared word, and
// sums recomputed in double precision.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "app/core/replay.h"
#include "app/core/trace_index.h"
#include "kernels/catalog.h"
#include "kernels/focused.h"
#include "kernels/recorder.h"
#include "tests/core/replay_checks.h"
#include "tests/kernels/kernel_cases.h"

namespace ts {
namespace {

Trace record_cpu(KernelKind kind, int tile, int m, int n, int k, InputKind inputs = InputKind::Random,
                 std::uint64_t seed = 0) {
  return test::record_on(DeviceChoice::Cpu, kind, tile, m, n, k, inputs, seed);
}

ReplayStep mac(std::uint32_t it, std::uint32_t k) { return {it, Phase::Mac, k}; }
ReplayStep phase(std::uint32_t it, Phase p) { return {it, p, 0}; }

// ---- the timeline ----

TEST(ReplayTimeline, StagedKernelsTakeTilePlusThreeStepsPerIteration) {
  LaunchInfo L;
  L.k = 6;
  L.iteration_rule = {2, 2, 6, 6, 3, 0, 0};  // tiled, TILE 2, K 6: 3 iterations
  const ReplayTimeline tl(L);
  EXPECT_TRUE(tl.staged());
  EXPECT_EQ(tl.step_count(), 3u * (2 + 3) + 1);
  const ReplayStep expected[] = {phase(0, Phase::Load), phase(0, Phase::Barrier), mac(0, 0), mac(0, 1),
                                 phase(0, Phase::Sync), phase(1, Phase::Load)};
  for (std::uint32_t s = 0; s < 6; ++s) EXPECT_EQ(tl.at(s), expected[s]) << s;
  EXPECT_EQ(tl.at(tl.last_step()).phase, Phase::Store);
  EXPECT_EQ(tl.at(tl.last_step()).iteration, 3u);
  EXPECT_EQ(tl.at(1000).phase, Phase::Store);  // clamps
  for (std::uint32_t s = 0; s < tl.step_count(); ++s) EXPECT_EQ(tl.step_of(tl.at(s)), s);
  EXPECT_EQ(tl.first_step_of_iteration(2), 10u);
  EXPECT_EQ(tl.first_step_of_iteration(3), tl.last_step());
  EXPECT_EQ(tl.macs_in(2), 2u);
}

TEST(ReplayTimeline, NaiveKernelsStepOncePerK) {
  LaunchInfo L;
  L.k = 7;
  L.iteration_rule = {0, 4, 7, 5, 2, 0, 0};  // naive, TILE 4, K 7
  const ReplayTimeline tl(L);
  EXPECT_FALSE(tl.staged());
  EXPECT_EQ(tl.step_count(), 8u);
  EXPECT_EQ(tl.macs_in(0), 4u);
  EXPECT_EQ(tl.macs_in(1), 3u);  // the k's left in K
  EXPECT_EQ(tl.at(5), mac(1, 1));
  for (std::uint32_t s = 0; s < tl.step_count(); ++s) EXPECT_EQ(tl.step_of(tl.at(s)), s);
}

TEST(ReplayTimeline, PhasesPointAtTheirTaggedSourceLines) {
  EXPECT_EQ(std::string(phase_source_tag(Phase::Load).tag), "load");
  EXPECT_EQ(phase_source_tag(Phase::Barrier).occurrence, 0);
  EXPECT_EQ(phase_source_tag(Phase::Sync).occurrence, 1);
  EXPECT_EQ(std::string(phase_source_tag(Phase::Sync).tag), "barrier");
  EXPECT_EQ(std::string(phase_source_tag(Phase::Mac).tag), "mac");
  EXPECT_EQ(std::string(phase_source_tag(Phase::Store).tag), "store");
  // tf32-tensor-core multiplies in its [fragment] and [mma] lines.
  const SourceTag mac_tag = phase_source_tag(Phase::Mac);
  ASSERT_NE(mac_tag.also[0], nullptr);
  ASSERT_NE(mac_tag.also[1], nullptr);
  EXPECT_EQ(std::string(mac_tag.also[0]), "fragment");
  EXPECT_EQ(std::string(mac_tag.also[1]), "mma");
  EXPECT_EQ(phase_source_tag(Phase::Load).also[0], nullptr);
}

// tf32-tensor-core's one-dimensional grid runs its blocks in groups of block
// rows: a cell's block, as the replay highlights it (from the block's stores
// of C), is the tile the catalog places that block at, at every cell.
TEST(ReplayBlocks, Tf32TensorCoresSwizzledBlocksHighlightTheirOwnTiles) {
  const int m = 130, n = 196, k = 8;
  const Trace t = record_cpu(KernelKind::Tf32TensorCore, 0, m, n, k);
  const TraceIndex index(t);
  for (std::uint32_t row = 0; row < std::uint32_t(m); row += 13)
    for (std::uint32_t col = 0; col < std::uint32_t(n); col += 11) {
      const auto h = highlight_cell(t, index, row, col, phase(0, Phase::Load));
      ASSERT_TRUE(h);
      EXPECT_EQ(h->coord.block_linear, block_of_cell(KernelKind::Tf32TensorCore, 0, m, n, row, col));
      const BlockTile at = block_tile_of(KernelKind::Tf32TensorCore, 0, m, n, h->coord.block_linear);
      const std::uint32_t bm = t.launch.tiling.block_m, bn = t.launch.tiling.block_n;
      EXPECT_EQ(h->block_cells, (CellRect{at.row * bm, std::min<std::uint32_t>(m, (at.row + 1) * bm), at.col * bn,
                                          std::min<std::uint32_t>(n, (at.col + 1) * bn)}))
          << "cell " << row << "," << col;
      EXPECT_TRUE(h->block_cells.contains(row, col));
      EXPECT_LE(h->thread_cells.size(), std::size_t(t.launch.tiling.thread_m) * t.launch.tiling.thread_n);
      if (row + 64 < std::uint32_t(m) && col + 64 < std::uint32_t(n)) {  // a tile inside C: all of the lane's cells
        EXPECT_EQ(h->thread_cells.size(), std::size_t(t.launch.tiling.thread_m) * t.launch.tiling.thread_n);
      }
    }
}

// ---- seed 003's worked example: 6 x 6 small integers, TILE 2 ----

class SmallIntegerExample : public ::testing::Test {
 protected:
  void SetUp() override {
    trace = record_cpu(KernelKind::Tiled, 2, 6, 6, 6, InputKind::SmallIntegers, 3);
    index = std::make_unique<TraceIndex>(trace);
  }
  double a(int r, int c) const { return trace.a[r * 6 + c]; }
  double b(int r, int c) const { return trace.b[r * 6 + c]; }
  Trace trace;
  std::unique_ptr<TraceIndex> index;
};

TEST_F(SmallIntegerExample, CellFiveThreeBelongsToBlockOneTwoThreadOneOne) {
  const auto h = highlight_cell(trace, *index, 5, 3, phase(1, Phase::Load));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->coord.block.x, 1u);  // col 3 / TILE 2
  EXPECT_EQ(h->coord.block.y, 2u);  // row 5 / TILE 2
  EXPECT_EQ(h->coord.thread.x, 1u);
  EXPECT_EQ(h->coord.thread.y, 1u);
  EXPECT_EQ(h->coord.warp, 0u);
  EXPECT_EQ(h->block_cells, (CellRect{4, 6, 2, 4}));
  ASSERT_EQ(h->thread_cells.size(), 1u);
  EXPECT_EQ(h->thread_cells[0].row, 5u);
  EXPECT_EQ(h->thread_cells[0].col, 3u);
}

TEST_F(SmallIntegerExample, LoadPhaseShowsTheBlocksTilesAndThisThreadsCopies) {
  const auto h = highlight_cell(trace, *index, 5, 3, phase(1, Phase::Load));
  ASSERT_TRUE(h);
  // Iteration 1: A rows 4..5, k columns 2..3; B k rows 2..3, columns 2..3.
  EXPECT_EQ(h->a_tile, (CellRect{4, 6, 2, 4}));
  EXPECT_EQ(h->b_tile, (CellRect{2, 4, 2, 4}));
  // Thread (ty 1, tx 1): As[1][1] = A[5][1 * 2 + 1], Bs[1][1] = B[1 * 2 + 1][3].
  ASSERT_EQ(h->copied.size(), 2u);
  for (const CopiedWord& w : h->copied) {
    EXPECT_FALSE(w.padding);
    EXPECT_EQ(w.slot, 3u);  // row 1, col 1 of a 2 x 2 tile
    if (w.region == 0) {  // As
      EXPECT_EQ(w.global, BufferRole::A);
      EXPECT_EQ(w.element.row, 5u);
      EXPECT_EQ(w.element.col, 3u);
      EXPECT_EQ(w.value, a(5, 3));
    } else {
      EXPECT_EQ(w.global, BufferRole::B);
      EXPECT_EQ(w.element.row, 3u);
      EXPECT_EQ(w.element.col, 3u);
      EXPECT_EQ(w.value, b(3, 3));
    }
  }
  EXPECT_FALSE(h->a_now);
  EXPECT_EQ(h->a_reads, (CellRect{5, 6, 2, 4}));
  EXPECT_EQ(h->b_reads, (CellRect{2, 4, 3, 4}));
}

TEST_F(SmallIntegerExample, MacStepReadsOneRowOfAsAndOneColumnOfBs) {
  const auto h = highlight_cell(trace, *index, 5, 3, mac(1, 1));
  ASSERT_TRUE(h);
  ASSERT_TRUE(h->a_now && h->b_now);
  EXPECT_EQ(h->a_now->row, 5u);
  EXPECT_EQ(h->a_now->col, 3u);  // k = 1 * TILE + 1
  EXPECT_EQ(h->b_now->row, 3u);
  EXPECT_EQ(h->b_now->col, 3u);
  EXPECT_EQ(h->as_reads, (std::vector<SlotRef>{{0, 2}, {0, 3}}));  // As[ty = 1][k]
  EXPECT_EQ(h->bs_reads, (std::vector<SlotRef>{{1, 1}, {1, 3}}));  // Bs[k][tx = 1]
  EXPECT_EQ(h->as_now, (SlotRef{0, 3}));
  EXPECT_EQ(h->bs_now, (SlotRef{1, 3}));
}

TEST_F(SmallIntegerExample, RunningSumsMatchHandArithmeticUpToTheStoredValue) {
  double acc = 0;
  std::vector<double> after_iteration;
  for (int k = 0; k < 6; ++k) {
    acc += a(5, k) * b(k, 3);
    if (k % 2 == 1) after_iteration.push_back(acc);
  }
  for (std::uint32_t it = 0; it < 3; ++it) {
    for (std::uint32_t k = 0; k < 2; ++k) {
      const auto h = highlight_cell(trace, *index, 5, 3, mac(it, k));
      ASSERT_TRUE(h);
      double expect = 0;
      for (std::uint32_t kk = 0; kk <= it * 2 + k; ++kk) expect += a(5, kk) * b(kk, 3);
      EXPECT_EQ(h->partial, expect);
      EXPECT_EQ(h->partial_before + a(5, it * 2 + k) * b(it * 2 + k, 3), expect);
      EXPECT_EQ(h->terms_done, it * 2 + k + 1);
    }
    const auto load = highlight_cell(trace, *index, 5, 3, phase(it, Phase::Load));
    EXPECT_EQ(load->partial, it == 0 ? 0.0 : after_iteration[it - 1]);
  }
  const auto store = highlight_cell(trace, *index, 5, 3, phase(3, Phase::Store));
  ASSERT_TRUE(store);
  EXPECT_TRUE(store->stored_now);
  EXPECT_EQ(store->partial_after_iteration, (std::vector<float>(after_iteration.begin(), after_iteration.end())));
  EXPECT_EQ(store->stored, acc);
  EXPECT_EQ(store->partial, store->stored);
  EXPECT_TRUE(store->partial_matches_stored);
  EXPECT_FALSE(store->fused);  // the emulator does not fuse
  EXPECT_TRUE(store->a_tile.empty());
  EXPECT_TRUE(store->copied.empty());
}

TEST_F(SmallIntegerExample, SharedContentsHoldTheTilesWithTheirSources) {
  // Block (1, 2) in iteration 2: As = A[4..5][4..5], Bs = B[4..5][2..3].
  const std::uint32_t block = 2 * 3 + 1;
  const auto tiles = shared_contents(trace, block, 2);
  ASSERT_EQ(tiles.size(), 2u);
  for (const SharedTileContents& tile : tiles) {
    ASSERT_EQ(tile.words.size(), 4u);
    for (std::uint32_t s = 0; s < 4; ++s) {
      const SharedWord& w = tile.words[s];
      const std::uint32_t r = s / 2, c = s % 2;
      EXPECT_TRUE(w.written);
      EXPECT_FALSE(w.padding);
      EXPECT_EQ(w.writer, r * 2 + c);  // thread (ty = r, tx = c) copies slot (r, c)
      if (tile.name == "As") {
        EXPECT_EQ(w.source.row, 4 + r);
        EXPECT_EQ(w.source.col, 4 + c);
        EXPECT_EQ(w.value, a(4 + r, 4 + c));
      } else {
        EXPECT_EQ(w.source.row, 4 + r);
        EXPECT_EQ(w.source.col, 2 + c);
        EXPECT_EQ(w.value, b(4 + r, 2 + c));
      }
    }
  }
}

TEST_F(SmallIntegerExample, AllBlocksAndHoverDescriptions) {
  const auto tiles = all_block_tiles(*index, 1, BufferRole::A);
  ASSERT_EQ(tiles.size(), 9u);  // every block loads in every iteration
  std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>> distinct;
  for (const CellRect& r : tiles) {
    EXPECT_EQ(r.col0, 2u);
    EXPECT_EQ(r.col1, 4u);
    distinct.insert({r.row0, r.row1, r.col0, r.col1});
  }
  EXPECT_EQ(distinct.size(), 3u);  // three block rows, each tile shared by three blocks

  const auto c = describe_element(trace, *index, BufferRole::C, 5, 3, 0);
  ASSERT_TRUE(c && c->thread);
  EXPECT_EQ(c->thread->block.x, 1u);
  EXPECT_EQ(c->thread->block.y, 2u);
  EXPECT_EQ(c->value, trace.c[5 * 6 + 3]);
  const auto in_iteration = describe_element(trace, *index, BufferRole::A, 5, 3, 1);
  ASSERT_TRUE(in_iteration);
  EXPECT_EQ(in_iteration->loads_total, 3u);  // once per block column
  EXPECT_EQ(in_iteration->loads_this_iteration, 3u);
  ASSERT_TRUE(in_iteration->thread);
  EXPECT_EQ(in_iteration->thread->thread.x, 1u);  // column 3 is tx = 1 of iteration 1's tile
  const auto other = describe_element(trace, *index, BufferRole::A, 5, 3, 0);
  EXPECT_EQ(other->loads_this_iteration, 0u);
  EXPECT_FALSE(other->thread);
  EXPECT_FALSE(describe_element(trace, *index, BufferRole::B, 6, 0, 0));  // outside B
  EXPECT_FALSE(highlight_cell(trace, *index, 6, 0, mac(0, 0)));     // outside C
}

// ---- every kernel, ragged sizes: highlights agree with the recorded provenance ----

using test::KernelCase;

class ReplayEveryKernel : public ::testing::TestWithParam<KernelCase> {};

TEST_P(ReplayEveryKernel, HighlightsAgreeWithTheRecordedEvents) {
  const KernelCase c = GetParam();
  const Trace t = record_cpu(c.kind, c.tile, c.m, c.n, c.k);
  test::expect_highlights_match_events(t, 3, 2);
}

INSTANTIATE_TEST_SUITE_P(Kernels, ReplayEveryKernel,
                         ::testing::Values(KernelCase{KernelKind::Naive, 4, 9, 7, 10},
                                           KernelCase{KernelKind::NaiveRow, 4, 9, 7, 10},
                                           KernelCase{KernelKind::Tiled, 4, 9, 7, 10},
                                           KernelCase{KernelKind::Tiled, 8, 16, 16, 16},
                                           KernelCase{KernelKind::Coarsened, 2, 9, 11, 7},
                                           KernelCase{KernelKind::TiledTransposed, 4, 9, 7, 10},
                                           KernelCase{KernelKind::TiledPadded, 4, 9, 7, 10}),
                         test::kernel_case_name);

// ---- banks: the transposed B tile conflicts, the padded one does not ----

std::set<std::uint32_t> banks_of_one_warp_at_k(KernelKind kind, std::uint32_t k) {
  const Trace t = record_cpu(kind, 32, 32, 32, 32);
  const TraceIndex index(t);
  std::set<std::uint32_t> banks;
  for (std::uint32_t tx = 0; tx < 32; ++tx) {  // one warp: ty = 0, tx = 0..31
    const auto h = highlight_cell(t, index, 0, tx, mac(0, k));
    EXPECT_TRUE(h && h->bs_now);
    if (h && h->bs_now) banks.insert(bank_of(t.launch, h->bs_now->region, h->bs_now->slot));
  }
  return banks;
}

TEST(ReplayBanks, TransposedTileSendsAWarpToOneBankPaddingSpreadsIt) {
  EXPECT_EQ(banks_of_one_warp_at_k(KernelKind::TiledTransposed, 5).size(), 1u);
  EXPECT_EQ(banks_of_one_warp_at_k(KernelKind::TiledPadded, 5).size(), 32u);
  EXPECT_EQ(banks_of_one_warp_at_k(KernelKind::Tiled, 5).size(), 32u);
}

// ---- partial sums of the whole C ----

TEST(PartialSums, ForwardAndBackwardMatchDoublePrecisionOnIntegers) {
  const Trace t = record_cpu(KernelKind::Tiled, 4, 10, 9, 11, InputKind::SmallIntegers);
  PartialSums sums(t);
  EXPECT_FALSE(sums.fused());
  for (std::uint32_t k_end : {5u, 11u, 2u, 7u, 100u}) {
    const std::vector<float>& got = sums.after(k_end);
    ASSERT_EQ(got.size(), 90u);
    const std::uint32_t kk = std::min(k_end, 11u);
    for (int r = 0; r < 10; ++r)
      for (int c = 0; c < 9; ++c) {
        double expect = 0;
        for (std::uint32_t k = 0; k < kk; ++k) expect += double(t.a[r * 11 + k]) * t.b[k * 9 + c];
        ASSERT_EQ(got[r * 9 + c], expect) << k_end;
      }
  }
}

TEST(PartialSums, AllKsReproduceTheStoredCExactly) {
  const Trace t = record_cpu(KernelKind::Coarsened, 4, 13, 17, 19);
  PartialSums sums(t);
  EXPECT_EQ(sums.after(19), t.c);
}

// A focused trace sums only the traced blocks' cells (N = 4096 steps cost one
// block, not 16 M cells): those equal the full trace's, forward and back; the
// cells of blocks not traced stay NaN.
TEST(PartialSums, AFocusedTraceSumsOnlyItsBlocksCells) {
  RecordParams p;
  p.kernel = KernelKind::Tiled;
  p.tile = 4;
  p.m = 13;
  p.n = 10;
  p.k = 9;
  p.device = DeviceChoice::Cpu;
  p.seed = 11;
  const Trace full = record(p), focused = record_focused(p, {1, 5});  // blocks (1, 0) and (2, 1) of a 3-wide grid
  PartialSums all(full), some(focused);
  for (std::uint32_t k_end : {4u, 9u, 2u, 6u}) {
    const std::vector<float>& want = all.after(k_end);
    const std::vector<float>& got = some.after(k_end);
    int traced = 0;
    for (int r = 0; r < 13; ++r)
      for (int c = 0; c < 10; ++c) {
        const bool in_block = (r < 4 && c >= 4 && c < 8) || (r >= 4 && r < 8 && c >= 8);
        if (in_block) {
          ++traced;
          EXPECT_EQ(got[r * 10 + c], want[r * 10 + c]) << r << "," << c << " after " << k_end;
        } else {
          EXPECT_TRUE(std::isnan(got[r * 10 + c])) << r << "," << c;
        }
      }
    EXPECT_EQ(traced, 16 + 8);  // block (2, 1) is cut at column 10
  }
}

TEST(ReplayLabels, SayWhatRanAndWhoRecordedIt) {
  const Trace t = record_cpu(KernelKind::Tiled, 2, 6, 6, 6);
  EXPECT_EQ(launch_title(t.launch), "tiled  TILE=2  M=6 N=6 K=6");
  const std::string by = recorded_by(t.launch);
  EXPECT_NE(by.find(t.launch.device_name), std::string::npos);
  EXPECT_NE(by.find(t.launch.date), std::string::npos);
}

// A rung has no single TILE: its title says its block, warp and thread tiles
// and its stages; every textbook kernel, at every TILE, keeps TILE=T.
TEST(ReplayLabels, RungTitlesSayTheirTiling) {
  const Trace db = record_cpu(KernelKind::DoubleBuffer, 16, 12, 20, 8);
  EXPECT_EQ(launch_title(db.launch), "double-buffer  block 128x128x16  warp 64x32  thread 8x8  2 stages  M=12 N=20 K=8");
  // The command line prints the tiling alone, between its own words (cmd_record, cmd_stats, ...).
  EXPECT_EQ(tiling_label(db.launch), "block 128x128x16  warp 64x32  thread 8x8  2 stages");
  EXPECT_EQ(tiling_label(record_cpu(KernelKind::Coarsened, 4, 6, 6, 6).launch), "TILE=4");
  const std::pair<KernelKind, const char*> rungs[] = {
      {KernelKind::Blocktile1d, "blocktile-1d  block 64x64x8  thread 8x1  M=64 N=48 K=32"},
      {KernelKind::Blocktile2d, "blocktile-2d  block 128x128x8  thread 8x8  M=64 N=48 K=32"},
      {KernelKind::Vectorized, "vectorized  block 128x128x8  thread 8x8  M=64 N=48 K=32"},
      {KernelKind::Warptile, "warptile  block 128x128x16  warp 64x32  thread 8x8  M=64 N=48 K=32"},
      {KernelKind::Tf32TensorCore, "tf32-tensor-core  block 64x64x16  warp 32x32  thread 4x8  3 stages  M=64 N=48 K=32"}};
  for (const auto& [kind, title] : rungs) {
    LaunchInfo L;
    L.kernel = kernel_info(kind).name;
    L.tile = rung_config(kind).bk;  // as the recorder sets it: the rung's k-step
    L.m = 64, L.n = 48, L.k = 32;
    L.tiling = kernel_tiling(kind, 16);
    EXPECT_EQ(launch_title(L), title);
  }
  for (KernelKind kind : kAllKernels)
    for (int tile : kAllTiles) {
      LaunchInfo L;
      L.kernel = kernel_info(kind).name;
      L.tile = tile;
      L.m = L.n = L.k = 64;
      L.tiling = kernel_tiling(kind, tile);
      EXPECT_EQ(launch_title(L), L.kernel + "  TILE=" + std::to_string(tile) + "  M=64 N=64 K=64");
    }
  // A user kernel's launch, or a file written before tilings: zeros, TILE=T.
  LaunchInfo old;
  old.kernel = "my_gemm";
  old.tile = 8;
  old.m = 5, old.n = 6, old.k = 7;
  EXPECT_EQ(launch_title(old), "my_gemm  TILE=8  M=5 N=6 K=7");
  EXPECT_EQ(tiling_label(old), "TILE=8");
}

}  // namespace
}  // namespace ts
