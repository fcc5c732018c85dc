// On a real GPU (label gpu): the calculator against the CUDA occupancy API
// for every kernel and TILE and every rung of the ladder, with the GPU's own
// limits and with the preset's; the build-time resource table against
// cudaFuncGetAttributes; the preset's documented limits against
// cudaDeviceProp; and the timing recorder's
// timeline against the occupancy it must respect.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <utility>

#include "trace/model/gpu_presets.h"
#include "app/core/timeline.h"
#include "kernels/catalog.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/cuda/plain_kernels.cuh"
#include "kernels/kernel_resources.h"
#include "tests/kernels/kernel_cases.h"

namespace ts {
namespace {

struct Case {
  KernelKind kind;
  int tile;
};

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (KernelKind kind : kAllKernels)
    for (int tile : kAllTiles) cases.push_back({kind, tile});
  for (KernelKind kind : kRungKernels) cases.push_back({kind, 0});  // fixed tiles
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return test::kernel_tile_name(info.param.kind, info.param.tile);
}

// The preset of this GPU's kind: same compute capability and SM count (an H200 and an H100 SXM share both).
std::optional<GpuPreset> matching_preset(const SmLimits& live) {
  for (const GpuPreset& p : gpu_presets())
    if (p.compute_capability == live.compute_capability && p.sm_count == live.sm_count) return p;
  return std::nullopt;
}

class OccupancyGpu : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const gpu::DeviceStatus st = gpu::probe();
    ASSERT_TRUE(st.available) << st.reason;
  }
};

TEST_P(OccupancyGpu, CalculatorEqualsTheOccupancyApi) {
  const auto [kind, tile] = GetParam();
  const SmLimits live = gpu::live_sm_limits();
  const gpu::LiveKernelOccupancy k = gpu::live_plain_occupancy(kind, tile);
  const Occupancy o = compute_occupancy(live, k.resources);
  EXPECT_EQ(o.blocks_per_sm, k.api_blocks_per_sm)
      << "registers " << k.resources.registers_per_thread << ", shared " << k.resources.static_shared_bytes
      << ", limiting " << limit_name(o.limiting_factor);
  EXPECT_GT(k.api_blocks_per_sm, 0);
}

TEST_P(OccupancyGpu, PresetAndBuildTimeTableEqualTheRuntime) {
  const auto [kind, tile] = GetParam();
  const SmLimits live = gpu::live_sm_limits();
  const gpu::LiveKernelOccupancy k = gpu::live_plain_occupancy(kind, tile);
  const CompiledResources* table = find_compiled_resources(k.binary_arch, kind, tile);
  ASSERT_NE(table, nullptr) << "no build-time entry for sm_" << k.binary_arch;
  EXPECT_EQ(table->registers, k.resources.registers_per_thread);
  EXPECT_EQ(table->static_shared_bytes, k.resources.static_shared_bytes);
  EXPECT_EQ(table->stack_bytes, k.local_bytes);
  EXPECT_EQ(table->max_threads_per_block, k.max_threads_per_block);
  // The shipped data (what a build without the toolkit uses) says the same.
  const CompiledResources* shipped = find_resources_in(shipped_resource_table(), k.binary_arch, kind, tile);
  ASSERT_NE(shipped, nullptr) << "no shipped entry for sm_" << k.binary_arch;
  EXPECT_EQ(shipped->registers, k.resources.registers_per_thread);
  EXPECT_EQ(shipped->static_shared_bytes, k.resources.static_shared_bytes);
  EXPECT_EQ(shipped->stack_bytes, k.local_bytes);
  EXPECT_EQ(shipped->max_threads_per_block, k.max_threads_per_block);
  const auto preset = matching_preset(live);
  ASSERT_TRUE(preset.has_value()) << "no preset with compute capability " << live.compute_capability << " and "
                                  << live.sm_count << " SMs";
  const Occupancy from_preset =
      compute_occupancy(preset_limits(*preset), *compiled_kernel_resources(live.compute_capability, kind, tile));
  EXPECT_EQ(from_preset.blocks_per_sm, k.api_blocks_per_sm) << preset->short_name;
}

