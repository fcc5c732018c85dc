// The plain kernels' resources: the table in use (this build's ptxas, or the
// shipped data in a build without the CUDA Toolkit) complete for every
// recorded architecture, its shared memory equal to the catalog's closed form
// (ptxas and the catalog agree on what each kernel declares); the shipped
// data equal to what this build's compiler reports; the CSV read and refused.
#include "kernels/kernel_resources.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "trace/model/gpu_presets.h"
#include "kernels/catalog.h"

namespace ts {
namespace {

TEST(KernelResources, EveryKernelAndTileOnEveryRecordedArchitecture) {
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
  ASSERT_FALSE(compiled_resources().empty());
  const std::vector<int> arches = recorded_arches();
  for (const GpuPreset& p : gpu_presets())
    EXPECT_NE(std::find(arches.begin(), arches.end(), p.compute_capability), arches.end()) << p.short_name;
  for (int arch : binary_arches()) EXPECT_NE(std::find(arches.begin(), arches.end(), arch), arches.end()) << arch;
}

TEST(KernelResources, ResourcesForTheCalculator) {
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
  ASSERT_NE(find_compiled_resources(120, KernelKind::Tiled, 16), nullptr);
  const SmLimits sm = preset_limits(*find_gpu_preset("rtx5070ti"));
  const Occupancy t16 = compute_occupancy(sm, *compiled_kernel_resources(120, KernelKind::Tiled, 16));
  EXPECT_EQ(t16.blocks_per_sm, 6);
  EXPECT_DOUBLE_EQ(t16.occupancy, 1.0);
  const Occupancy t32 = compute_occupancy(sm, *compiled_kernel_resources(120, KernelKind::Tiled, 32));
  EXPECT_EQ(t32.blocks_per_sm, 1);
  EXPECT_NEAR(t32.occupancy, 2.0 / 3.0, 1e-12);
  EXPECT_EQ(t32.limiting_factor, OccupancyLimit::Threads);
}

// Seed 001's Hopper: TILE 16 eight blocks, TILE 32 two, both at full occupancy.
TEST(KernelResources, OwnTiledKernelOnTheH100) {
  const SmLimits sm = preset_limits(*find_gpu_preset("h100"));
  const Occupancy t16 = compute_occupancy(sm, *compiled_kernel_resources(90, KernelKind::Tiled, 16));
  EXPECT_EQ(t16.blocks_per_sm, 8);
  EXPECT_DOUBLE_EQ(t16.occupancy, 1.0);
  const Occupancy t32 = compute_occupancy(sm, *compiled_kernel_resources(90, KernelKind::Tiled, 32));
  EXPECT_EQ(t32.blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(t32.occupancy, 1.0);
}

std::string row_name(const CompiledResources& r) {
  return "sm_" + std::to_string(r.arch) + " " + std::string(kernel_info(r.kind).name) +
         (r.tile ? " TILE " + std::to_string(r.tile) : "");
}

// The data a build without the toolkit uses must be what the compiler says:
// in a CUDA build, every row of this build's ptxas table equals the shipped
// row, field by field, and the shipped data has no row the compiler lacks.
TEST(KernelResources, ShippedDataEqualsThisBuildsCompiler) {
  const ResourceTable& built = build_resource_table();
  const ResourceTable& shipped = shipped_resource_table();
  if (built.rows.empty()) GTEST_SKIP() << "built without the CUDA Toolkit: the shipped data (" << shipped.compiler
                                       << ") cannot be checked here";
  const std::string regenerate = "; regenerate it with `cmake --build BUILD --target kernel-resources-data` (data: " +
                                 shipped.compiler + ", " + shipped.taken + "; this build: " + built.compiler + ")";
  if (built.compiler != shipped.compiler)
    GTEST_SKIP() << "this build's compiler is not the one the data was taken with: not compared" << regenerate;
  for (const CompiledResources& r : built.rows) {
    const CompiledResources* s = find_resources_in(shipped, r.arch, r.kind, r.tile);
    if (!s) {
      // An architecture of this build's own beyond the presets' is not shipped.
      if (!find_resources_in(shipped, r.arch, KernelKind::Tiled, 16)) continue;
      ADD_FAILURE() << "kernels/kernel_resources.csv has no row for " << row_name(r) << regenerate;
      continue;
    }
    EXPECT_EQ(r.registers, s->registers) << row_name(r) << ": registers" << regenerate;
    EXPECT_EQ(r.static_shared_bytes, s->static_shared_bytes) << row_name(r) << ": static shared memory" << regenerate;
    EXPECT_EQ(r.stack_bytes, s->stack_bytes) << row_name(r) << ": local memory" << regenerate;
    EXPECT_EQ(r.spill_bytes, s->spill_bytes) << row_name(r) << ": spills" << regenerate;
    EXPECT_EQ(r.barriers, s->barriers) << row_name(r) << ": barriers" << regenerate;
    EXPECT_EQ(r.max_threads_per_block, s->max_threads_per_block) << row_name(r) << ": max threads" << regenerate;
  }
  for (const CompiledResources& s : shipped.rows)
    EXPECT_NE(find_resources_in(built, s.arch, s.kind, s.tile), nullptr)
        << "kernels/kernel_resources.csv has " << row_name(s) << ", which this build's compiler does not" << regenerate;
}

// The shipped data covers every preset's architecture, every kernel and
// TILE, and says which compiler and when.
TEST(KernelResources, ShippedDataCoversThePresets) {
  const ResourceTable& shipped = shipped_resource_table();
  EXPECT_TRUE(shipped.shipped);
  EXPECT_EQ(shipped.compiler.rfind("nvcc ", 0), 0u) << shipped.compiler;
  EXPECT_EQ(shipped.taken.size(), 10u) << shipped.taken;  // YYYY-MM-DD
  for (const GpuPreset& p : gpu_presets()) {
    for (KernelKind kind : kAllKernels)
      for (int tile : kAllTiles)
        EXPECT_NE(find_resources_in(shipped, p.compute_capability, kind, tile), nullptr)
            << p.short_name << " " << kernel_info(kind).name << " TILE " << tile;
    for (KernelKind kind : kRungKernels)
      EXPECT_NE(find_resources_in(shipped, p.compute_capability, kind, 0), nullptr)
          << p.short_name << " " << kernel_info(kind).name;
  }
  for (const CompiledResources& r : shipped.rows) {
    EXPECT_GT(r.max_threads_per_block, 0) << row_name(r);
    EXPECT_LE(r.max_threads_per_block, max_block_threads(r.kind)) << row_name(r);
  }
}

TEST(KernelResources, CsvReadsBackWhatItWrites) {
  ResourceTable t;
  t.compiler = "nvcc 13.0.88";
  t.taken = "2026-11-28";
  t.rows = {{90, KernelKind::Tiled, 32, 30, 8192, 1, 0, 0, 1024}, {120, KernelKind::Warptile, 0, 128, 16384, 1, 8, 4, 256}};
  const ResourceTable back = parse_resource_csv(resource_csv(t));
  EXPECT_EQ(back.compiler, t.compiler);
  EXPECT_EQ(back.taken, t.taken);
  ASSERT_EQ(back.rows.size(), 2u);
  EXPECT_EQ(back.rows[0], t.rows[0]);
  EXPECT_EQ(back.rows[1], t.rows[1]);
}

TEST(KernelResources, CsvRefusesWhatItCannotRead) {
  const std::string head = "# compiler: nvcc 13.0.88\n# taken: 2026-11-28\n"
      "arch,kernel,tile,registers,static_shared_bytes,local_bytes,spill_bytes,barriers,max_threads_per_block\n";
  const auto refusal = [](const std::string& text) {
    try {
      parse_resource_csv(text);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(refusal(head + "90,fancy,16,30,2048,0,0,1,1024\n").find("unknown kernel 'fancy'"), std::string::npos);
  EXPECT_NE(refusal(head + "90,tiled,16,30,2048\n").find("5 fields"), std::string::npos);
  EXPECT_NE(refusal(head + "90,tiled,16,-3,2048,0,0,1,1024\n").find("line 4"), std::string::npos);
  EXPECT_NE(refusal(head + "90,tiled,16,3x,2048,0,0,1,1024\n").find("'3x'"), std::string::npos);
  EXPECT_NE(refusal("arch,kernel\n").find("columns"), std::string::npos);
  EXPECT_NE(refusal("").find("no column line"), std::string::npos);
  EXPECT_NE(refusal(head.substr(head.find("# taken"))).find("compiler"), std::string::npos);
}

// cudaFuncGetAttributes' maxThreadsPerBlock from the registers: warps get
// registers in units of 256, a block's warps spread over four sub-partitions.
TEST(KernelResources, MaxThreadsFromRegisters) {
  SmLimits sm;
  ASSERT_TRUE(limits_for_compute_capability(90, sm));
  EXPECT_EQ(max_threads_for_registers(sm, 32, 1024), 1024);
  EXPECT_EQ(max_threads_for_registers(sm, 64, 1024), 1024);
  EXPECT_EQ(max_threads_for_registers(sm, 72, 1024), 896);   // 2304 a warp: 28 warps
  EXPECT_EQ(max_threads_for_registers(sm, 128, 1024), 512);
  EXPECT_EQ(max_threads_for_registers(sm, 255, 1024), 256);  // 8192 a warp: 8 warps
  EXPECT_EQ(max_threads_for_registers(sm, 40, 256), 256);    // __launch_bounds__(256)
}

}  // namespace
}  // namespace ts
