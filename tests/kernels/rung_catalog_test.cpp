// The ladder's recorded rungs in the catalog: fixed configurations that ignore
// TILE, sizes refused up front with the rule, the tiling the launch carries,
// the ladder's order, and the register tile of a thread read back from its
// events alone (which cells of C it owns, which shared values enter its
// registers at each k).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "app/core/launch_json.h"
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

}  // namespace
}  // namespace ts
