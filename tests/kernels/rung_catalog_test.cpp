// The ladder's recorded rungs in the catalog: fixed configurations that ignore
// TILE, sizes refused up front with the rule, the tiling the launch carries,
// the ladder's order, and the register tile of a thread read back from its
// events alone (which cells of C it owns, which shared values enter its
// registers at each k).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "trace/launch_json.h"
#include "kernels/catalog.h"
#include "kernels/recorder.h"
#include "tests/core/trace_test_support.h"

namespace ts {
namespace {

TEST(Rungs, IgnoreTileAndCarryTheirTiling) {
  for (KernelKind kind : kRungKernels) {
    RecordParams p = test::record_params(DeviceChoice::Cpu, kind, 3, 20, 24, 12);  // TILE 3: no TILE family takes it
    EXPECT_NO_THROW(validate(p)) << kernel_info(kind).name;
    const Trace t = record(p);
    const RungConfig c = rung_config(kind);
    EXPECT_EQ(t.launch.block.count(), std::uint64_t(c.threads));
    EXPECT_EQ(t.launch.tiling.block_m, std::uint32_t(c.bm));
    EXPECT_EQ(t.launch.tiling.thread_n, std::uint32_t(c.tn));
    EXPECT_EQ(t.launch.iteration_rule.tile, std::uint32_t(c.bk));
    // The launch JSON (files, stats, the app) carries the tiling and reads it back.
    EXPECT_EQ(launch_from_json(launch_to_json(t.launch)).tiling, t.launch.tiling);
  }
}

TEST(Rungs, RefusedSizesNameTheRule) {
  for (KernelKind kind : kRungKernels) {
    RecordParams p = test::record_params(DeviceChoice::Cpu, kind, 16, 0, 8, 8);
    EXPECT_THROW(validate(p), RecordError);
    const int multiple = rung_config(kind).multiple_of;
    if (multiple == 1) {
      EXPECT_EQ(size_refusal(kind, 37, 29, 45), "");
      continue;
    }
    const std::string why = size_refusal(kind, 64, 64, 30);
    EXPECT_NE(why.find("multiples of " + std::to_string(multiple)), std::string::npos) << why;
    p = test::record_params(DeviceChoice::Cpu, kind, 16, 64, 62, 64);
    EXPECT_THROW(validate(p), RecordError);
  }
}

TEST(Rungs, LadderListsEveryRungInOrder) {
  const auto rungs = ladder_rungs();
  ASSERT_GE(rungs.size(), std::size(kRungKernels) + 1);
  std::set<std::string_view> names;
  for (const LadderRung& r : rungs) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_NE(r.title, "");
    EXPECT_NE(r.summary, "");
    if (r.kind) {
      EXPECT_EQ(kernel_info(*r.kind).name, r.name);
      EXPECT_EQ(r.benchmark_only, "");
    } else {
      EXPECT_NE(r.benchmark_only, "") << r.name << " says why it is benchmark-only";
    }
  }
  for (KernelKind kind : kRungKernels) EXPECT_TRUE(names.count(kernel_info(kind).name));
  EXPECT_EQ(rungs.back().name, "tf32-wgmma");
  EXPECT_FALSE(rungs.back().kind.has_value());
  EXPECT_NE(rungs.back().benchmark_only.find("GPU-only"), std::string_view::npos);
}

// blocktile-2d: thread t's C stores are its TM x TN patch, and per k of every
// k-tile it reads TM values of column k of As (regM) then TN of row k of Bs (regN).
TEST(Rungs, RegisterTileFollowsFromTheEvents) {
  const Trace t = test::record_on(DeviceChoice::Cpu, KernelKind::Blocktile2d, 0, 128, 128, 16);
  const Tiling& tl = t.launch.tiling;
  const std::uint32_t per_row = tl.block_n / tl.thread_n;
  for (std::uint64_t th : {0ull, 1ull, 17ull, 255ull}) {
    const std::uint32_t row0 = std::uint32_t(th / per_row) * tl.thread_m, col0 = std::uint32_t(th % per_row) * tl.thread_n;
    std::set<std::pair<std::uint32_t, std::uint32_t>> cells;
    std::vector<Event> shared_reads;
    for (const Event& e : t.thread_events(th)) {
      if (e.array_id() == ArrayId::C) cells.insert({e.index / 128, e.index % 128});
      if (e.space() == Space::Shared && e.op() == Op::Load) shared_reads.push_back(e);
    }
    ASSERT_EQ(cells.size(), std::size_t(tl.thread_m) * tl.thread_n);
    for (std::uint32_t i = 0; i < tl.thread_m; ++i)
      for (std::uint32_t j = 0; j < tl.thread_n; ++j) EXPECT_TRUE(cells.count({row0 + i, col0 + j}));
    const std::uint32_t per_k = tl.thread_m + tl.thread_n;
    ASSERT_EQ(shared_reads.size(), std::size_t(2) * tl.block_k * per_k);
    for (std::size_t s = 0; s < shared_reads.size(); ++s) {
      const std::uint32_t k = std::uint32_t(s / per_k) % tl.block_k, slot = std::uint32_t(s % per_k);
      const Event& e = shared_reads[s];
      if (slot < tl.thread_m) {  // regM[slot] = As[row0 + slot][k]
        EXPECT_EQ(e.array_id(), ArrayId::As);
        EXPECT_EQ(e.index, (row0 + slot) * tl.block_k + k);
      } else {  // regN[slot - TM] = Bs[k][col0 + slot - TM]
        EXPECT_EQ(e.array_id(), ArrayId::Bs);
        EXPECT_EQ(e.index, k * tl.block_n + col0 + slot - tl.thread_m);
      }
      EXPECT_EQ(e.iter, s / (tl.block_k * per_k));
    }
  }
}

// Every kind's blocks store exactly the cells of the block tile the catalog
// places them at (block_tile_of), and block_of_cell finds the writer of every
// cell: for the 2D grids and for tf32-tensor-core's one-dimensional grid in
// groups of 2 block rows (4 rows: two whole groups; 3 rows: the last group
// one row high).
TEST(BlockTiles, EachBlockStoresTheTileTheCatalogPlacesItAt) {
  struct Case {
    KernelKind kind;
    int tile, m, n, k;
  };
  const Case cases[] = {{KernelKind::Tf32TensorCore, 0, 200, 132, 8},  {KernelKind::Tf32TensorCore, 0, 130, 260, 4},
                        {KernelKind::Tf32TensorCore, 0, 64, 64, 4},    {KernelKind::Tiled, 8, 20, 36, 8},
                        {KernelKind::NaiveRow, 4, 9, 14, 3},           {KernelKind::Coarsened, 4, 17, 30, 5},
                        {KernelKind::DoubleBuffer, 0, 132, 260, 4},    {KernelKind::Blocktile1d, 0, 70, 130, 3}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(kernel_info(c.kind).name) + " " + std::to_string(c.m) + "x" + std::to_string(c.n));
    const Trace t = test::record_on(DeviceChoice::Cpu, c.kind, c.tile, c.m, c.n, c.k);
    const Tiling tl = t.launch.tiling.block_m ? t.launch.tiling : kernel_tiling(c.kind, c.tile);
    const std::uint32_t per_block = t.launch.threads_per_block();
    std::set<std::pair<std::uint32_t, std::uint32_t>> tiles_seen;
    for (std::uint32_t block = 0; block < t.launch.grid.count(); ++block) {
      const BlockTile at = block_tile_of(c.kind, c.tile, c.m, c.n, block);
      EXPECT_TRUE(tiles_seen.insert({at.row, at.col}).second) << "two blocks at tile " << at.row << "," << at.col;
      std::uint64_t stored = 0;
      for (std::uint64_t th = std::uint64_t{block} * per_block; th < std::uint64_t{block + 1} * per_block; ++th)
        for (const Event& e : t.thread_events(th)) {
          if (e.array_id() != ArrayId::C) continue;
          const std::uint32_t row = e.index / std::uint32_t(c.n), col = e.index % std::uint32_t(c.n);
          ASSERT_EQ(row / tl.block_m, at.row) << "block " << block << " stored C[" << row << "][" << col << "]";
          ASSERT_EQ(col / tl.block_n, at.col) << "block " << block << " stored C[" << row << "][" << col << "]";
          ASSERT_EQ(block_of_cell(c.kind, c.tile, c.m, c.n, row, col), block);
          ++stored;
        }
      // The whole tile, clipped to C.
      const std::uint64_t rows = std::min<std::uint64_t>(tl.block_m, c.m - at.row * tl.block_m);
      const std::uint64_t cols = std::min<std::uint64_t>(tl.block_n, c.n - at.col * tl.block_n);
      EXPECT_EQ(stored, rows * cols) << "block " << block;
    }
  }
}

