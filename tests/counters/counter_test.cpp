// The whole-launch counters (app/counters/counter.h) against `stats` of a full trace
// of the same launch: equal key for key, for every kernel and TILE at a square,
// a non-square and a ragged shape; and the streaming path's memory.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "app/core/stats.h"
#include "app/core/trace_index.h"
#include "app/counters/counter.h"
#include "tests/kernels/kernel_cases.h"
#include "tests/kernels/refusal.h"

namespace ts {
namespace {

using test::KernelCase;

// What differs between two recordings of one launch by design: when, and the
// counters' own additions.
nlohmann::json comparable(nlohmann::json j) {
  j["launch"].erase("date");
  for (const char* key : {"counted", "peak_memory"}) j.erase(key);
  return j;
}

class CountersEqualStats : public ::testing::TestWithParam<KernelCase> {};

TEST_P(CountersEqualStats, KeyForKey) {
  const KernelCase c = GetParam();
  RecordParams p = c.params(DeviceChoice::Cpu);
  p.cpu_workers = 2;  // two workers share the per-element counts
  const Trace t = record(p);
  p.seed = t.launch.seed;  // the same inputs, counted without a trace
  const LaunchCounters counted = count_launch(p);
  const TraceIndex index(t);
  const nlohmann::json want = comparable(stats_to_json(t, compute_stats(t, index)));
  const nlohmann::json got = comparable(counters_to_json(counted));
  ASSERT_EQ(got, want) << nlohmann::json::diff(want, got).dump(1);
  EXPECT_GT(counted.events, 0u);
  ASSERT_EQ(counted.c.size(), t.c.size());
  EXPECT_EQ(std::memcmp(counted.c.data(), t.c.data(), t.c.size() * sizeof(float)), 0) << "C differs";
}

INSTANTIATE_TEST_SUITE_P(AllKernels, CountersEqualStats,
                         ::testing::ValuesIn(test::kernel_cases({2, 4, 8, 16, 32},
                                                                {{64, 64, 64}, {48, 80, 32}, {37, 29, 45}})),
                         test::kernel_case_name);

INSTANTIATE_TEST_SUITE_P(Rungs, CountersEqualStats, ::testing::ValuesIn(test::rung_cases(test::rung_shapes())),
                         test::kernel_case_name);

RecordParams tiled(int size) {
  RecordParams p = test::record_params(DeviceChoice::Cpu, KernelKind::Tiled, 16, size, size, size);
  p.cpu_workers = 2;
  return p;
}

// The streaming path holds the inputs, the per-element counts and one block
// per worker: O(N^2 + N) where a full trace is O(N^3).
TEST(CountersMemory, PeakStaysFarBelowTheFullTrace) {
  const LaunchCounters small = count_launch(tiled(128));
  const LaunchCounters large = count_launch(tiled(256));
  for (const LaunchCounters* c : {&small, &large}) {
    EXPECT_EQ(c->peak_bytes, c->inputs_bytes + c->element_counts_bytes + c->block_buffers_bytes);
    EXPECT_LT(c->peak_bytes * 20, c->events * sizeof(Event)) << "peak " << c->peak_bytes;
  }
  // Twice N: about 8 times the events, 4 times the inputs, twice one block's events.
  EXPECT_GT(large.events, small.events * 7);
  EXPECT_LE(large.block_buffers_bytes, small.block_buffers_bytes * 2 + 4096);
  EXPECT_LE(large.peak_bytes, small.peak_bytes * 4);
  const std::uint64_t estimate = counters_memory_estimate(tiled(256), 2);
  EXPECT_GE(estimate, large.peak_bytes) << "the up-front estimate must bound what was used";
}

// What counting p is refused with (too large, as every case here is).
std::string counting_refusal(const RecordParams& p) {
  return test::refusal_message([&] { count_launch(p); }, RecordError::Kind::TooLarge);
}

TEST(CountersMemory, BeyondTheLimitIsRefusedWithTheNumbers) {
  RecordParams p = tiled(4096);
  p.event_limit = 1000;  // 12 kB
  const std::string why = counting_refusal(p);
  EXPECT_NE(why.find("MiB for the inputs"), std::string::npos) << why;
  EXPECT_NE(why.find("M=4096"), std::string::npos) << why;
}

// M x N just past 2^62 / 4 cells: the bytes of the inputs and the per-element
// counts pass 2^64 (4 M N + 8 K (M + N) wraps to about 2 GiB), so the estimate
// saturates and the launch is refused before anything is allocated.
TEST(CountersMemory, EstimateSaturatesInsteadOfWrapping) {
  RecordParams p = test::record_params(DeviceChoice::Cpu, KernelKind::Tiled, 16, 2147443649, 2147443648, 20000);
  p.cpu_workers = 2;
  ASSERT_EQ(counters_memory_estimate(p, 2), std::numeric_limits<std::uint64_t>::max());
  const std::string why = counting_refusal(p);
  EXPECT_NE(why.find("M=2147443649 N=2147443648 K=20000 needs 2^64 bytes or more"), std::string::npos) << why;
}

// A launch CUDA cannot run is not counted on the emulator either: naive TILE 2
// at M = 140000 needs a grid 70000 blocks high (CUDA allows 65535).
TEST(CountersMemory, ALaunchCudaCannotRunIsRefused) {
  RecordParams p = test::record_params(DeviceChoice::Cpu, KernelKind::Naive, 2, 140000, 1, 1);
  const std::string why = counting_refusal(p);
  EXPECT_NE(why.find("65535"), std::string::npos) << why;
  p.m = 131070;  // 65535 blocks high: counted
  EXPECT_NO_THROW(count_launch(p));
}

// The emulator starts no more workers than there are blocks, and the estimate
// counts no more block buffers: --workers 100000 on one block was refused as
// 'M=16 N=16 K=16 needs 21.17 GiB'.
TEST(CountersMemory, WorkersPastTheBlocksCostNothing) {
  RecordParams p = tiled(16);  // one block
  EXPECT_EQ(counters_memory_estimate(p, 100000), counters_memory_estimate(p, 1));
  const LaunchCounters one = count_launch(p);
  p.cpu_workers = 100000;
  const LaunchCounters many = count_launch(p);
  EXPECT_EQ(many.events, one.events);
  EXPECT_EQ(many.peak_bytes, one.peak_bytes);
}

TEST(Counters, PastTheTraceLimitStillCounts) {
  RecordParams p = tiled(64);
  p.event_limit = 1000;  // a trace of this launch would be refused ...
  EXPECT_THROW(validate(p), RecordError);
  p.event_limit = 0;
  const std::uint64_t events = count_launch(p).events;
  p.event_limit = events / 2;  // ... and the counters (a few blocks' events) are not
  EXPECT_EQ(count_launch(p).events, events);
}

}  // namespace
}  // namespace ts