// The shared-memory carve-out: a preferred percentage rounds up to a step,
// and the calculator must follow the API through every step.
TEST_P(OccupancyGpu, CarveoutPreferenceFollowsTheApi) {
  const auto [kind, tile] = GetParam();
  const SmLimits live = gpu::live_sm_limits();
  const void* fn = gpu::plain_kernel_entry(kind, tile);
  const gpu::LiveKernelOccupancy k = gpu::live_plain_occupancy(kind, tile);
  for (int percent : {0, 3, 10, 25, 50, 75, 100}) {
    ASSERT_EQ(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, percent), cudaSuccess);
    int api = -1;
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, fn, k.resources.threads_per_block, 0), cudaSuccess);
    const int bytes = static_cast<int>(static_cast<long long>(percent) * live.shared_per_sm / 100);
    EXPECT_EQ(compute_occupancy(live, k.resources, bytes).blocks_per_sm, api) << percent << "% carve-out";
  }
  ASSERT_EQ(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1), cudaSuccess);
}

INSTANTIATE_TEST_SUITE_P(EveryKernelAndTile, OccupancyGpu, ::testing::ValuesIn(all_cases()), case_name);

TEST(OccupancyGpuDevice, PresetLimitsAreTheRuntimes) {
  ASSERT_TRUE(gpu::probe().available);
  const SmLimits live = gpu::live_sm_limits();
  SmLimits doc;
  ASSERT_TRUE(limits_for_compute_capability(live.compute_capability, doc)) << live.compute_capability;
  EXPECT_EQ(doc.max_threads_per_sm, live.max_threads_per_sm);
  EXPECT_EQ(doc.max_blocks_per_sm, live.max_blocks_per_sm);
  EXPECT_EQ(doc.registers_per_sm, live.registers_per_sm);
  EXPECT_EQ(doc.max_registers_per_block, live.max_registers_per_block);
  EXPECT_EQ(doc.shared_per_sm, live.shared_per_sm);
  EXPECT_EQ(doc.max_shared_per_block, live.max_shared_per_block);
  EXPECT_EQ(doc.max_shared_per_block_optin, live.max_shared_per_block_optin);
  EXPECT_EQ(doc.reserved_shared_per_block, live.reserved_shared_per_block);
  EXPECT_TRUE(matching_preset(live).has_value());
}

// The timing recorder: every block accounted for, on a real SM, C right, and
// no SM ever holding more blocks than the occupancy API allows; with many
// waves, some SM is full.
TEST(OccupancyGpuDevice, TimelineRespectsTheOccupancyBound) {
  ASSERT_TRUE(gpu::probe().available);
  for (int tile : {16, 32}) {
    const TimingRecording r = gpu::record_timing(KernelKind::Tiled, tile, 2048, 2048, 512, 0);
    EXPECT_EQ(r.blocks.size(), launch_shape(KernelKind::Tiled, tile, 2048, 2048).grid.count());
    EXPECT_LE(r.worst_error_to_bound, 1.0);
    EXPECT_GT(r.elapsed_ms, 0.0);
    for (const BlockTiming& b : r.blocks) ASSERT_LT(b.sm, static_cast<std::uint32_t>(r.sm_count));
    const SmLimits live = gpu::live_sm_limits();
    EXPECT_EQ(compute_occupancy(live, r.timed_kernel).blocks_per_sm, r.api_blocks_per_sm);
    const Timeline tl = build_timeline(r.blocks, {r.sm_count, r.warps_per_block(), r.max_warps_per_sm, r.api_blocks_per_sm});
    EXPECT_LE(tl.max_coresident, static_cast<std::uint32_t>(r.api_blocks_per_sm)) << "TILE " << tile;
    EXPECT_EQ(tl.max_coresident, static_cast<std::uint32_t>(r.api_blocks_per_sm)) << "TILE " << tile;
    EXPECT_EQ(tl.sms_used, static_cast<std::uint32_t>(r.sm_count));
    EXPECT_GT(tl.achieved_occupancy, 0.0);
    EXPECT_LE(tl.achieved_occupancy, 1.0 + 1e-9);
  }
}

// A timing recording describes its launch as the trace recorders do: a rung's
// block, warp and thread tiles (the titles and the timeline show them), a
// textbook kernel's TILE x TILE blocks.
TEST(OccupancyGpuDevice, TimingRecordingsCarryTheKernelsTiling) {
  ASSERT_TRUE(gpu::probe().available);
  for (const auto& [kind, tile] : {std::pair{KernelKind::Tiled, 16}, std::pair{KernelKind::DoubleBuffer, 16},
                                   std::pair{KernelKind::Blocktile2d, 16}}) {
    const TimingRecording r = gpu::record_timing(kind, tile, 512, 256, 128, 0);
    EXPECT_EQ(r.launch.tiling, kernel_tiling(kind, tile)) << r.launch.kernel;
    EXPECT_GT(r.launch.tiling.block_m, 0u) << r.launch.kernel;
  }
}

}  // namespace
}  // namespace ts