TEST(BlockTiles, Tf32TensorCoreWalksDownGroupsOfTwoBlockRows) {
  // 4 x 3 tiles of 64 x 64: blocks 0..5 cover block rows 0-1 column by column, 6..11 rows 2-3.
  const BlockTile want[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2},
                            {2, 0}, {3, 0}, {2, 1}, {3, 1}, {2, 2}, {3, 2}};
  const LaunchShape s = launch_shape(KernelKind::Tf32TensorCore, 0, 256, 192);
  EXPECT_EQ(s.grid, (Dim3{12, 1, 1}));
  for (std::uint32_t b = 0; b < 12; ++b) EXPECT_EQ(block_tile_of(KernelKind::Tf32TensorCore, 0, 256, 192, b), want[b]) << b;
  // 3 block rows: the last group is one row high, its blocks run along it.
  EXPECT_EQ(block_tile_of(KernelKind::Tf32TensorCore, 0, 130, 192, 6), (BlockTile{2, 0}));
  EXPECT_EQ(block_tile_of(KernelKind::Tf32TensorCore, 0, 130, 192, 8), (BlockTile{2, 2}));
  EXPECT_EQ(block_of_cell(KernelKind::Tf32TensorCore, 0, 130, 192, 129, 191), 8u);
  EXPECT_EQ(block_of_cell(KernelKind::Tf32TensorCore, 0, 130, 192, 999, 999), 8u) << "past C: the last tile";
  // The blocks that load block 3's tiles of A (block row 1) and of B (block column 1).
  EXPECT_EQ(blocks_sharing_tiles_of(KernelKind::Tf32TensorCore, 0, 256, 192, 3),
            (std::vector<std::uint32_t>{1, 2, 3, 5, 8, 9}));
  // A 2D grid: the same as the grid's own rows and columns.
  EXPECT_EQ(blocks_sharing_tiles_of(KernelKind::Tiled, 16, 48, 64, 6), (std::vector<std::uint32_t>{2, 4, 5, 6, 7, 10}));
}

