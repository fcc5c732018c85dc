// The launch's memory tables (trace/memory.h) and trace file version 3:
//  - traces written by the tilescope before the tables (versions 1 and 2,
//    committed under tests/core/data/legacy with the `stats --json` that
//    tilescope printed for them) load onto the tables and give the same
//    figures, every key of the old launch description kept;
//  - a trace whose memory is named freely (regions sa, sb, sc, a column-major
//    B) round-trips through version 3 exactly, cannot be written as version 1
//    or 2, and its stats are keyed by those names;
//  - a file whose tables lie is refused with a clear message.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/core/stats.h"
#include "app/core/trace_index.h"
#include "app/core/trace_validation.h"
#include "tests/core/trace_file_test_support.h"

namespace ts {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::Kind;
using test::saved_bytes;

const fs::path kData = fs::path(TILESCOPE_SOURCE_DIR) / "tests/core/data";

json stats_json(const Trace& t) {
  const TraceIndex index(t);
  return stats_to_json(t, compute_stats(t, index));
}

void expect_as_before(const fs::path& trace_file, const fs::path& expected_file) {
  SCOPED_TRACE(trace_file.filename().string());
  std::ifstream in(expected_file);
  ASSERT_TRUE(in) << expected_file;
  const json before = json::parse(in);
  const Trace t = load_trace(trace_file);
  json now = stats_json(t);
  // The launch description gained the tables; everything it said before it still says.
  for (const auto& [key, value] : before.at("launch").items()) EXPECT_EQ(now.at("launch").value(key, json()), value) << key;
  EXPECT_TRUE(now.at("launch").contains("buffers"));
  EXPECT_TRUE(now.at("launch").contains("regions"));
  json old_rest = before, new_rest = now;
  old_rest.erase("launch");
  new_rest.erase("launch");
  EXPECT_EQ(new_rest, old_rest) << "the figures changed: " << json::diff(old_rest, new_rest).dump(1);
}

TEST(LegacyTraces, Version1AndVersion2TracesGiveTheFiguresTheyGaveBefore) {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kData / "legacy")) {
    if (entry.path().extension() != ".tstrace") continue;
    fs::path expected = entry.path();
    expected.replace_extension(".stats.json");
    expect_as_before(entry.path(), expected);
    ++files;
  }
  EXPECT_GE(files, 11);  // the six textbook kernels, four rungs and a focused trace, as version 2
  expect_as_before(kData / "coarsened_t4_12x10x9_v1.tstrace", kData / "legacy/coarsened_t4_12x10x9_v1.stats.json");
}

TEST(LegacyTraces, TheFiveArraysMapOntoTheTables) {
  const Trace t = load_trace(kData / "coarsened_t4_12x10x9_v1.tstrace");
  const LaunchInfo& L = t.launch;
  ASSERT_EQ(L.buffers.size(), 3u);
  ASSERT_EQ(L.regions.size(), 2u);
  EXPECT_EQ(L.memory_name(0), "A");
  EXPECT_EQ(L.memory_name(2), "C");
  EXPECT_EQ(L.memory_name(3), "As");
  EXPECT_EQ(L.memory_name(4), "Bs");
  EXPECT_EQ(L.buffers[1].role, BufferRole::B);
  EXPECT_EQ(L.buffers[1].rows, 9u);   // K
  EXPECT_EQ(L.buffers[1].cols, 10u);  // N
  EXPECT_TRUE(L.has_own_arrays_only());
  for (const Event& e : t.events.span()) ASSERT_EQ(e.space() == Space::Shared, L.is_region(e.array));
}

std::string refusal_of(const Trace& t) {
  try {
    validate_trace(t, ~0ull >> 8, 1);
    return "(accepted)";
  } catch (const TraceFileError& e) {
    return e.what();
  }
}

// tilescope's tiled trace with its memory renamed: regions sa and sb, and a
// third region sc (a staged output tile nobody touches here).
Trace freely_named() {
  Trace t = test::small_trace(KernelKind::Tiled, 4, 12, 10, 9);
  LaunchInfo& L = t.launch;
  L.regions[0].name = "sa";
  L.regions[1].name = "sb";
  Region sc;
  sc.name = "sc";
  sc.offset = L.regions[1].offset + L.regions[1].bytes;
  sc.rows = sc.cols = sc.ld = 4;
  sc.bytes = 64;
  L.regions.push_back(sc);
  return t;
}

