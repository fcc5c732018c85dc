// On a real GPU (label gpu): a focused trace recorded on the GPU (only the
// chosen blocks run the instrumented kernel) equals the emulator's focused
// trace of the same blocks event for event — at ragged sizes for every kernel,
// and at N = 4096, where a full trace could not be held.
#include <gtest/gtest.h>

#include <chrono>
#include <algorithm>
#include <cmath>

#include "kernels/cuda/gpu_runtime.h"
#include "kernels/focused.h"
#include "tests/kernels/event_equality.h"
#include "tests/kernels/kernel_cases.h"

namespace ts {
namespace {

using test::KernelCase;

void expect_same_focused_traces(const Trace& g, const Trace& e) {
  const float tolerance = 1e-5f * std::max(1.0f, std::sqrt(static_cast<float>(g.launch.k) / 64.0f));
  ASSERT_EQ(g.launch.recorder, "gpu");
  ASSERT_EQ(e.launch.recorder, "emulator");
  ASSERT_EQ(g.launch.traced_blocks, e.launch.traced_blocks);
  ASSERT_EQ(g.thread_offsets, e.thread_offsets);
  ASSERT_NO_FATAL_FAILURE(test::expect_same_events(g, e, tolerance));
  // The traced blocks' cells are computed, the others stay NaN (poisoned).
  std::size_t written = 0;
  for (std::size_t i = 0; i < g.c.size(); ++i) {
    ASSERT_EQ(std::isnan(g.c[i]), std::isnan(e.c[i])) << "cell " << i;
    written += !std::isnan(g.c[i]);
  }
  EXPECT_GT(written, 0u);
}

class FocusedOnGpu : public ::testing::TestWithParam<KernelCase> {
 protected:
  void SetUp() override {
    if (const std::string why = test::gpu_unavailable(GetParam()); !why.empty()) GTEST_SKIP() << why;
  }
};

// The first, a middle and the last block (an edge block at a ragged size).
std::vector<std::uint32_t> some_blocks(const RecordParams& p) {
  const std::uint64_t n = launch_shape(p.kernel, p.tile, p.m, p.n).grid.count();
  std::vector<std::uint32_t> b{0, static_cast<std::uint32_t>(n / 2), static_cast<std::uint32_t>(n - 1)};
  b.erase(std::unique(b.begin(), b.end()), b.end());
  return b;
}

TEST_P(FocusedOnGpu, EqualsTheEmulatorsFocusedTrace) {
  const KernelCase c = GetParam();
  const RecordParams on_gpu = c.params(DeviceChoice::Gpu);
  const auto blocks = some_blocks(on_gpu);
  auto seconds_since = [](auto t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  auto t0 = std::chrono::steady_clock::now();
  const Trace g = record_focused(on_gpu, blocks);
  const double gpu_s = seconds_since(t0);
  // Once more, warm, on the same GPU buffers: what a second click costs; and the inputs alone.
  t0 = std::chrono::steady_clock::now();
  record_focused(c.params(DeviceChoice::Gpu, g.launch.seed), {blocks.back()});
  const double warm_one_block_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  prepare_launch(on_gpu);
  const double inputs_s = seconds_since(t0);
  const Trace e = record_focused(c.params(DeviceChoice::Cpu, g.launch.seed), blocks);
  expect_same_focused_traces(g, e);
  RecordProperty("gpu_seconds", std::to_string(gpu_s));
  RecordProperty("gpu_seconds_one_block_warm", std::to_string(warm_one_block_s));
  RecordProperty("inputs_seconds", std::to_string(inputs_s));
  RecordProperty("events", std::to_string(g.events.size()));
}

std::vector<KernelCase> cases() {
  auto v = test::kernel_cases({16, 32}, {{37, 29, 45}, {64, 96, 48}});
  // Real size: one block of each kernel at N = 4096, where a full trace is refused.
  for (KernelKind kind : kAllKernels) v.push_back({kind, 16, 4096, 4096, 4096});
  v.push_back({KernelKind::Tiled, 32, 4096, 4096, 4096});
  // The rungs at a ragged non-square shape (tf32-tensor-core's blocks in their
  // swizzled order: block 1 is the second block row's), and tf32-tensor-core at N = 4096.
  for (const KernelCase& c : test::rung_cases({{130, 260, 44}})) v.push_back(c);
  v.push_back({KernelKind::Tf32TensorCore, 0, 4096, 4096, 4096});
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllKernels, FocusedOnGpu, ::testing::ValuesIn(cases()), test::kernel_case_name);

}  // namespace
}  // namespace ts