// tf32-tensor-core: lane l of warp w stores the cells its mma accumulators hold
// (kernels/api/mma.h's c layout) in every 16 x 8 tile of its warp tile: rows
// group + 8 h + 16 i, columns 2 quad + c + 8 j, TM x TN = 4 x 8 of them; per
// k-step of 8 it reads 4 A elements per tile row of its warp (one 16-byte
// fragment) and 2 B elements per tile column, flagged as fragment elements.
TEST(Rungs, Tf32LanesHoldTheirMmaFragments) {
  const Trace t = test::record_on(DeviceChoice::Cpu, KernelKind::Tf32TensorCore, 0, 64, 64, 16);
  const Tiling& tl = t.launch.tiling;
  ASSERT_EQ(tl.thread_m * tl.thread_n, tl.warp_m * tl.warp_n / 32);
  const std::uint32_t warps_n = tl.block_n / tl.warp_n;
  for (std::uint64_t th : {0ull, 5ull, 38ull, 127ull}) {
    const std::uint32_t lane = th % 32, warp = static_cast<std::uint32_t>(th / 32);
    const std::uint32_t row0 = warp / warps_n * tl.warp_m, col0 = warp % warps_n * tl.warp_n;
    std::set<std::pair<std::uint32_t, std::uint32_t>> cells, want;
    for (std::uint32_t i = 0; i < tl.warp_m / 16; ++i)
      for (std::uint32_t h = 0; h < 2; ++h)
        for (std::uint32_t j = 0; j < tl.warp_n / 8; ++j)
          for (std::uint32_t c = 0; c < 2; ++c) want.insert({row0 + 16 * i + lane / 4 + 8 * h, col0 + 8 * j + 2 * (lane % 4) + c});
    std::uint64_t a_fragments = 0, b_elements = 0;
    for (const Event& e : t.thread_events(th)) {
      if (e.array_id() == ArrayId::C) cells.insert({e.index / 64, e.index % 64});
      if (e.is_fragment() && e.array_id() == ArrayId::As) a_fragments += !e.continues_fragment();
      if (e.is_fragment() && e.array_id() == ArrayId::Bs) ++b_elements;
    }
    EXPECT_EQ(cells, want) << "thread " << th;
    EXPECT_EQ(cells.size(), std::size_t(tl.thread_m) * tl.thread_n);
    const std::uint64_t ksteps = tl.block_k / 8;
    EXPECT_EQ(a_fragments, ksteps * (tl.warp_m / 16));
    EXPECT_EQ(b_elements, ksteps * (tl.warp_n / 8) * 2);
  }
}

}  // namespace
}  // namespace ts
