// The trace file round-trips exactly, and a truncated, corrupted or hostile
// file is refused with a typed error, never a crash. Version 2's own checks
// are in trace_codec_test.cpp; the tests here run on both versions, or on
// version 1 where they poke its fixed layout.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "app/core/trace_file.h"
#include "tests/core/trace_file_test_support.h"

namespace ts {
namespace {

// Version 1 stores an event in 12 bytes (trace_file.cpp), whatever the in-memory Event is.
constexpr std::size_t kV1EventBytes = 12;

namespace fs = std::filesystem;
using Kind = TraceFileError::Kind;
using test::refusal;
using test::reseal;
using test::saved_bytes;

// The tests that hold for every version the writer can write.
class TraceFileVersions : public ::testing::TestWithParam<std::uint32_t> {};
INSTANTIATE_TEST_SUITE_P(Versions, TraceFileVersions, ::testing::Values(1u, 2u));

TEST_P(TraceFileVersions, RoundTripsExactly) {
  const Trace t = test::small_trace(KernelKind::Coarsened, 4, 13, 11, 7);
  const Trace u = load_trace_from_memory(saved_bytes(t, GetParam()));
  EXPECT_EQ(u.launch.kernel, t.launch.kernel);
  EXPECT_EQ(u.launch.m, 13);
  EXPECT_EQ(u.launch.date, t.launch.date);
  EXPECT_EQ(u.launch.seed, t.launch.seed);
  EXPECT_EQ(u.a, t.a);
  EXPECT_EQ(u.b, t.b);
  EXPECT_EQ(u.thread_offsets, t.thread_offsets);
  ASSERT_EQ(u.events.size(), t.events.size());
  EXPECT_EQ(std::memcmp(u.events.data(), t.events.data(), t.events.size() * sizeof(Event)), 0);
  for (std::size_t i = 0; i < t.c.size(); ++i) EXPECT_EQ(u.c[i], t.c[i]);
}

TEST(TraceFile, SavesAtomicallyAndLoadsFromDisk) {
  const Trace t = test::small_trace();
  const fs::path p = fs::temp_directory_path() / ("ts_disk_" + std::to_string(::getpid()) + ".tstrace");
  save_trace(t, p);
  EXPECT_FALSE(fs::exists(fs::path(p.string() + ".partial")));
  EXPECT_EQ(load_trace(p).events.size(), t.events.size());
  fs::remove(p);
}

TEST_P(TraceFileVersions, EveryTruncationIsRefused) {
  const auto bytes = saved_bytes(test::small_trace(KernelKind::Tiled, 2, 3, 3, 3), GetParam());
  for (std::size_t len = 0; len < bytes.size(); ++len) {
    const Kind k = refusal(std::span(bytes).first(len));
    EXPECT_TRUE(k == Kind::Truncated || k == Kind::NotATrace) << len;
  }
}

TEST_P(TraceFileVersions, FlippedBytesFailTheChecksum) {
  const auto good = saved_bytes(test::small_trace(), GetParam());
  std::mt19937 rng(std::random_device{}());
  for (int trial = 0; trial < 200; ++trial) {
    auto bytes = good;
    const std::size_t at = 64 + rng() % (bytes.size() - 72);  // past the header, before the footer
    bytes[at] ^= std::byte{static_cast<unsigned char>(1 + rng() % 255)};
    EXPECT_EQ(refusal(bytes), Kind::Corrupt) << "byte " << at;
  }
}

TEST_P(TraceFileVersions, WrongMagicAndVersion) {
  auto bytes = saved_bytes(test::small_trace(), GetParam());
  auto other = bytes;
  other[0] = std::byte{'X'};
  EXPECT_EQ(refusal(other), Kind::NotATrace);
  other = bytes;
  const std::uint32_t v = 99;
  std::memcpy(other.data() + 8, &v, 4);
  EXPECT_EQ(refusal(other), Kind::UnsupportedVersion);
  const char text[] = "hello, this is not a trace at all, just some text of a reasonable length......";
  EXPECT_EQ(refusal(std::as_bytes(std::span(text))), Kind::NotATrace);
}

TEST_P(TraceFileVersions, HostileCountsAreRefusedBeforeAllocating) {
  auto bytes = saved_bytes(test::small_trace(), GetParam());
  const std::uint64_t huge = ~0ull;
  for (std::size_t field = 16; field < 64; field += 8) {  // the six counts
    auto b = bytes;
    std::memcpy(b.data() + field, &huge, 8);
    const Kind k = refusal(b);
    EXPECT_TRUE(k == Kind::Invalid || k == Kind::Truncated) << field;
  }
  auto b = bytes;
  const std::uint32_t json = 1u << 30;
  std::memcpy(b.data() + 12, &json, 4);
  EXPECT_EQ(refusal(b), Kind::Invalid);
}

TEST(TraceFile, HostileEventsWithAValidChecksumAreRefused) {
  const Trace t = test::small_trace();
  const auto good = saved_bytes(t, 1);  // events at fixed offsets
  const std::size_t events_at = good.size() - 8 - t.events.size() * kV1EventBytes;
  auto poke = [&](std::size_t event, std::size_t offset, auto value) {
    auto b = good;
    std::memcpy(b.data() + events_at + event * kV1EventBytes + offset, &value, sizeof value);
    reseal(b);
    return b;
  };
  EXPECT_EQ(refusal(poke(3, 0, std::uint32_t{0xFFFFFF})), Kind::Invalid);  // index past the array
  EXPECT_EQ(refusal(poke(3, 8, std::uint16_t{7u << 13})), Kind::Invalid);  // array 7: no such array
}

TEST(TraceFile, EventsAreWrittenInVersion1sLayout) {
  // Version 1's words: epoch | array << 13 and iter | flags << 14, whatever
  // the in-memory Event's bit-fields are.
  const Trace t = test::small_trace(KernelKind::Tiled, 4, 8, 8, 8);
  const auto bytes = saved_bytes(t, 1);
  const std::size_t events_at = bytes.size() - 8 - t.events.size() * kV1EventBytes;
  for (std::size_t i : {std::size_t{0}, t.events.size() / 2, t.events.size() - 1}) {
    const Event& e = t.events[i];
    std::uint16_t w0, w1;
    std::memcpy(&w0, bytes.data() + events_at + i * 12 + 8, 2);
    std::memcpy(&w1, bytes.data() + events_at + i * 12 + 10, 2);
    EXPECT_EQ(w0, e.epoch | (e.array << 13)) << "event " << i;
    EXPECT_EQ(w1, e.iter | ((e.flags & (kFlagStore | kFlagPadding)) << 14)) << "event " << i;
  }
}

TEST(TraceFile, Version1EventsBeyondTheLimitsAreRefused) {
  const Trace t = test::small_trace();
  auto b = saved_bytes(t, 1);
  const std::size_t events_at = b.size() - 8 - t.events.size() * kV1EventBytes;
  const std::uint16_t epoch_past_limit = kMaxEpoch + 1;  // version 1 holds it; an Event does not
  std::memcpy(b.data() + events_at + 8, &epoch_past_limit, 2);
  reseal(b);
  EXPECT_EQ(refusal(b), Kind::Invalid);
}

// Version 1 has no access width or async flag: it refuses such traces;
// version 2 codes every field and keeps them.
TEST_P(TraceFileVersions, VectorAndAsyncAccessesAreKeptOrRefused) {
  for (bool vector : {true, false}) {
    Trace t = test::small_trace();
    if (vector) t.events[0].width = static_cast<std::uint16_t>(Width::B16);
    else t.events[0].async = 1;
    const fs::path p = fs::temp_directory_path() / ("ts_file_test_v_" + std::to_string(::getpid()) + ".tstrace");
    if (GetParam() == 2) {
      const Trace u = load_trace_from_memory(saved_bytes(t, 2));
      EXPECT_EQ(u.events[0].width, t.events[0].width);
      EXPECT_EQ(u.events[0].async, t.events[0].async);
      continue;
    }
    try {
      save_trace(t, p, GetParam());
      ADD_FAILURE() << "saved what the file cannot hold";
    } catch (const TraceFileError& e) {
      EXPECT_EQ(e.kind(), Kind::CannotWrite);
      EXPECT_NE(std::string(e.what()).find("version 1"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(p));
  }
}

TEST_P(TraceFileVersions, HostileLaunchDescriptionIsRefused) {
  const Trace t = test::small_trace();
  auto b = saved_bytes(t, GetParam());
  std::uint32_t json_len;
  std::memcpy(&json_len, b.data() + 12, 4);
  std::string json(reinterpret_cast<const char*>(b.data()) + 64, json_len);
  for (const char* bad : {"\"m\":12", "\"grid\":[", "\"kernel\""}) {
    auto c = b;
    const auto at = json.find(bad);
    ASSERT_NE(at, std::string::npos) << bad;
    c[64 + at + 1] = std::byte{'#'};  // break the key or the value
    reseal(c);
    EXPECT_EQ(refusal(c), Kind::Invalid) << bad;
  }
}

TEST(TraceFile, MissingFileAndDirectory) {
  try {
    load_trace("/nonexistent/dir/x.tstrace");
    FAIL();
  } catch (const TraceFileError& e) {
    EXPECT_EQ(e.kind(), Kind::CannotOpen);
  }
  try {
    load_trace(fs::temp_directory_path());
    FAIL();
  } catch (const TraceFileError& e) {
    EXPECT_EQ(e.kind(), Kind::CannotOpen);
  }
  try {
    save_trace(test::small_trace(), "/nonexistent/dir/x.tstrace");
    FAIL();
  } catch (const TraceFileError& e) {
    EXPECT_EQ(e.kind(), Kind::CannotWrite);
  }
  try {
    save_trace(test::small_trace(), fs::temp_directory_path() / "x.tstrace", kTraceFileVersion + 1);
    FAIL();
  } catch (const TraceFileError& e) {
    EXPECT_EQ(e.kind(), Kind::UnsupportedVersion);
  }
}

}  // namespace
}  // namespace ts
