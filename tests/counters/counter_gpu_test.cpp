// The GPU's whole-launch counters (the counting build of the kernels) against
// the same launch's counters from the emulator and from a GPU trace: every
// kernel at TILE 16 and 32, a square, a non-square and a ragged shape.
#include <gtest/gtest.h>

#include "trace/model/reference.h"
#include "app/core/stats.h"
#include "app/core/trace_index.h"
#include "app/counters/counter.h"
#include "tests/kernels/kernel_cases.h"
#include "tests/kernels/product_check.h"

namespace ts {
namespace {

using test::KernelCase;

// The counters both sides count the same way (the GPU has no per-slot reuse
// and no lane realignment to report).
nlohmann::json shared_keys(const TraceStats& s) {
  nlohmann::json j = memory_counters_json(s.memory);
  for (int a = 0; a < kArrayCount; ++a)
    for (int op = 0; op < 2; ++op) {
      const AccessTotals& t = s.memory.by_array[a][op];
      const std::string key = std::string(array_name(static_cast<ArrayId>(a))) + "_" + op_name(static_cast<Op>(op));
      j[key] = {{"accesses", t.accesses}, {"ideal_sectors", t.ideal_sectors}, {"broadcast_lanes", t.broadcast_lanes},
                {"histogram", t.histogram}};
    }
  j["padding_stores"] = s.counts.padding_stores;
  j["global_bytes_loaded"] = s.reuse.global_bytes_loaded;
  j["shared_staged_values"] = s.reuse.staged_values;
  j["loads_per_element"] = {s.reuse.a_min, s.reuse.a_max, s.reuse.b_min, s.reuse.b_max};
  return j;
}

class CountersOnGpu : public ::testing::TestWithParam<KernelCase> {
 protected:
  void SetUp() override {
    if (const std::string why = test::gpu_unavailable(GetParam()); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_P(CountersOnGpu, EqualTheEmulatorsAndTheGpuTraces) {
  const KernelCase c = GetParam();
  RecordParams p = c.params(DeviceChoice::Gpu);
  const LaunchCounters gpu = count_launch(p);
  ASSERT_TRUE(gpu.launch.recorded_on_gpu());
  EXPECT_EQ(gpu.split_requests, 0u) << "a warp had more partial requests open than it keeps";
  p.seed = gpu.launch.seed;
  RecordParams cpu = p;
  cpu.device = DeviceChoice::Cpu;
  const LaunchCounters emulated = count_launch(cpu);
  EXPECT_EQ(shared_keys(gpu.stats), shared_keys(emulated.stats))
      << nlohmann::json::diff(shared_keys(emulated.stats), shared_keys(gpu.stats)).dump(1);
  const Trace trace = record(p);
  const TraceIndex index(trace);
  EXPECT_EQ(shared_keys(gpu.stats), shared_keys(compute_stats(trace, index)));
  Trace inputs = prepare_launch(p);
  EXPECT_EQ(test::check_product(c.kind, inputs.a, inputs.b, gpu.c, c.m, c.n, c.k), "");
}

INSTANTIATE_TEST_SUITE_P(AllKernels, CountersOnGpu,
                         ::testing::ValuesIn(test::kernel_cases({16, 32}, {{64, 64, 64}, {48, 80, 32}, {37, 29, 45}})),
                         test::kernel_case_name);
INSTANTIATE_TEST_SUITE_P(Rungs, CountersOnGpu, ::testing::ValuesIn(test::rung_cases(test::rung_shapes())),
                         test::kernel_case_name);

}  // namespace
}  // namespace ts
