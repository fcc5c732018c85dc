// shipped_traces_test.cpp — the traces recorded by the tracer on a GPU and
// shipped in assets/traces/ (cuBLAS's SGEMM, the plain-CUDA example) open on
// any machine and hold what the tracer says of them: every element of A and
// B read, C's cells written (or, split-k, partials stored elsewhere, as the
// launch says), each event's line an instruction that makes such an access,
// and the views, stats and export work on them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <cstdio>
#include <string>

#include "app/core/analysis/line_stats.h"
#include "app/core/csv_export.h"
#include "app/core/replay.h"
#include "app/core/stats.h"
#include "app/core/trace_file.h"
#include "app/core/trace_index.h"
#include "app/core/trace_validation.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

Trace shipped(const char* name) {
  return load_trace((fs::path(TILESCOPE_SOURCE_DIR) / "assets/traces" / name).string());
}

// How many elements of the role's buffer the trace reads (loads) or writes (stores).
std::uint64_t touched(const Trace& t, BufferRole role, bool stores) {
  const std::uint32_t id = t.launch.role_id(role);
  std::vector<bool> seen(t.launch.buffers[id].elements(), false);
  for (const Event& e : t.events.span())
    if (e.array == id && (e.op() == Op::Store) == stores && e.index < seen.size()) seen[e.index] = true;
  return static_cast<std::uint64_t>(std::count(seen.begin(), seen.end(), true));
}

// The SASS instruction a line of a SASS-numbered trace names.
std::string instruction(const Trace& t, std::uint16_t line) {
  return line >= 1 && line <= t.launch.tracer->sass.size() ? t.launch.tracer->sass[line - 1] : std::string();
}

// A shipped trace, valid, recorded by the tracer from `source`.
Trace shipped_traced(const char* name, const char* source) {
  Trace t = shipped(name);
  EXPECT_NO_THROW(validate_trace(t, 1ull << 40));
  if (!t.launch.traced()) throw std::runtime_error(std::string(name) + " was not recorded by the tracer");
  EXPECT_EQ(t.launch.tracer->source, source);
  return t;
}

TEST(ShippedTraces, CublasSgemmAsTheTracerRecordedIt) {
  const Trace t = shipped_traced("cublas-sgemm-64x96x80.tstrace", "cublas");
  const TracerInfo& info = *t.launch.tracer;
  EXPECT_NE(t.launch.device_name.find("NVIDIA"), std::string::npos);
  EXPECT_EQ(t.launch.m, 64);
  EXPECT_EQ(t.launch.n, 96);
  EXPECT_EQ(t.launch.k, 80);
  EXPECT_EQ(t.launch.buffer_with_role(BufferRole::A)->order, MatrixOrder::ColMajor) << "cuBLAS's own layout";
  // Every element of A and B read: a cp.async's source is a read.
  EXPECT_EQ(touched(t, BufferRole::A, false), 64u * 80);
  EXPECT_EQ(touched(t, BufferRole::B, false), 80u * 96);
  // C: written whole by this launch, or (split-k) not at all, its partials stored to another buffer, as it says.
  const std::uint64_t c = touched(t, BufferRole::C, true);
  const bool split = std::any_of(info.limits.begin(), info.limits.end(),
                                 [](const std::string& l) { return l.find("split-k") != std::string::npos; });
  EXPECT_EQ(c, split ? 0u : 64u * 96);
  EXPECT_GT(info.launches.size(), split ? 1u : 0u) << "a split-k GEMM's reduction is listed after it";

  // Each event's line is an instruction that makes its kind of access (lines number the SASS: no line info).
  ASSERT_FALSE(info.sass.empty());
  EXPECT_TRUE(info.source_file.empty());
  ASSERT_EQ(t.lines.size(), t.events.size());
  std::uint64_t checked = 0;
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    const std::string ins = instruction(t, t.lines[i]);
    ASSERT_FALSE(ins.empty()) << "event " << i << " has no instruction (line " << t.lines[i] << ")";
    const bool shared = e.space() == Space::Shared, store = e.op() == Op::Store;
    const char* want = e.async ? "LDGSTS" : shared ? (store ? "STS" : "LDS") : (store ? "STG" : "LDG");
    ASSERT_NE(ins.find(want), std::string::npos) << "event " << i << " (" << want << ") at " << ins;
    ++checked;
  }
  EXPECT_EQ(checked, t.events.size());

  // The views and the commands read it.
  const TraceIndex index(t);
  const TraceStats stats = compute_stats(t, index);
  EXPECT_EQ(stats.counts.a_loads_min, stats.counts.a_loads_max) << "each element of A read as often as any other";
  EXPECT_GE(stats.counts.a_loads_min, 1u);
  const auto lines = analyze_lines(t, t.lines);
  EXPECT_FALSE(lines.empty());
  std::FILE* csv = std::tmpfile();
  ASSERT_NE(csv, nullptr);
  EXPECT_TRUE(export_csv(t, csv));
  EXPECT_GT(std::ftell(csv), static_cast<long>(t.events.size() * 10));
  std::fclose(csv);
}

TEST(ShippedTraces, ThePlainCudaExampleWithItsSourceLines) {
  const Trace t = shipped_traced("float4-128x128x64.tstrace", "cuda-file");
  const TracerInfo& info = *t.launch.tracer;
  EXPECT_NE(info.program.find("--cuda-file"), std::string::npos);
  EXPECT_EQ(t.launch.kernel, "sgemm_blocktile_float4");
  EXPECT_EQ(touched(t, BufferRole::A, false), 128u * 64);
  EXPECT_EQ(touched(t, BufferRole::B, false), 64u * 128);
  EXPECT_EQ(touched(t, BufferRole::C, true), 128u * 128);
  // -lineinfo: the lines are the example's, and every access sits on a line of it that touches memory.
  EXPECT_TRUE(info.source_file.ends_with("examples/cuda/sgemm_blocktile_float4.cu")) << info.source_file;
  ASSERT_EQ(t.lines.size(), t.events.size());
  for (std::size_t i = 0; i < t.lines.size(); ++i) ASSERT_GT(t.lines[i], 20u) << "event " << i << ": before the kernel";
  // C: alpha A B with alpha 1, beta 0; C's values are those the launch stored.
  const TraceIndex index(t);
  const auto h = highlight_cell(t, index, 5, 7, ReplayStep{index.steps() - 1, Phase::Store});
  ASSERT_TRUE(h.has_value());
}

}  // namespace
}  // namespace ts
