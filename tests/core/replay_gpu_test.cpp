// The replay on GPU recordings (label gpu): the same highlights as on the
// emulator's (replay_checks.h) for every kernel, and the running sums
// reproduce what the GPU stored bit for bit, which on a GPU takes fused
// multiply-adds.
#include <gtest/gtest.h>

#include <string>

#include "kernels/catalog.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/recorder.h"
#include "tests/core/replay_checks.h"
#include "tests/kernels/kernel_cases.h"

namespace ts {
namespace {

class ReplayOnGpu : public ::testing::TestWithParam<std::tuple<KernelKind, int>> {
 protected:
  void SetUp() override {
    const gpu::DeviceStatus st = gpu::probe();
    if (!st.available) GTEST_SKIP() << "no GPU: " << st.reason;
  }
};

TEST_P(ReplayOnGpu, HighlightsAgreeWithTheRecordedEventsAndSumsMatchTheGpu) {
  const auto [kind, tile] = GetParam();
  const Trace t = test::record_on(DeviceChoice::Gpu, kind, tile, 37, 29, 45);
  ASSERT_TRUE(t.launch.recorded_on_gpu());
  test::expect_highlights_match_events(t, 2, 3);
  // Every cell's final sum, and which arithmetic reproduced it.
  const TraceIndex index(t);
  int fused = 0;
  for (std::uint32_t r = 0; r < 37; ++r)
    for (std::uint32_t c = 0; c < 29; ++c) {
      const auto h = highlight_cell(t, index, r, c, ReplayStep{ReplayTimeline(t.launch).iterations(), Phase::Store, 0});
      ASSERT_TRUE(h);
      ASSERT_TRUE(h->partial_matches_stored) << r << "," << c;
      fused += h->fused;
    }
  std::printf("%s TILE %d: %d of %d cells reproduced with fused multiply-adds\n",
              std::string(kernel_info(kind).name).c_str(), tile, fused, 37 * 29);
}

INSTANTIATE_TEST_SUITE_P(Kernels, ReplayOnGpu,
                         ::testing::Combine(::testing::ValuesIn(kAllKernels), ::testing::Values(4, 16, 32)),
                         [](const auto& info) {
                           return test::kernel_tile_name(std::get<0>(info.param), std::get<1>(info.param));
                         });

}  // namespace
}  // namespace ts
