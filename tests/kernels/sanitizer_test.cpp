// The emulator's checks (`record --check`): each planted bug (planted_bugs.h)
// is reported with its thread, block, array, element and source line; the
// project's kernels have no findings at ragged sizes; every event of the
// emulator's trace carries the line of its subscript.
// clang-format off
#include "kernels/emu/mode_emulator.h"
#include "kernels/tiled.h"
#include "tests/kernels/planted_bugs.h"
// clang-format on

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "kernels/catalog.h"
#include "kernels/emu/emulator.h"
#include "kernels/recorder.h"

namespace ts::emu {
namespace {

// The line of `path` (under the source tree) that holds `marker`; 0 if none.
std::uint32_t line_of(const std::string& path, const std::string& marker) {
  std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/" + path);
  std::string text;
  for (std::uint32_t n = 1; std::getline(in, text); ++n)
    if (text.find(marker) != std::string::npos) return n;
  return 0;
}
std::uint32_t planted_line(const std::string& marker) { return line_of("tests/kernels/planted_bugs.h", marker); }

// A launch shaped like the tiled kernel's (TILE x TILE blocks, As and Bs tiles).
Trace tiled_launch(int tile, int m, int n, int k) {
  RecordParams p;
  p.kernel = KernelKind::Tiled;
  p.tile = tile;
  p.m = m;
  p.n = n;
  p.k = k;
  p.seed = 7;
  return prepare_launch(p);
}

template <int TILE, auto KERNEL>
void entry(const KernelArgs& p) {
  KERNEL(InMatrix{p.a, ArrayId::A}, InMatrix{p.b, ArrayId::B}, OutMatrix{p.c, ArrayId::C}, p.m, p.n, p.k);
}

CheckReport run_checked(KernelEntry kernel, Trace& t, CheckMode mode) {
  LaunchOptions o;
  o.workers = 1;
  o.check.mode = mode;
  return record_launch_with(kernel, t, o);
}

TEST(Sanitizer, AMissingBarrierIsARace) {
  Trace t = tiled_launch(4, 8, 8, 8);
  const CheckReport r = run_checked(&entry<4, planted_missing_barrier<4>>, t, CheckMode::Stop);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_TRUE(r.stopped);
  EXPECT_TRUE(t.thread_offsets.empty()) << "a run stopped at a finding records nothing";
  const Finding& f = r.findings[0];
  EXPECT_EQ(f.kind, FindingKind::Race);
  EXPECT_EQ(f.block, (Dim3{0, 0, 0}));
  // Thread (1,0) reads As[0][0], which thread (0,0) overwrote for the next tile.
  EXPECT_EQ(f.at.thread, (Dim3{1, 0, 0}));
  EXPECT_FALSE(f.at.store);
  EXPECT_EQ(f.at.line, planted_line("// [race-load]"));
  EXPECT_EQ(f.other.thread, (Dim3{0, 0, 0}));
  EXPECT_TRUE(f.other.store);
  EXPECT_EQ(f.other.line, planted_line("// [race-store]"));
  EXPECT_EQ(f.array, ArrayId::As);
  EXPECT_EQ(f.row, 0);
  EXPECT_EQ(f.col, 0);
  EXPECT_TRUE(f.same_warp);
  EXPECT_NE(f.text.find("race: thread (1,0) of block (0,0) reads As[0][0] at line"), std::string::npos) << f.text;
}

TEST(Sanitizer, AMissingBoundsCheckReadsPastB) {
  Trace t = tiled_launch(4, 6, 6, 6);
  const CheckReport r = run_checked(&entry<4, planted_no_bounds_check<4>>, t, CheckMode::Stop);
  ASSERT_EQ(r.findings.size(), 1u);
  const Finding& f = r.findings[0];
  EXPECT_EQ(f.kind, FindingKind::OutOfBounds);
  EXPECT_EQ(f.block, (Dim3{0, 0, 0}));
  EXPECT_EQ(f.at.thread, (Dim3{0, 2, 0}));  // the second tile's row 6 of a 6-row B
  EXPECT_EQ(f.array, ArrayId::B);
  EXPECT_EQ(f.row, 36);
  EXPECT_EQ(f.at.line, planted_line("// [oob-load]"));
  EXPECT_FALSE(f.at.store);
  EXPECT_NE(f.text.find("B has 36 elements, 6 x 6"), std::string::npos) << f.text;
}

TEST(Sanitizer, ContinueRecordsTheLaunchAndCountsEveryFinding) {
  Trace t = tiled_launch(4, 6, 6, 6);
  LaunchOptions o;
  o.workers = 2;
  o.check.mode = CheckMode::Continue;
  o.check.cap = 3;
  const CheckReport r = record_launch_with(&entry<4, planted_no_bounds_check<4>>, t, o);
  EXPECT_FALSE(r.stopped);
  EXPECT_FALSE(t.thread_offsets.empty());
  EXPECT_EQ(t.lines.size(), t.events.size());
  EXPECT_GT(r.counts[static_cast<int>(FindingKind::OutOfBounds)], 3u);
  EXPECT_EQ(r.findings.size(), 3u);  // the cap
  // Kept in block order whatever the workers did: the first is the one Stop finds.
  EXPECT_EQ(r.findings[0].at.thread, (Dim3{0, 2, 0}));
  EXPECT_EQ(r.findings[0].block, (Dim3{0, 0, 0}));
  for (const Event& e : t.events.span()) EXPECT_LT(e.index, 36u) << "an access outside was performed";
}

TEST(Sanitizer, AnUnstagedColumnIsAnUninitialisedRead) {
  Trace t = tiled_launch(4, 8, 8, 8);
  const CheckReport r = run_checked(&entry<4, planted_unstaged_column<4>>, t, CheckMode::Stop);
  ASSERT_EQ(r.findings.size(), 1u);
  const Finding& f = r.findings[0];
  EXPECT_EQ(f.kind, FindingKind::Uninitialized);
  EXPECT_EQ(f.block, (Dim3{0, 0, 0}));
  EXPECT_EQ(f.at.thread, (Dim3{0, 0, 0}));
  EXPECT_EQ(f.array, ArrayId::As);
  EXPECT_EQ(f.row, 0);
  EXPECT_EQ(f.col, 3);
  EXPECT_EQ(f.at.line, planted_line("// [uninit-load]"));
}

TEST(Sanitizer, AnEarlyReturnLeavesABarrierUnreached) {
  Trace t = tiled_launch(4, 6, 6, 6);
  const CheckReport r = run_checked(&entry<4, planted_early_return<4>>, t, CheckMode::Stop);
  ASSERT_EQ(r.findings.size(), 1u);
  const Finding& f = r.findings[0];
  EXPECT_EQ(f.kind, FindingKind::Barrier);
  EXPECT_EQ(f.block, (Dim3{1, 0, 0}));       // columns 4..7 of a 6-column C
  EXPECT_EQ(f.at.thread, (Dim3{2, 0, 0}));   // column 6: returned
  EXPECT_EQ(f.other.thread, (Dim3{0, 0, 0}));  // waits
  EXPECT_EQ(f.other.line, planted_line("// [divergent-barrier]"));
}

TEST(Sanitizer, AnEarlyReturnWithContinueRunsToTheEnd) {
  Trace t = tiled_launch(4, 6, 6, 6);
  const CheckReport r = run_checked(&entry<4, planted_early_return<4>>, t, CheckMode::Continue);
  EXPECT_GE(r.counts[static_cast<int>(FindingKind::Barrier)], 1u);
  ASSERT_FALSE(t.thread_offsets.empty());
  // The threads that stayed computed their cells (their tiles lack the returned threads' parts).
  EXPECT_FALSE(std::isnan(t.c[0]));
}

TEST(Sanitizer, WithoutChecksAFaultStillStopsTheRun) {
  Trace t = tiled_launch(4, 6, 6, 6);
  EXPECT_THROW(record_launch_with(&entry<4, planted_no_bounds_check<4>>, t, 1), EmulatorError);
}

// What the GPU check (planted_bugs_gpu under compute-sanitizer) launches, on
// the emulator: each bug is found at TILE = 16, M = N = K = 40; the clean
// kernel has nothing. The first finding of each is printed for the GPU log.
TEST(Sanitizer, GpuCheckSize) {
  struct Case {
    const char* name;
    KernelEntry entry;
    FindingKind kind;
  };
  const Case cases[] = {
      {"missing-barrier", &entry<16, planted_missing_barrier<16>>, FindingKind::Race},
      {"no-bounds-check", &entry<16, planted_no_bounds_check<16>>, FindingKind::OutOfBounds},
      {"unstaged-column", &entry<16, planted_unstaged_column<16>>, FindingKind::Uninitialized},
      {"early-return", &entry<16, planted_early_return<16>>, FindingKind::Barrier},
      {"none", &entry<16, matmul_tiled<16>>, FindingKind::Race},
  };
  for (const Case& c : cases) {
    Trace t = tiled_launch(16, 40, 40, 40);
    const CheckReport r = run_checked(c.entry, t, CheckMode::Continue);
    std::printf("emulator %s: %s\n", c.name, report_summary(r, 20).c_str());
    if (!r.findings.empty()) std::printf("  first: %s\n", r.findings[0].text.c_str());
    if (std::string(c.name) == "none") EXPECT_TRUE(r.clean()) << c.name;
    else EXPECT_GT(r.counts[static_cast<int>(c.kind)], 0u) << c.name;
  }
}

// The project's kernels, at sizes no tile divides, have nothing to report.
TEST(Sanitizer, BuiltInKernelsHaveNoFindingsAtRaggedSizes) {
  for (KernelKind kind : kAllKernels)
    for (int tile : {4, 8, 16}) {
      RecordParams p;
      p.kernel = kind;
      p.tile = tile;
      p.m = 13;
      p.n = 19;
      p.k = 11;
      p.seed = 3;
      Trace t = prepare_launch(p);
      LaunchOptions o;
      o.workers = 2;
      o.check.mode = CheckMode::Continue;
      const CheckReport r = record_launch(kind, t, o);
      EXPECT_TRUE(r.clean()) << kernel_info(kind).name << " TILE=" << tile << ": " << report_summary(r, 20)
                             << (r.findings.empty() ? "" : "; " + r.findings[0].text);
    }
}

// Each event knows the line of its subscript: the tiled kernel's loads, MACs and store.
TEST(SourceLines, TheTiledKernelsEventsCarryTheirLines) {
  Trace t = tiled_launch(8, 12, 20, 9);
  record_launch(KernelKind::Tiled, t, 2);
  ASSERT_EQ(t.lines.size(), t.events.size());
  const std::uint32_t load_a = line_of("kernels/tiled.h", "As[ty][tx] = A[");
  const std::uint32_t load_b = line_of("kernels/tiled.h", "Bs[ty][tx] = B[");
  const std::uint32_t mac = line_of("kernels/tiled.h", "// [mac]");
  const std::uint32_t store = line_of("kernels/tiled.h", "// [store]");
  const std::uint32_t pad_a = load_a + 1, pad_b = load_b + 1;  // the `else` zero fills
  ASSERT_NE(load_a * load_b * mac * store, 0u);
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    const std::uint32_t line = t.lines[i];
    switch (e.array_id()) {
      case ArrayId::A: EXPECT_EQ(line, load_a); break;
      case ArrayId::B: EXPECT_EQ(line, load_b); break;
      case ArrayId::C: EXPECT_EQ(line, store); break;
      case ArrayId::As:
        if (e.op() == Op::Load) EXPECT_EQ(line, mac);
        else EXPECT_EQ(line, e.is_padding() ? pad_a : load_a);
        break;
      case ArrayId::Bs:
        if (e.op() == Op::Load) EXPECT_EQ(line, mac);
        else EXPECT_EQ(line, e.is_padding() ? pad_b : load_b);
        break;
    }
  }
}

TEST(SourceLines, EveryBuiltInKernelsEventHasALine) {
  for (KernelKind kind : kAllKernels) {
    RecordParams p;
    p.kernel = kind;
    p.tile = 8;
    p.m = p.n = p.k = 12;
    p.seed = 5;
    Trace t = prepare_launch(p);
    record_launch(kind, t, 2);
    ASSERT_EQ(t.lines.size(), t.events.size());
    for (std::uint16_t line : t.lines) ASSERT_GT(line, 0u) << kernel_info(kind).name;
  }
}

}  // namespace
}  // namespace ts::emu
