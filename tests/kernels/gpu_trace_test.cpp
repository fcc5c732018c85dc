// On a real GPU (label gpu): the instrumented kernel's trace equals the
// emulator's event for event, and the plain kernels compute the same C, for
// the textbook kernels at every TILE and for the ladder's recorded rungs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "trace/model/reference.h"
#include "kernels/catalog.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/recorder.h"
#include "tests/kernels/event_equality.h"
#include "tests/kernels/kernel_cases.h"
#include "tests/kernels/product_check.h"

namespace ts {
namespace {

using test::KernelCase;

class GpuTrace : public ::testing::TestWithParam<KernelCase> {
 protected:
  void SetUp() override {
    if (const std::string why = test::gpu_unavailable(GetParam()); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_P(GpuTrace, EqualsEmulatorEventForEvent) {
  const KernelCase c = GetParam();
  const RecordParams on_gpu = c.params(DeviceChoice::Gpu);  // a fresh seed, for both recordings
  const Trace g = record(on_gpu);
  const Trace e = record(c.params(DeviceChoice::Cpu, on_gpu.seed));
  ASSERT_EQ(g.launch.recorder, "gpu");
  ASSERT_EQ(g.a, e.a);
  ASSERT_EQ(g.thread_offsets, e.thread_offsets);
  std::uint64_t c_value_diffs = 0;
  ASSERT_NO_FATAL_FAILURE(test::expect_same_events(g, e, 1e-5f, &c_value_diffs));
  RecordProperty("c_stores_differing_in_last_bits", std::to_string(c_value_diffs));
  EXPECT_EQ(test::check_product(c.kind, g.a, g.b, g.c, c.m, c.n, c.k), "");
  // Every block ran somewhere, and its end follows its start.
  const gpu::DeviceStatus st = gpu::probe();
  ASSERT_EQ(g.block_timing.size(), g.launch.grid.count());
  for (const BlockTiming& b : g.block_timing) {
    EXPECT_LT(b.sm, std::uint32_t(st.sm_count) * 2);
    EXPECT_LE(b.start_ns, b.end_ns);
    EXPECT_GT(b.start_ns, 0u);
  }
}

TEST_P(GpuTrace, PlainKernelMatchesReference) {
  const KernelCase c = GetParam();
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> a(std::size_t(c.m) * c.k), b(std::size_t(c.k) * c.n), out(std::size_t(c.m) * c.n);
  for (auto& x : a) x = d(rng);
  for (auto& x : b) x = d(rng);
  gpu::run_plain(c.kind, c.tile, a.data(), b.data(), out.data(), c.m, c.n, c.k);
  EXPECT_EQ(test::check_product(c.kind, a, b, out, c.m, c.n, c.k), "");
}

INSTANTIATE_TEST_SUITE_P(Kernels, GpuTrace,
                         ::testing::ValuesIn(test::kernel_cases({2, 4, 8, 16, 32},
                                                                {{64, 64, 64}, {37, 29, 45}, {96, 130, 70}})),
                         test::kernel_case_name);

// The ladder's recorded rungs: square, non-square with ragged edges (multiples
// of 4, no multiple of a tile), a larger non-square one (tf32-tensor-core: 3 x 5
// blocks in its swizzled order, the last group of block rows one row high), and
// for the scalar rungs a shape with no multiple of 4 at all.
INSTANTIATE_TEST_SUITE_P(Rungs, GpuTrace,
                         ::testing::ValuesIn(test::rung_cases({{64, 64, 64}, {68, 132, 36}, {130, 260, 44}, {37, 29, 45}})),
                         test::kernel_case_name);

}  // namespace
}  // namespace ts
