// Focused traces (kernels/focused.h): the chosen blocks' events equal a full
// trace's for those blocks, the rest have none, the file keeps which blocks
// are traced, and the index, stats and replay take such a trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "app/core/analysis/memory_stats.h"
#include "app/core/block_selection.h"
#include "app/core/replay.h"
#include "app/core/stats.h"
#include "app/core/trace_file.h"
#include "app/core/trace_index.h"
#include "kernels/focused.h"
#include "tests/kernels/kernel_cases.h"
#include "tests/kernels/refusal.h"

namespace ts {
namespace {

bool same_event(const Event& a, const Event& b) {
  return a.index == b.index && a.value == b.value && a.epoch == b.epoch && a.iter == b.iter && a.array == b.array &&
         a.flags == b.flags;
}

TEST(BlockSelection, ParsesCoordinatesRowsColumnsAndWaves) {
  const Dim3 grid{4, 3, 1};
  EXPECT_EQ(parse_block_selection("1,2;0,0;1,2", grid, 0).blocks, (std::vector<std::uint32_t>{0, 9}));
  EXPECT_EQ(parse_block_selection("row:1", grid, 0).blocks, (std::vector<std::uint32_t>{4, 5, 6, 7}));
  EXPECT_EQ(parse_block_selection("col:3", grid, 0).blocks, (std::vector<std::uint32_t>{3, 7, 11}));
  EXPECT_EQ(parse_block_selection("wave:2", grid, 5).blocks, (std::vector<std::uint32_t>{10, 11}));
  for (const char* bad : {"", "1", "4,0", "0,3", "row:3", "col:-1", "wave:0", "x,y", "1,1;"})
    EXPECT_FALSE(parse_block_selection(bad, grid, 0).error.empty()) << bad;
  EXPECT_FALSE(parse_block_selection("wave:3", grid, 5).error.empty());
  EXPECT_EQ(blocks_sharing_tiles(grid, 1, 2), (std::vector<std::uint32_t>{1, 5, 8, 9, 10, 11}));
}

class Focused : public ::testing::TestWithParam<test::KernelCase> {};

TEST_P(Focused, ChosenBlocksEqualTheFullTrace) {
  const test::KernelCase c = GetParam();
  const Trace full = record(c.params(DeviceChoice::Cpu));
  RecordParams p = c.params(DeviceChoice::Cpu, full.launch.seed);
  const std::uint32_t blocks = static_cast<std::uint32_t>(full.launch.grid.count());
  const std::vector<std::uint32_t> chosen = blocks > 2 ? std::vector<std::uint32_t>{1, blocks - 1}
                                                       : std::vector<std::uint32_t>{blocks - 1};
  const Trace focused = record_focused(p, chosen);
  ASSERT_EQ(focused.launch.traced_blocks, chosen);
  ASSERT_EQ(focused.thread_count(), full.thread_count());
  const std::uint32_t per = full.launch.threads_per_block();
  for (std::uint64_t th = 0; th < full.thread_count(); ++th) {
    const auto got = focused.thread_events(th);
    if (!focused.launch.block_traced(static_cast<std::uint32_t>(th / per))) {
      ASSERT_TRUE(got.empty()) << "thread " << th;
      continue;
    }
    const auto want = full.thread_events(th);
    ASSERT_EQ(got.size(), want.size()) << "thread " << th;
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_TRUE(same_event(got[i], want[i])) << "thread " << th;
  }
  for (std::uint32_t b : chosen) {
    EXPECT_EQ(memory_counters_json(analyze_block(focused, b)), memory_counters_json(analyze_block(full, b)));
  }
  // The consumers: both file versions keep the traced blocks; index, stats and replay run.
  const auto path = std::filesystem::temp_directory_path() / ("focused_" + std::to_string(::getpid()) + ".tstrace");
  // Version 1 holds 4-byte synchronous accesses only (not the rungs' vector and cp.async ones).
  const bool fits_version_1 = std::all_of(focused.events.span().begin(), focused.events.span().end(),
                                          [](const Event& e) { return e.width == 0 && !e.async; });
  if (fits_version_1) {
    save_trace(focused, path, 1);
    EXPECT_EQ(load_trace(path).launch.traced_blocks, chosen);
  }
  save_trace(focused, path);
  const Trace loaded = load_trace(path);
  std::filesystem::remove(path);
  EXPECT_EQ(loaded.launch.traced_blocks, chosen);
  EXPECT_EQ(loaded.events.size(), focused.events.size());
  const TraceIndex index(loaded);
  const nlohmann::json stats = stats_to_json(loaded, compute_stats(loaded, index));
  EXPECT_EQ(stats["launch"]["traced_blocks"], nlohmann::json(chosen));
  EXPECT_EQ(stats["events"].get<std::uint64_t>(), focused.events.size());
  // Its FLOPs and minimum bytes are the chosen blocks' own, as its bytes loaded
  // are: counted here from the full trace's events of those blocks.
  std::set<std::uint32_t> a_read, b_read;
  std::uint64_t c_cells = 0, loads = 0;
  for (std::uint64_t th = 0; th < full.thread_count(); ++th) {
    if (!focused.launch.block_traced(static_cast<std::uint32_t>(th / per))) continue;
    for (const Event& e : full.thread_events(th)) {
      if (e.space() != Space::Global) continue;
      if (e.op() == Op::Store) {
        ++c_cells;
      } else {
        ++loads;
        (e.array_id() == ArrayId::A ? a_read : b_read).insert(e.index);
      }
    }
  }
  const std::uint64_t k = static_cast<std::uint64_t>(full.launch.k);
  EXPECT_EQ(stats["flops"].get<std::uint64_t>(), 2 * k * c_cells);
  EXPECT_EQ(stats["min_bytes"].get<std::uint64_t>(), (a_read.size() + b_read.size() + c_cells) * 4);
  EXPECT_EQ(stats["global_bytes_loaded"].get<std::uint64_t>(), loads * 4);
  EXPECT_DOUBLE_EQ(stats["arithmetic_intensity"].get<double>(), double(2 * k * c_cells) / double(loads * 4));
  const ReplayTimeline timeline(loaded.launch);
  // A cell of a traced block has its writer; a cell of an untraced one has none (and no crash).
  for (std::uint32_t step : {0u, timeline.last_step()}) {
    for (std::uint32_t r = 0; r < static_cast<std::uint32_t>(loaded.launch.m); r += 7)
      for (std::uint32_t col = 0; col < static_cast<std::uint32_t>(loaded.launch.n); col += 5) {
        const auto h = highlight_cell(loaded, index, r, col, timeline.at(step));
        if (h) {
          EXPECT_TRUE(loaded.launch.block_traced(h->coord.block_linear));
        }
      }
  }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, Focused,
                         ::testing::ValuesIn(test::kernel_cases({8, 16}, {{64, 64, 64}, {37, 29, 45}})),
                         test::kernel_case_name);
// The rungs, ragged and non-square: tf32-tensor-core's 3 x 5 blocks run in its
// swizzled order, so block 1 computes C's second block row, first column.
INSTANTIATE_TEST_SUITE_P(Rungs, Focused, ::testing::ValuesIn(test::rung_cases({{130, 260, 44}})),
                         test::kernel_case_name);

TEST(Focused, OneBlockPastTheFullTraceLimit) {
  RecordParams p = test::record_params(DeviceChoice::Cpu, KernelKind::Tiled, 16, 1024, 1024, 1024);
  EXPECT_THROW(validate([&] { RecordParams q = p; q.event_limit = 100'000'000; return q; }()), RecordError);
  p.event_limit = 100'000'000;  // 1.2 GB: far below the full trace's 17 G events
  const Trace t = record_focused(p, {4095});
  EXPECT_EQ(t.launch.traced_blocks, std::vector<std::uint32_t>{4095});
  EXPECT_EQ(t.events.size(), expected_counts(p.kernel, p.tile, p.m, p.n, p.k).total() / 4096);
}

TEST(Focused, RefusesBadBlocks) {
  const RecordParams p = test::record_params(DeviceChoice::Cpu, KernelKind::Tiled, 16, 64, 64, 64);
  EXPECT_THROW(record_focused(p, {}), RecordError);
  EXPECT_THROW(record_focused(p, {16}), RecordError);
  EXPECT_THROW(record_focused(p, {3, 1}), RecordError);
}

// A focused trace is held to what the loader takes, as a full one is: a grid
// CUDA launches (naive TILE 2 at M = 140000: grid.y = 70000, one block of 4
// threads to trace) and matrices the kernels' int index reaches (C of 70000 x 70000).
std::string focused_refusal(const RecordParams& p) {
  return test::refusal_message([&] { record_focused(p, {0}); }, RecordError::Kind::TooLarge);
}

TEST(Focused, RefusesWhatTheLoaderWouldRefuse) {
  const std::string grid = focused_refusal(test::record_params(DeviceChoice::Cpu, KernelKind::Naive, 2, 140000, 1, 1));
  ASSERT_NE(grid.find("1 x 70000 x 1 blocks; CUDA allows at most"), std::string::npos) << grid;
  const std::string c =
      focused_refusal(test::record_params(DeviceChoice::Cpu, KernelKind::Blocktile2d, 16, 70000, 70000, 4));
  EXPECT_NE(c.find("C (M x N) would have 4900000000 elements"), std::string::npos) << c;
}

}  // namespace
}  // namespace ts
