// The build-time table of the plain kernels' resources: complete for every
// recorded architecture, and its shared memory equal to the catalog's closed
// form (ptxas and the catalog agree on what each kernel declares).
#include "kernels/kernel_resources.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "app/core/gpu_presets.h"
#include "kernels/catalog.h"

namespace ts {
namespace {

TEST(KernelResources, EveryKernelAndTileOnEveryRecordedArchitecture) {
  if (compiled_resources().empty()) GTEST_SKIP() << "built without the CUDA Toolkit: no resource table";
  for (int arch : recorded_arches())
    for (KernelKind kind : kAllKernels)
      for (int tile : kAllTiles) {
        const CompiledResources* r = find_compiled_resources(arch, kind, tile);
        ASSERT_NE(r, nullptr) << "sm_" << arch << " " << kernel_info(kind).name << " TILE " << tile;
        EXPECT_GT(r->registers, 0);
        EXPECT_LE(r->registers, 255);
        EXPECT_EQ(r->static_shared_bytes, static_cast<int>(shared_bytes(kind, tile)))
            << "sm_" << arch << " " << kernel_info(kind).name << " TILE " << tile;
        EXPECT_EQ(r->barriers, is_naive(kind) ? 0 : 1);
        EXPECT_EQ(r->spill_bytes, 0) << "a plain kernel spills on sm_" << arch;
      }
  // Two naive entries (their block edge is a run-time value), 4 x 5 tiled ones and one per rung, per architecture.
  EXPECT_EQ(compiled_resources().size(),
            recorded_arches().size() * (2 + 4 * std::size(kAllTiles) + std::size(kRungKernels)));
}

// The ladder's rungs: one entry each (fixed tiles), found whatever TILE is
// asked, with the shared memory of the configuration the app records and the
// block its launch uses; the TF32 rung says it needs compute capability 8.0.
TEST(KernelResources, EveryRungOnEveryRecordedArchitecture) {
  if (compiled_resources().empty()) GTEST_SKIP() << "built without the CUDA Toolkit: no resource table";
  for (int arch : recorded_arches())
    for (KernelKind kind : kRungKernels) {
      const std::string what = "sm_" + std::to_string(arch) + " " + std::string(kernel_info(kind).name);
      const CompiledResources* r = find_compiled_resources(arch, kind, 16);
      ASSERT_NE(r, nullptr) << what;
      EXPECT_EQ(r, find_compiled_resources(arch, kind, 2)) << what;
      EXPECT_EQ(r->tile, 0) << what;
      EXPECT_GT(r->registers, 0) << what;
      EXPECT_LE(r->registers, 255) << what;
      EXPECT_EQ(r->static_shared_bytes, static_cast<int>(shared_bytes(kind, 0))) << what;
      EXPECT_EQ(r->barriers, 1) << what;
      // ptxas of CUDA 13.0 for sm_120 keeps 8 bytes of blocktile-1d on the stack (at 40 registers): the one spill.
      if (!(arch == 120 && kind == KernelKind::Blocktile1d)) {
        EXPECT_EQ(r->spill_bytes, 0) << what;
      }
      const auto k = compiled_kernel_resources(arch, kind, 32);
      ASSERT_TRUE(k.has_value()) << what;
      EXPECT_EQ(k->threads_per_block, rung_config(kind).threads) << what;
      EXPECT_EQ(k->min_compute_capability, rung_config(kind).tf32 ? 80 : 0) << what;
    }
}

TEST(KernelResources, CoversEveryPresetAndTheBinary) {
  if (compiled_resources().empty()) GTEST_SKIP() << "built without the CUDA Toolkit: no resource table";
  const std::vector<int> arches = recorded_arches();
  for (const GpuPreset& p : gpu_presets())
    EXPECT_NE(std::find(arches.begin(), arches.end(), p.compute_capability), arches.end()) << p.short_name;
  for (int arch : binary_arches()) EXPECT_NE(std::find(arches.begin(), arches.end(), arch), arches.end()) << arch;
}

TEST(KernelResources, ResourcesForTheCalculator) {
  if (compiled_resources().empty()) GTEST_SKIP() << "built without the CUDA Toolkit: no resource table";
  const auto k = compiled_kernel_resources(90, KernelKind::Tiled, 32);
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(k->threads_per_block, 1024);
  EXPECT_EQ(k->static_shared_bytes, 8192);
  EXPECT_NE(k->source.find("sm_90"), std::string::npos);
  const auto naive = compiled_kernel_resources(90, KernelKind::Naive, 8);
  ASSERT_TRUE(naive.has_value());
  EXPECT_EQ(naive->threads_per_block, 64);
  EXPECT_FALSE(compiled_kernel_resources(61, KernelKind::Tiled, 16).has_value());
}

// Seed 001 with tilescope's own kernel as compiled for sm_120: TILE=16 at
// full occupancy on the RTX 5070 Ti, TILE=32 at two thirds, one block.
TEST(KernelResources, OwnTiledKernelReproducesSeed001OnTheRtx5070Ti) {
  if (!find_compiled_resources(120, KernelKind::Tiled, 16)) GTEST_SKIP() << "no sm_120 entry in this build";
  const SmLimits sm = preset_limits(*find_gpu_preset("rtx5070ti"));
  const Occupancy t16 = compute_occupancy(sm, *compiled_kernel_resources(120, KernelKind::Tiled, 16));
  EXPECT_EQ(t16.blocks_per_sm, 6);
  EXPECT_DOUBLE_EQ(t16.occupancy, 1.0);
  const Occupancy t32 = compute_occupancy(sm, *compiled_kernel_resources(120, KernelKind::Tiled, 32));
  EXPECT_EQ(t32.blocks_per_sm, 1);
  EXPECT_NEAR(t32.occupancy, 2.0 / 3.0, 1e-12);
  EXPECT_EQ(t32.limiting_factor, OccupancyLimit::Threads);
}

}  // namespace
}  // namespace ts
