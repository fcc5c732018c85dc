// Per source line figures (`stats --by-line`): for every kernel of the
// project they add up to the whole trace's figures exactly, a trace without
// lines borrows the emulator's, and the findings name what a line wastes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include <set>

#include "app/core/analysis/line_stats.h"
#include "app/core/stats.h"
#include "app/core/trace_file.h"
#include "app/core/trace_index.h"
#include "kernels/catalog.h"
#include "kernels/recorder.h"
#include "tests/core/trace_test_support.h"
#include "tests/kernels/user_kernel_support.h"

namespace ts {
namespace {

Trace record_cpu(KernelKind kind, int tile, int m, int n, int k) {
  RecordParams p = test::record_params(DeviceChoice::Cpu, kind, tile, m, n, k, InputKind::Random, 11);
  p.cpu_workers = 2;
  return record(p);
}

void expect_same(const AccessTotals& a, const AccessTotals& b, const std::string& what) {
  EXPECT_EQ(a.requests, b.requests) << what;
  EXPECT_EQ(a.accesses, b.accesses) << what;
  EXPECT_EQ(a.sectors, b.sectors) << what;
  EXPECT_EQ(a.lines, b.lines) << what;
  EXPECT_EQ(a.ideal_sectors, b.ideal_sectors) << what;
  EXPECT_EQ(a.wavefronts, b.wavefronts) << what;
  EXPECT_EQ(a.bank_conflicts, b.bank_conflicts) << what;
  EXPECT_EQ(a.broadcast_lanes, b.broadcast_lanes) << what;
  EXPECT_EQ(a.histogram, b.histogram) << what;
}

TEST(LineStats, LinesAddUpToTheTraceTotalsForEveryKernel) {
  for (KernelKind kind : kAllKernels)
    for (int tile : {8, 16}) {
      const Trace t = record_cpu(kind, tile, 21, 35, 19);
      const std::string name = std::string(kernel_info(kind).name) + " TILE=" + std::to_string(tile);
      ASSERT_EQ(t.lines.size(), t.events.size()) << name;
      const std::vector<LineStats> lines = analyze_lines(t, t.lines);
      const TraceIndex index(t);
      const TraceStats whole = compute_stats(t, index);
      MemoryStats sum;
      std::uint64_t global_loads = 0;
      for (const LineStats& l : lines) {
        EXPECT_NE(l.line, 0u) << name << ": an event without a line";
        sum.add(l.memory);
        global_loads += l.global_load_events;
      }
      for (int a = 0; a < kArrayCount; ++a)
        for (int op = 0; op < 2; ++op)
          expect_same(sum.by_array[a][op], whole.memory.by_array[a][op],
                      name + " " + array_name(static_cast<ArrayId>(a)) + " " + op_name(static_cast<Op>(op)));
      EXPECT_EQ(global_loads, whole.counts.by_array[0][0] + whole.counts.by_array[1][0]) << name;
    }
}

// The rungs too: every event has its line, the mma fragments' elements the
// kernel's lines that load them (tf32-tensor-core's [fragment] lines).
TEST(LineStats, EveryRungsEventsHaveTheirLines) {
  for (KernelKind kind : kRungKernels) {
    const Trace t = record_cpu(kind, 0, 68, 132, 36);
    const std::string name(kernel_info(kind).name);
    ASSERT_EQ(t.lines.size(), t.events.size()) << name;
    for (std::size_t i = 0; i < t.events.size(); ++i) ASSERT_NE(t.lines[i], 0u) << name << ": event " << i;
    const std::vector<LineStats> lines = analyze_lines(t, t.lines);
    const TraceIndex index(t);
    const TraceStats whole = compute_stats(t, index);
    MemoryStats sum;
    for (const LineStats& l : lines) sum.add(l.memory);
    for (int a = 0; a < kArrayCount; ++a)
      for (int op = 0; op < 2; ++op)
        expect_same(sum.by_array[a][op], whole.memory.by_array[a][op],
                    name + " " + array_name(static_cast<ArrayId>(a)) + " " + op_name(static_cast<Op>(op)));
  }
  // tf32-tensor-core: the A and B fragments come from two lines, one each.
  const Trace t = record_cpu(KernelKind::Tf32TensorCore, 0, 64, 64, 32);
  std::set<std::uint16_t> a_lines, b_lines;
  for (std::size_t i = 0; i < t.events.size(); ++i)
    if (t.events[i].is_fragment()) (t.events[i].array_id() == ArrayId::As ? a_lines : b_lines).insert(t.lines[i]);
  EXPECT_EQ(a_lines.size(), 1u);
  EXPECT_EQ(b_lines.size(), 1u);
  EXPECT_NE(a_lines, b_lines);
}

TEST(LineStats, FindingsNameTheWaste) {
  // The transposed B tile conflicts; the naive kernel re-reads B from global memory in every warp.
  const Trace tt = record_cpu(KernelKind::TiledTransposed, 16, 32, 32, 32);
  bool conflict = false;
  for (const LineStats& l : analyze_lines(tt, tt.lines))
    for (const std::string& f : l.findings()) conflict = conflict || f.find("8-way bank conflicts") != std::string::npos;
  EXPECT_TRUE(conflict);

  const Trace naive = record_cpu(KernelKind::Naive, 16, 32, 32, 32);
  bool reloaded = false;
  for (const LineStats& l : analyze_lines(naive, naive.lines)) {
    for (const std::string& f : l.findings()) reloaded = reloaded || f.starts_with("re-loaded from global");
    if (l.global_load_events) {
      EXPECT_DOUBLE_EQ(l.loads_per_element(), 32.0);  // N = M = 32 cells use each
    }
  }
  EXPECT_TRUE(reloaded);

  // The tiled kernel at a size TILE divides wastes nothing.
  const Trace tiled = record_cpu(KernelKind::Tiled, 16, 64, 64, 64);
  for (const LineStats& l : analyze_lines(tiled, tiled.lines)) {
    EXPECT_TRUE(l.findings().empty()) << "line " << l.line << ": " << l.findings()[0];
    if (l.global_load_events) {
      EXPECT_DOUBLE_EQ(l.block_reloads(), 1.0);
    }
  }
}

TEST(LineStats, ATraceWithoutLinesBorrowsTheEmulators) {
  const Trace t = record_cpu(KernelKind::Coarsened, 8, 24, 40, 17);
  const auto path = std::filesystem::temp_directory_path() / ("line_stats_" + std::to_string(::getpid()) + ".tstrace");
  save_trace(t, path);
  Trace loaded = load_trace(path);
  EXPECT_EQ(loaded.lines, t.lines) << "the file keeps the emulator's lines";
  loaded.lines.clear();  // as a GPU trace, or a file written before lines were kept
  std::string why;
  const std::vector<std::uint16_t> lines = source_lines(loaded, why);
  EXPECT_EQ(lines, t.lines) << why;

  // A trace whose events the emulator's do not match gets none, and says why.
  Trace other = record_cpu(KernelKind::Tiled, 8, 24, 40, 17);
  other.lines.clear();
  other.launch.k = 9;  // claims another launch
  EXPECT_TRUE(source_lines(other, why).empty());
  EXPECT_NE(why.find("other events"), std::string::npos) << why;

  Trace unknown = load_trace(path);
  unknown.lines.clear();
  unknown.launch.kernel = "mine";
  EXPECT_TRUE(source_lines(unknown, why).empty());
  EXPECT_NE(why.find("not one of tilescope's"), std::string::npos) << why;
  std::filesystem::remove(path);
}

// A kernel that names its own memory (examples/kernels/staged_output.cu):
// each line says which buffers and regions its requests touch, by name, in
// the text's memory column and the JSON's by_array.
TEST(LineStats, EachLineNamesTheBuffersAndRegionsItTouches) {
  test::use_test_kernel_cache();
  const std::string file = test::example_file("staged_output.cu");
  const Trace t = record(test::user_params(file, "matmul_staged", 8, 16, 16, 16));
  std::vector<std::string> source;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) source.push_back(line);
  const auto line_of = [&](const std::string& text) {
    for (std::size_t i = 0; i < source.size(); ++i)
      if (source[i].find(text) != std::string::npos) return static_cast<std::uint32_t>(i + 1);
    ADD_FAILURE() << "no line holds " << text;
    return 0u;
  };
  const std::vector<LineStats> lines = analyze_lines(t, t.lines);
  const nlohmann::json j = line_stats_json(t.launch, lines, source);
  const std::pair<const char*, const char*> expected[] = {{"acc += sa[ty][k] * sb[k][tx]", "sa sb"},
                                                          {"sc[tx][ty] = acc;", "sc"},
                                                          {"C[row * N + col] = sc[tx][ty]", "C sc"}};
  for (const auto& [text, names] : expected) {
    SCOPED_TRACE(text);
    const std::uint32_t n = line_of(text);
    const auto it = std::find_if(lines.begin(), lines.end(), [&](const LineStats& l) { return l.line == n; });
    ASSERT_NE(it, lines.end());
    EXPECT_EQ(line_memory_names(t.launch, *it), names);
    const auto row = std::find_if(j.begin(), j.end(), [&](const nlohmann::json& l) { return l["line"] == n; });
    ASSERT_NE(row, j.end());
    std::string keys;
    for (auto& [name, ops] : (*row)["by_array"].items()) keys += (keys.empty() ? "" : " ") + name;
    EXPECT_EQ(keys, names);  // JSON objects keep their keys sorted: the names are listed so
  }
}

}  // namespace
}  // namespace ts
