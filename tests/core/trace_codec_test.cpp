// Trace file version 2: every kernel's trace round-trips bit for bit, values
// that no prediction matches still do, the version 1 file of the repository
// loads to the same trace and stats as its version 2 copy, and hostile bodies
// (with a valid checksum) are refused with a TraceFileError, never a crash.
#include <gtest/gtest.h>

#include <algorithm>

#include <bit>
#include <cstring>
#include <limits>
#include <random>

#include "app/core/stats.h"
#include "app/core/trace_codec.h"
#include "app/core/trace_index.h"
#include "tests/core/trace_file_test_support.h"

namespace ts {
namespace {

using Kind = TraceFileError::Kind;
using test::refusal;
using test::reseal;
using test::saved_bytes;

std::string launch_seed_and_kernel(const Trace& t) { return t.launch.kernel + "/" + std::to_string(t.launch.seed); }

void expect_same_trace(const Trace& u, const Trace& t) {
  EXPECT_EQ(launch_seed_and_kernel(u), launch_seed_and_kernel(t));
  ASSERT_EQ(u.a.size(), t.a.size());
  ASSERT_EQ(u.b.size(), t.b.size());
  ASSERT_EQ(u.c.size(), t.c.size());
  EXPECT_EQ(std::memcmp(u.a.data(), t.a.data(), t.a.size() * 4), 0);
  EXPECT_EQ(std::memcmp(u.b.data(), t.b.data(), t.b.size() * 4), 0);
  EXPECT_EQ(std::memcmp(u.c.data(), t.c.data(), t.c.size() * 4), 0);
  EXPECT_EQ(u.thread_offsets, t.thread_offsets);
  ASSERT_EQ(u.events.size(), t.events.size());
  EXPECT_EQ(std::memcmp(u.events.data(), t.events.data(), t.events.size() * sizeof(Event)), 0);
}

TEST(TraceCodec, EveryKernelRoundTripsBitForBit) {
  for (const KernelKind kind : kAllKernels) {
    const Trace t = test::small_trace(kind, 4, 13, 11, 7);
    SCOPED_TRACE(t.launch.kernel);
    expect_same_trace(load_trace_from_memory(saved_bytes(t, 2)), t);
  }
}

TEST(TraceCodec, PredictableTracesShrinkTenfold) {
  const Trace t = test::small_trace(KernelKind::Tiled, 8, 32, 32, 32);
  const auto v1 = saved_bytes(t, 1), v2 = saved_bytes(t, 2);
  EXPECT_LT(v2.size() * 10, v1.size()) << v1.size() << " -> " << v2.size();
}

// Values and fields that no neighbour or prediction gives: every one is an
// exception, and must still come back exactly (NaN payloads and -0 included).
TEST(TraceCodec, UnpredictableEventsRoundTrip) {
  Trace t = test::small_trace(KernelKind::TiledPadded, 4, 9, 10, 11);
  std::mt19937 rng(std::random_device{}());
  const float specials[] = {-0.0f, std::numeric_limits<float>::infinity(), std::bit_cast<float>(0x7FC01234u),
                            std::numeric_limits<float>::denorm_min()};
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    Event& e = t.events[i];
    switch (rng() % 4) {
      case 0: e.value = std::bit_cast<float>(static_cast<std::uint32_t>(rng())); break;
      case 1: e.value = specials[rng() % 4]; break;
      case 2:
        // Any field value a valid trace can hold (validation refuses an
        // iteration past the rule's or padding on anything but a shared store).
        e.epoch = rng() % (kMaxEpoch + 1), e.iter = rng() % (t.launch.iteration_rule.iterations + 1);
        // (kFlagShared follows the memory id, whatever the file says.)
        e.flags = static_cast<std::uint8_t>((e.flags & kFlagShared) | rng() % 2 |
                                            (t.launch.is_region(e.array) && rng() % 2 ? kFlagStore | kFlagPadding : 0));
        e.async = rng() % 2, e.width = rng() % 3;
        break;
      default: break;
    }
  }
  // Barrier counts never decrease along a thread (T4): the random ones, sorted per thread.
  for (std::size_t th = 0; th + 1 < t.thread_offsets.size(); ++th) {
    std::vector<std::uint16_t> epochs;
    for (std::uint64_t i = t.thread_offsets[th]; i < t.thread_offsets[th + 1]; ++i) epochs.push_back(t.events[i].epoch);
    std::sort(epochs.begin(), epochs.end());
    for (std::uint64_t i = t.thread_offsets[th]; i < t.thread_offsets[th + 1]; ++i)
      t.events[i].epoch = epochs[i - t.thread_offsets[th]];
  }
  expect_same_trace(load_trace_from_memory(saved_bytes(t, 2)), t);
  expect_same_trace(load_trace_from_memory(saved_bytes(t, 3)), t);
}

TEST(TraceCodec, TheVersion1FileLoadsAsItsVersion2Copy) {
  const auto path = std::filesystem::path(TILESCOPE_SOURCE_DIR) / "tests/core/data/coarsened_t4_12x10x9_v1.tstrace";
  const auto v1_bytes = test::read_all(path);
  ASSERT_GT(v1_bytes.size(), 64u);
  std::uint32_t version = 0;
  std::memcpy(&version, v1_bytes.data() + 8, 4);
  ASSERT_EQ(version, 1u);
  const Trace v1 = load_trace(path);
  ASSERT_EQ(v1.events.size(), 4356u);
  const auto v2_bytes = saved_bytes(v1, 2);
  std::memcpy(&version, v2_bytes.data() + 8, 4);
  ASSERT_EQ(version, 2u);
  const Trace v2 = load_trace_from_memory(v2_bytes);
  expect_same_trace(v2, v1);
  const TraceIndex i1(v1), i2(v2);
  EXPECT_EQ(stats_to_json(v1, compute_stats(v1, i1)).dump(), stats_to_json(v2, compute_stats(v2, i2)).dump());
}

std::size_t body_at(const std::vector<std::byte>& file) {
  std::uint32_t json = 0;
  std::memcpy(&json, file.data() + 12, 4);
  return 64 + json;
}

TEST(TraceCodec, ClaimsTheStreamsCannotHoldAreRefusedBeforeAllocating) {
  const auto good = saved_bytes(test::small_trace(), 2);
  const std::uint64_t big = std::numeric_limits<std::uint32_t>::max();
  for (std::size_t field = 16; field < 64; field += 8) {  // a, b, c, threads, timing, events
    auto b = good;
    std::memcpy(b.data() + field, &big, 8);
    reseal(b);
    const Kind kind = refusal(b);  // by the launch's own counts, or by what the streams hold
    EXPECT_TRUE(kind == Kind::Invalid || kind == Kind::Truncated) << field;
  }
}

TEST(TraceCodec, ABrokenStreamDirectoryIsRefused) {
  const auto good = saved_bytes(test::small_trace(), 2);
  const std::size_t at = body_at(good);
  auto b = good;
  const std::uint32_t streams = 3;
  std::memcpy(b.data() + at, &streams, 4);
  reseal(b);
  EXPECT_EQ(refusal(b), Kind::Corrupt);
  for (const std::uint64_t size : {std::uint64_t{0}, std::uint64_t{1} << 40, std::uint64_t{5}}) {
    b = good;
    std::memcpy(b.data() + at + 8 + 8 * 6, &size, 8);  // segment 0's index stream
    reseal(b);
    const Kind k = refusal(b);
    EXPECT_TRUE(k == Kind::Truncated || k == Kind::Corrupt) << size;
  }
  b = good;
  b.resize(at + 4);
  b.insert(b.end(), good.end() - 8, good.end());
  reseal(b);
  EXPECT_EQ(refusal(b), Kind::Truncated);
}

// What the fuzzer does, in short, on every run: random edits behind a valid
// checksum either load (and then pass every check) or are refused.
TEST(TraceCodec, RandomEditsBehindAValidChecksumNeverCrash) {
  const auto good = saved_bytes(test::small_trace(KernelKind::Tiled, 4, 8, 8, 8), 2);
  const std::size_t at = body_at(good);
  std::mt19937 rng(std::random_device{}());
  int refused = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    auto b = good;
    for (int edits = 1 + rng() % 4; edits > 0; --edits)
      b[at + rng() % (b.size() - 8 - at)] = std::byte{static_cast<unsigned char>(rng())};
    reseal(b);
    try {
      load_trace_from_memory(b);
    } catch (const TraceFileError& e) {
      EXPECT_NE(std::string(e.what()), "");
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

// The emulator's source lines travel in an optional last stream: they come
// back as they were, a file without them loads with none, and a broken one is
// refused.
TEST(TraceCodec, SourceLinesRoundTripAndAreOptional) {
  Trace t = test::small_trace(KernelKind::Tiled, 4, 13, 11, 7);
  ASSERT_EQ(t.lines.size(), t.events.size());
  const auto with = saved_bytes(t, 2);
  EXPECT_EQ(load_trace_from_memory(with).lines, t.lines);
  t.lines.clear();
  const auto without = saved_bytes(t, 2);
  EXPECT_LT(without.size(), with.size());
  const Trace u = load_trace_from_memory(without);
  EXPECT_TRUE(u.lines.empty());
  expect_same_trace(u, t);
}

TEST(TraceCodec, ABrokenSourceLinesStreamIsRefused) {
  const auto good = saved_bytes(test::small_trace(KernelKind::Tiled, 4, 13, 11, 7), 2);
  const std::size_t at = body_at(good);
  std::uint32_t head[2];
  std::memcpy(head, good.data() + at, 8);
  const std::size_t last = head[0] - 1;  // the lines' stream
  std::uint64_t size = 0;
  std::memcpy(&size, good.data() + at + 8 + 8 * last, 8);
  ASSERT_GT(size, 2u);
  for (const std::uint64_t lie : {std::uint64_t{0}, size - 1, size + 1}) {
    auto b = good;
    std::memcpy(b.data() + at + 8 + 8 * last, &lie, 8);
    reseal(b);
    const Kind k = refusal(b);
    EXPECT_TRUE(k == Kind::Truncated || k == Kind::Corrupt) << lie;
  }
  const auto names = v2_stream_names(head[0]);
  EXPECT_EQ(names.back(), "source lines");
}

TEST(TraceCodec, StreamNamesMatchTheDirectory) {
  const auto file = saved_bytes(test::small_trace(), 2);
  const auto body = std::span(file).subspan(body_at(file), file.size() - 8 - body_at(file));
  const auto sizes = v2_stream_sizes(body);
  const auto names = v2_stream_names(sizes.size());
  ASSERT_EQ(names.size(), sizes.size());
  EXPECT_EQ(names[0], "A");
  EXPECT_EQ(names[5], "segment 0 field runs");
}

}  // namespace
}  // namespace ts