TEST(TraceTables, FreelyNamedMemoryRoundTripsThroughVersion3) {
  const Trace t = freely_named();
  const Trace u = load_trace_from_memory(saved_bytes(t, 3));
  EXPECT_EQ(u.launch.buffers, t.launch.buffers);
  EXPECT_EQ(u.launch.regions, t.launch.regions);
  ASSERT_EQ(u.events.size(), t.events.size());
  EXPECT_EQ(std::memcmp(u.events.data(), t.events.data(), t.events.size() * sizeof(Event)), 0);
  EXPECT_FALSE(u.launch.has_own_arrays_only());
  const json j = stats_json(u);
  for (const char* name : {"A", "B", "C", "sa", "sb", "sc"}) EXPECT_TRUE(j.at("by_array").contains(name)) << name;
  EXPECT_FALSE(j.at("by_array").contains("As"));
  EXPECT_EQ(j.at("by_array").at("sc").at("load"), 0);
}

// A column-major buffer: element (r, c) at c * ld + r. Validation accepts an
// operand of any order and leading dimension (the views read them through the
// layout: tests/core/replay_layouts_test.cpp), but not one whose leading
// dimension is shorter than its inner extent.
TEST(TraceTables, AColumnMajorOperandIsAccepted) {
  Buffer b;
  b.rows = 9;
  b.cols = 10;
  b.ld = 9;
  b.order = MatrixOrder::ColMajor;
  EXPECT_EQ(b.coord(9 * 3 + 2), (MatrixCoord{2, 3}));
  EXPECT_EQ(b.index_of(2, 3), 9u * 3 + 2);
  EXPECT_EQ(b.elements(), 90u);
  Trace t = freely_named();
  t.launch.buffers[1].order = MatrixOrder::ColMajor;
  t.launch.buffers[1].ld = 8;
  EXPECT_NE(refusal_of(t).find("buffer B: 9 x 10 with leading dimension 8"), std::string::npos) << refusal_of(t);
}

TEST(TraceTables, VersionsOneAndTwoCannotHoldOtherNames) {
  const Trace t = freely_named();
  for (std::uint32_t version : {1u, 2u}) {
    try {
      saved_bytes(t, version);
      ADD_FAILURE() << "version " << version << " written";
    } catch (const TraceFileError& e) {
      EXPECT_EQ(e.kind(), Kind::CannotWrite);
      EXPECT_NE(std::string(e.what()).find("write version 3"), std::string::npos) << e.what();
    }
  }
}


TEST(TraceTables, LyingTablesAreRefusedWithTheReason) {
  {
    Trace t = freely_named();
    t.launch.regions[2].offset = static_cast<std::uint32_t>(kMaxSharedBytes) - 32;  // 64 bytes from there
    EXPECT_NE(refusal_of(t).find("shared region sc ends at byte"), std::string::npos) << refusal_of(t);
  }
  {
    Trace t = freely_named();
    t.launch.buffers[0].ld = 0x40000000;  // 12 rows of 2^30: past an event's 32-bit index
    EXPECT_NE(refusal_of(t).find("buffer A"), std::string::npos) << refusal_of(t);
  }
  {
    Trace t = freely_named();
    t.events[0].array = 6;  // the tables have ids 0..5
    EXPECT_NE(refusal_of(t).find("event 0 is malformed"), std::string::npos) << refusal_of(t);
  }
  {
    Trace t = freely_named();
    t.launch.buffers[2].role = BufferRole::A;  // two A's, no C
    EXPECT_NE(refusal_of(t).find("two buffers have the role A"), std::string::npos) << refusal_of(t);
  }
  {
    Trace t = freely_named();
    t.launch.regions[0].name = "s a";
    EXPECT_NE(refusal_of(t).find("a region's name"), std::string::npos) << refusal_of(t);
  }
  {
    Trace t = freely_named();
    t.launch.regions[2].bytes = 16;  // 4 x 4 floats do not fit 16 bytes
    EXPECT_NE(refusal_of(t).find("do not fit"), std::string::npos) << refusal_of(t);
  }
  EXPECT_EQ(refusal_of(freely_named()), "(accepted)");
}

// The same lies in a file: refused on load, never a crash.
TEST(TraceTables, AFileWithLyingTablesIsRefusedOnLoad) {
  Trace t = freely_named();
  t.launch.regions[2].offset = static_cast<std::uint32_t>(kMaxSharedBytes);
  const auto bytes = saved_bytes(t, 3);
  EXPECT_EQ(test::refusal(bytes), Kind::Invalid);
}

}  // namespace
}  // namespace ts
