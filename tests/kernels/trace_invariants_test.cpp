// What every recording must satisfy: event counts equal the closed forms,
// each thread's events run in program order, and no shared slot is read in
// the epoch that writes it or before anything wrote it.
#include <gtest/gtest.h>

#include <map>

#include "app/core/stats.h"
#include "app/core/trace_index.h"
#include "kernels/catalog.h"
#include "kernels/recorder.h"
#include "tests/kernels/kernel_cases.h"

namespace ts {
namespace {

using test::KernelCase;

Trace record_cpu(const KernelCase& c) { return record(c.params(DeviceChoice::Cpu)); }

std::vector<KernelCase> all_cases() {
  std::vector<KernelCase> cases = test::kernel_cases({2, 8, 16, 32}, {{64, 64, 64}, {37, 29, 45}});
  for (const KernelCase& c : test::rung_cases(test::rung_shapes())) cases.push_back(c);
  return cases;
}

class Invariants : public ::testing::TestWithParam<KernelCase> {};

TEST_P(Invariants, CountsMatchClosedForms) {
  const KernelCase c = GetParam();
  const Trace t = record_cpu(c);
  const TraceIndex index(t);
  const TraceCounts s = count_events(t, index);
  const EventCounts want = expected_counts(c.kind, c.tile, c.m, c.n, c.k);
  EXPECT_EQ(s.by_array[0][0], want.global_loads_a);
  EXPECT_EQ(s.by_array[1][0], want.global_loads_b);
  EXPECT_EQ(s.by_array[2][1], want.global_stores_c);
  EXPECT_EQ(s.by_array[2][0], 0u) << "no kernel reads C";
  EXPECT_EQ(s.by_array[3][1] + s.by_array[4][1], want.shared_stores);
  EXPECT_EQ(s.padding_stores, want.shared_padding_stores);
  EXPECT_EQ(s.by_array[3][0] + s.by_array[4][0], want.shared_loads);
  EXPECT_EQ(t.events.size(), want.total());
  // Every element of A is loaded from global memory the same number of times.
  EXPECT_EQ(s.a_loads_min, loads_per_a_element(c.kind, c.tile, c.m, c.n));
  EXPECT_EQ(s.a_loads_max, loads_per_a_element(c.kind, c.tile, c.m, c.n));
  EXPECT_EQ(s.b_loads_min, loads_per_b_element(c.kind, c.tile, c.m, c.n));
  EXPECT_EQ(s.b_loads_max, loads_per_b_element(c.kind, c.tile, c.m, c.n));
}

TEST_P(Invariants, ProgramOrderPerThread) {
  const KernelCase c = GetParam();
  const Trace t = record_cpu(c);
  for (std::uint64_t th = 0; th < t.thread_count(); ++th) {
    const auto ev = t.thread_events(th);
    // A pipeline's copies run ahead of its compute: their global loads are
    // stamped with the k-tile they load, not with the iteration issuing them.
    const bool loads_by_k = t.launch.iteration_rule.global_by_k != 0;
    const Event* last = nullptr;
    for (std::size_t i = 0; i < ev.size(); ++i) {
      if (i > 0) {
        ASSERT_LE(ev[i - 1].epoch, ev[i].epoch) << "thread " << th << " event " << i;
      }
      if (loads_by_k && ev[i].is_global_load()) continue;
      if (last) {
        ASSERT_LE(last->iter, ev[i].iter) << "thread " << th << " event " << i;
      }
      last = &ev[i];
    }
    for (std::size_t i = 0; i < ev.size(); ++i) {
      // A global load staged into shared memory is followed by that store: a
      // vector load's (or a cp.async's) w elements by w shared stores, in order.
      if (ev[i].is_global_load() && ev[i].lane_element() == 0 && kernel_info(c.kind).barriers_per_iteration > 0) {
        const std::size_t w = floats_of(ev[i].access_width());
        ASSERT_LE(i + 2 * w, ev.size());
        for (std::size_t j = 0; j < w; ++j) {
          const Event& store = ev[i + w + j];
          ASSERT_EQ(store.op(), Op::Store) << "thread " << th << " event " << i + w + j;
          ASSERT_EQ(store.space(), Space::Shared);
          ASSERT_EQ(store.value, ev[i + j].value);
          ASSERT_FALSE(store.is_padding());
        }
      }
    }
    // The store of C comes last, once the k-loop is over.
    if (!ev.empty() && ev.back().array_id() == ArrayId::C) {
      EXPECT_EQ(ev.back().iter, t.launch.iteration_rule.iterations);
    }
  }
}

class SharedInvariants : public ::testing::TestWithParam<KernelCase> {};

TEST_P(SharedInvariants, SlotsAreWrittenInAnEarlierEpochThanRead) {
  const KernelCase c = GetParam();
  const Trace t = record_cpu(c);
  const std::uint64_t per_block = t.launch.block.count();
  for (std::uint64_t block = 0; block < t.launch.grid.count(); ++block) {
    // slot -> (epoch -> value written); two writes of one slot in one epoch is a race.
    std::map<std::pair<int, std::uint32_t>, std::map<std::uint32_t, float>> writes;
    for (std::uint64_t th = block * per_block; th < (block + 1) * per_block; ++th)
      for (const Event& e : t.thread_events(th))
        if (e.space() == Space::Shared && e.op() == Op::Store) {
          auto& per_epoch = writes[{e.array, e.index}];
          ASSERT_EQ(per_epoch.count(e.epoch), 0u) << "two writes of one slot in epoch " << e.epoch;
          per_epoch[e.epoch] = e.value;
        }
    for (std::uint64_t th = block * per_block; th < (block + 1) * per_block; ++th)
      for (const Event& e : t.thread_events(th)) {
        if (e.space() != Space::Shared || e.op() != Op::Load) continue;
        const auto& per_epoch = writes[{e.array, e.index}];
        ASSERT_EQ(per_epoch.count(e.epoch), 0u) << "slot written and read in epoch " << e.epoch;
        auto it = per_epoch.lower_bound(e.epoch);
        ASSERT_NE(it, per_epoch.begin()) << "slot read at epoch " << e.epoch << " before any write";
        --it;
        ASSERT_EQ(it->second, e.value) << "read a value other than the last one written";
      }
  }
}

std::vector<KernelCase> shared_memory_cases() {
  std::vector<KernelCase> cases;
  for (const KernelCase& c : all_cases())
    if (kernel_info(c.kind).barriers_per_iteration > 0) cases.push_back(c);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Kernels, Invariants, ::testing::ValuesIn(all_cases()), test::kernel_case_name);
INSTANTIATE_TEST_SUITE_P(Kernels, SharedInvariants, ::testing::ValuesIn(shared_memory_cases()), test::kernel_case_name);

TEST(TiledCounts, EachBlockLoadsWholeTilesPerIteration) {
  // Inside the matrices, a block loads exactly TILE^2 elements of A and of B per iteration.
  for (int tile : {4, 16}) {
    const Trace t = record_cpu({KernelKind::Tiled, tile, 64, 64, 64});
    const TraceIndex index(t);
    for (std::uint32_t b = 0; b < t.launch.grid.count(); ++b)
      for (std::uint32_t it = 0; it < t.launch.iteration_rule.iterations; ++it)
        for (BufferRole arr : {BufferRole::A, BufferRole::B}) {
          const TileBox box = index.block_loads(b, it, arr);
          EXPECT_EQ(box.loads, std::uint64_t(tile) * tile);
          EXPECT_EQ(box.row1 - box.row0, std::uint32_t(tile));
          EXPECT_EQ(box.col1 - box.col0, std::uint32_t(tile));
        }
  }
}

TEST(TiledCounts, RaggedEdgesPadInsteadOfLoading) {
  const Trace t = record_cpu({KernelKind::Tiled, 16, 20, 20, 20});
  const TraceIndex index(t);
  // Block (1,1), iteration 1 covers rows/cols 16..31 of which 16..19 exist.
  const std::uint32_t block = 1 * t.launch.grid.x + 1;
  const TileBox a = index.block_loads(block, 1, BufferRole::A);
  EXPECT_EQ(a.loads, 16u);  // 4 rows x 4 columns inside A
  EXPECT_EQ(a.row0, 16u);
  EXPECT_EQ(a.row1, 20u);
}

}  // namespace
}  // namespace ts
