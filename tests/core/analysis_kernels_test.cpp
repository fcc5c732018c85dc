// Whole-kernel expectations: the textbook coalescing and bank-conflict
// behaviour of each kernel, in closed form, and every kernel against a
// brute-force count.
#include <gtest/gtest.h>

#include "app/core/analysis/memory_stats.h"
#include "kernels/catalog.h"
#include "tests/core/analysis_test_support.h"

namespace ts {
namespace {

const AccessTotals& of(const MemoryStats& s, ArrayId a, Op op) { return s.by_array[static_cast<int>(a)][static_cast<int>(op)]; }

TEST(AnalysisKernels, NaiveRowIsUncoalescedAndNaiveIsCoalesced) {
  constexpr int n = 64;
  const MemoryStats naive = analyze_memory(test::square_trace(KernelKind::Naive, 32, n));
  const MemoryStats row = analyze_memory(test::square_trace(KernelKind::NaiveRow, 32, n));
  const std::uint64_t warps = n * n / 32;
  for (const MemoryStats* s : {&naive, &row}) {
    EXPECT_EQ(of(*s, ArrayId::A, Op::Load).requests, warps * n);  // one per k per warp
    EXPECT_EQ(of(*s, ArrayId::B, Op::Load).requests, warps * n);
    EXPECT_EQ(of(*s, ArrayId::C, Op::Store).requests, warps);
  }
  // naive: a warp is 32 columns of one row: A[row][k] is one float for all
  // lanes (1 sector), B[k][col..col+31] and C one line (4 sectors).
  EXPECT_EQ(of(naive, ArrayId::A, Op::Load).sectors, warps * n * 1);
  EXPECT_EQ(of(naive, ArrayId::B, Op::Load).sectors, warps * n * 4);
  EXPECT_EQ(of(naive, ArrayId::C, Op::Store).sectors, warps * 4);
  EXPECT_EQ(of(naive, ArrayId::B, Op::Load).histogram[4], warps * n);
  // naive-row: a warp is 32 rows of one column: A and C a row apart (32 sectors).
  EXPECT_EQ(of(row, ArrayId::A, Op::Load).sectors, warps * n * 32);
  EXPECT_EQ(of(row, ArrayId::A, Op::Load).lines, warps * n * 32);
  EXPECT_EQ(of(row, ArrayId::B, Op::Load).sectors, warps * n * 1);
  EXPECT_EQ(of(row, ArrayId::C, Op::Store).sectors, warps * 32);
  EXPECT_EQ(of(row, ArrayId::A, Op::Load).max_per_request(), 32u);
  EXPECT_DOUBLE_EQ(row.total(Space::Global, Op::Store).per_request(), 32.0);
  EXPECT_DOUBLE_EQ(naive.total(Space::Global, Op::Store).per_request(), 4.0);
}

TEST(AnalysisKernels, TransposedTileOf32Is32WayAndPaddingRemovesIt) {
  constexpr int n = 64, tile = 32;
  const MemoryStats transposed = analyze_memory(test::square_trace(KernelKind::TiledTransposed, tile, n));
  const MemoryStats padded = analyze_memory(test::square_trace(KernelKind::TiledPadded, tile, n));
  const std::uint64_t warps = n * n / 32, iterations = n / tile;
  // Bs[tx][ty] = ... and Bs[tx][k]: the 32 lanes differ in tx, a whole row of
  // Bs apart: 32 words in one bank, 32 wavefronts per request.
  const AccessTotals& bs_load = of(transposed, ArrayId::Bs, Op::Load);
  EXPECT_EQ(bs_load.requests, warps * iterations * tile);
  EXPECT_EQ(bs_load.histogram[32], bs_load.requests);
  EXPECT_EQ(bs_load.wavefronts, bs_load.requests * 32);
  EXPECT_EQ(bs_load.bank_conflicts, bs_load.requests * 31);
  const AccessTotals& bs_store = of(transposed, ArrayId::Bs, Op::Store);
  EXPECT_EQ(bs_store.requests, warps * iterations);
  EXPECT_EQ(bs_store.bank_conflicts, bs_store.requests * 31);
  // As[ty][k]: one word for the whole warp, a broadcast.
  EXPECT_EQ(of(transposed, ArrayId::As, Op::Load).bank_conflicts, 0u);
  EXPECT_EQ(of(transposed, ArrayId::As, Op::Load).broadcast_lanes, warps * iterations * tile * 32);
  // Padded: the row stride is 33 words, every lane its own bank.
  EXPECT_EQ(padded.total(Space::Shared, Op::Load).bank_conflicts, 0u);
  EXPECT_EQ(padded.total(Space::Shared, Op::Store).bank_conflicts, 0u);
  EXPECT_EQ(padded.total(Space::Shared, Op::Load).wavefronts, padded.total(Space::Shared, Op::Load).requests);
  EXPECT_EQ(padded.total(Space::Shared, Op::Load).requests, transposed.total(Space::Shared, Op::Load).requests);
}

TEST(AnalysisKernels, TiledSixteenReadsTwoHalfRowsPerRequest) {
  constexpr int n = 64, tile = 16;
  const MemoryStats s = analyze_memory(test::square_trace(KernelKind::Tiled, tile, n));
  const std::uint64_t warps = n * n / 32, iterations = n / tile;
  // A warp is rows ty, ty + 1 of the block: two runs of 16 floats (64 bytes,
  // aligned): 4 sectors in 2 lines per global request.
  const AccessTotals gl = s.total(Space::Global, Op::Load);
  EXPECT_EQ(gl.requests, warps * iterations * 2);
  EXPECT_EQ(gl.sectors, gl.requests * 4);
  EXPECT_EQ(gl.lines, gl.requests * 2);
  EXPECT_EQ(s.total(Space::Shared, Op::Load).requests, warps * iterations * tile * 2);
  EXPECT_EQ(s.total(Space::Shared, Op::Load).bank_conflicts, 0u);
  EXPECT_EQ(s.total(Space::Shared, Op::Store).requests, warps * iterations * 2);
}

TEST(AnalysisKernels, TransposedTileOf16IsEightWay) {
  // Bs[tx][ty] with TILE = 16: word tx * 16 + ty; lanes with even tx share a
  // bank, odd tx the bank 16 further: 8 distinct words per bank.
  const MemoryStats s = analyze_memory(test::square_trace(KernelKind::TiledTransposed, 16, 32));
  EXPECT_EQ(of(s, ArrayId::Bs, Op::Store).histogram[8], of(s, ArrayId::Bs, Op::Store).requests);
  EXPECT_EQ(of(s, ArrayId::Bs, Op::Load).histogram[8], of(s, ArrayId::Bs, Op::Load).requests);
}

void expect_matches_brute_force(const Trace& t) {
  const MemoryStats s = analyze_memory(t, 2);
  const test::BruteForceTotals b = test::brute_force_totals(t);
  for (Space space : {Space::Global, Space::Shared})
    for (Op op : {Op::Load, Op::Store}) {
      const AccessTotals got = s.total(space, op);
      const auto kind = std::make_pair(space, op);
      EXPECT_EQ(got.requests, b.requests.count(kind) ? b.requests.at(kind) : 0) << space_name(space) << op_name(op);
      const auto& expected = space == Space::Global ? b.sectors : b.wavefronts;
      EXPECT_EQ(got.sectors + got.wavefronts, expected.count(kind) ? expected.at(kind) : 0);
    }
  EXPECT_EQ(s.alignment.unresolved_lanes, 0u);
}

TEST(AnalysisKernels, EveryKernelAndTileMatchesABruteForceCount) {
  for (KernelKind kind : kAllKernels)
    for (int tile : kAllTiles) {
      SCOPED_TRACE(std::string(kernel_info(kind).name) + " TILE " + std::to_string(tile));
      expect_matches_brute_force(test::square_trace(kind, tile, 32));
    }
}

TEST(AnalysisKernels, RaggedSizesMatchABruteForceCount) {
  // Lanes switched off at the edges, each making none of an access or all of
  // them (the coarsened kernel, whose lanes skip some of several, is tested
  // with the alignment).
  for (KernelKind kind : kAllKernels) {
    if (kind == KernelKind::Coarsened) continue;
    for (int tile : {4, 8, 16}) {
      SCOPED_TRACE(std::string(kernel_info(kind).name) + " TILE " + std::to_string(tile));
      expect_matches_brute_force(test::small_trace(kind, tile, 37, 45, 29));
    }
  }
}

TEST(AnalysisKernels, WorkersDoNotChangeTheCounts) {
  const Trace t = test::small_trace(KernelKind::Coarsened, 4, 37, 45, 29);
  const nlohmann::json one = memory_counters_json(analyze_memory(t, 1));
  EXPECT_EQ(memory_counters_json(analyze_memory(t, 3)), one);
  EXPECT_EQ(memory_counters_json(analyze_memory(t, 64)), one);
}

TEST(AnalysisKernels, BlocksAndStepsAddUpToTheWhole) {
  const Trace t = test::small_trace(KernelKind::Tiled, 8, 20, 24, 19);
  const MemoryStats whole = analyze_memory(t);
  MemoryStats by_block, by_step;
  for (std::uint32_t b = 0; b < t.launch.grid.count(); ++b) {
    by_block.add(analyze_block(t, b));
    for (std::uint32_t step = 0; step <= t.launch.iteration_rule.iterations; ++step)
      by_step.add(analyze_block(t, b, step));
  }
  EXPECT_EQ(memory_counters_json(by_block), memory_counters_json(whole));
  EXPECT_EQ(memory_counters_json(by_step), memory_counters_json(whole));
  MemoryStats by_warp;
  for (std::uint32_t w = 0; w < warps_per_block(t.launch); ++w) by_warp.add(analyze_warp(t, 0, w));
  EXPECT_EQ(memory_counters_json(by_warp), memory_counters_json(analyze_block(t, 0)));
  // Out of range: nothing, no crash.
  EXPECT_EQ(analyze_block(t, 1u << 30).total(Space::Global, Op::Load).requests, 0u);
  EXPECT_EQ(analyze_warp(t, 0, 99).total(Space::Global, Op::Load).requests, 0u);
}

}  // namespace
}  // namespace ts
