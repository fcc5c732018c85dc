// The occupancy calculator: seed 001's RTX 5070 Ti table, one hand-checked
// case per limit, and the presets.
#include "trace/model/occupancy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "trace/model/gpu_presets.h"

namespace ts {
namespace {

constexpr int kKiB = 1024;

SmLimits preset(const char* name) {
  const auto p = find_gpu_preset(name);
  EXPECT_TRUE(p.has_value()) << name;
  return preset_limits(*p);
}

KernelResources kernel(int threads, int registers, int static_shared, int dynamic_shared = 0, int barriers = 1) {
  KernelResources k;
  k.threads_per_block = threads;
  k.registers_per_thread = registers;
  k.static_shared_bytes = static_shared;
  k.dynamic_shared_bytes = dynamic_shared;
  k.barriers = barriers;
  return k;
}

// Seed 001 profiles its tiled kernel on an RTX 5070 Ti (compute capability
// 12.0): TILE=16 at 99.71 % achieved occupancy with Block Limit Registers 6
// and Block Limit Shared Mem 21 (static shared 2.05 KB, shared memory
// configuration 65.54 KB); TILE=32 at 66.72 % with both limits 1 (8.19 KB
// static, configuration 16.38 KB). The seed does not print registers per
// thread; a limit of 6 blocks of 256 threads means 33 to 40, so every count
// in that range must reproduce the table.
TEST(OccupancySeed001, Tile16RunsAtFullOccupancy) {
  const SmLimits sm = preset("rtx5070ti");
  for (int regs = 33; regs <= 40; ++regs) {
    const Occupancy o = compute_occupancy(sm, kernel(256, regs, 2048), 64 * kKiB);
    EXPECT_EQ(o.by_registers, 6) << regs;
    EXPECT_EQ(o.by_shared, 21) << regs;  // 65536 / (2048 + 1024 reserved)
    EXPECT_EQ(o.by_threads, 6);
    EXPECT_EQ(o.blocks_per_sm, 6);
    EXPECT_EQ(o.active_warps_per_sm, 48);
    EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
  }
  // 41 registers would already cost a block: the table pins the range.
  EXPECT_EQ(compute_occupancy(sm, kernel(256, 41, 2048)).by_registers, 5);
  EXPECT_EQ(compute_occupancy(sm, kernel(256, 32, 2048)).by_registers, 8);
}

TEST(OccupancySeed001, Tile32RunsAtTwoThirdsWithOneBlock) {
  const SmLimits sm = preset("rtx5070ti");
  for (int regs = 33; regs <= 40; ++regs) {
    const Occupancy o = compute_occupancy(sm, kernel(1024, regs, 8192), 16 * kKiB);
    EXPECT_EQ(o.by_registers, 1) << regs;
    EXPECT_EQ(o.by_shared, 1) << regs;  // 16384 / (8192 + 1024)
    EXPECT_EQ(o.blocks_per_sm, 1);
    EXPECT_EQ(o.active_warps_per_sm, 32);
    EXPECT_NEAR(o.occupancy, 2.0 / 3.0, 1e-12);
    EXPECT_EQ(o.limiting_factor, OccupancyLimit::Threads);  // 1536 / 1024: one 1024-thread block
  }
  // The seed's 16.38 KB configuration is the smallest carve-out that holds the one block.
  const Occupancy o = compute_occupancy(sm, kernel(1024, 38, 8192));
  EXPECT_EQ(o.smallest_sufficient_carveout, 16 * kKiB);
  EXPECT_EQ(o.by_shared, 11);  // with the whole 100 KiB, as the occupancy API assumes
}

TEST(OccupancyLimits, ThreadsAndWarps) {
  const SmLimits h100 = preset("h100");
  EXPECT_EQ(h100.max_warps_per_sm(), 64);
  const Occupancy big = compute_occupancy(h100, kernel(1024, 32, 0));
  EXPECT_EQ(big.by_threads, 2);
  EXPECT_EQ(big.blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(big.occupancy, 1.0);
  // A 4-thread block (TILE=2) still takes a whole warp slot: threads would
  // allow 512 blocks, warps 64, and the 32-block limit binds at half occupancy.
  const Occupancy tiny = compute_occupancy(h100, kernel(4, 32, 0));
  EXPECT_EQ(tiny.by_threads, 512);
  EXPECT_EQ(tiny.by_warps, 64);
  EXPECT_EQ(tiny.blocks_per_sm, 32);
  EXPECT_EQ(tiny.limiting_factor, OccupancyLimit::Blocks);
  EXPECT_EQ(tiny.active_warps_per_sm, 32);
  EXPECT_DOUBLE_EQ(tiny.occupancy, 0.5);
  // 48 threads = 2 warps, 1.5 warps' worth of threads.
  const Occupancy odd = compute_occupancy(h100, kernel(48, 16, 0));
  EXPECT_EQ(odd.warps_per_block, 2);
  EXPECT_EQ(odd.by_warps, 32);
  EXPECT_EQ(odd.by_threads, 42);
}

TEST(OccupancyLimits, RegistersRoundPerWarpAndPerSubPartition) {
  const SmLimits h100 = preset("h100");
  // 33 registers: 1056 per warp, allocated as 1280; 12 warps per quarter, 48
  // per SM, 6 blocks of 8 warps (without the rounding it would be 7).
  const Occupancy o = compute_occupancy(h100, kernel(256, 33, 0));
  EXPECT_EQ(o.registers_per_warp, 1280);
  EXPECT_EQ(o.registers_per_block, 10240);
  EXPECT_EQ(o.by_registers, 6);
  EXPECT_EQ(o.limiting_factor, OccupancyLimit::Registers);
  EXPECT_DOUBLE_EQ(o.occupancy, 48.0 / 64.0);
  // 3-warp blocks at 40 registers: 12 warps per quarter -> 48 warps -> 16
  // blocks; dividing the whole file (65536 / 3840) would say 17.
  EXPECT_EQ(compute_occupancy(h100, kernel(96, 40, 0)).by_registers, 16);
  EXPECT_EQ(compute_occupancy(h100, kernel(256, 64, 0)).by_registers, 4);
  EXPECT_EQ(compute_occupancy(h100, kernel(256, 0, 0)).by_registers, Occupancy::kUnlimited);
}

TEST(OccupancyLimits, RegistersOverTheBlockLimitDoNotLaunch) {
  const SmLimits h100 = preset("h100");
  // 65 registers: 2080 per warp -> 2304 allocated; 32 warps need 73728 > 65536.
  const Occupancy o = compute_occupancy(h100, kernel(1024, 65, 0));
  EXPECT_EQ(o.by_registers, 0);
  EXPECT_EQ(o.blocks_per_sm, 0);
  EXPECT_DOUBLE_EQ(o.occupancy, 0.0);
  EXPECT_NE(o.unlaunchable.find("registers"), std::string::npos) << o.unlaunchable;
  EXPECT_EQ(compute_occupancy(h100, kernel(1024, 64, 0)).blocks_per_sm, 1);
  EXPECT_EQ(compute_occupancy(h100, kernel(32, 256, 0)).by_registers, 0);  // over 255 per thread
}

TEST(OccupancyLimits, SharedMemoryWithReserveUnitAndCarveout) {
  const SmLimits h100 = preset("h100");
  // 48 KiB static + 1 KiB reserve = 50176 bytes; 228 KiB hold 4 blocks.
  Occupancy o = compute_occupancy(h100, kernel(128, 32, 48 * kKiB));
  EXPECT_EQ(o.shared_per_block, 50176);
  EXPECT_EQ(o.by_shared, 4);
  EXPECT_EQ(o.limiting_factor, OccupancyLimit::SharedMemory);
  EXPECT_EQ(o.shared_per_sm, 228 * kKiB);
  EXPECT_EQ(o.smallest_sufficient_carveout, 196 * kKiB);  // 200704 / 50176 = 4 exactly
  // A preferred 100 KiB carve-out holds 2; 20 KiB rounds up to the 32 KiB
  // step, which cannot hold one block, so the step that can (64 KiB) is used.
  EXPECT_EQ(compute_occupancy(h100, kernel(128, 32, 48 * kKiB), 100 * kKiB).by_shared, 2);
  o = compute_occupancy(h100, kernel(128, 32, 48 * kKiB), 20 * kKiB);
  EXPECT_EQ(o.shared_per_sm, 64 * kKiB);
  EXPECT_EQ(o.by_shared, 1);
  // The allocation unit: 100 + 1024 bytes round up to 1152 from 8.0 on; Turing has no reserve and a 256-byte unit.
  EXPECT_EQ(compute_occupancy(h100, kernel(128, 32, 100)).shared_per_block, 1152);
  EXPECT_EQ(compute_occupancy(preset("t4"), kernel(128, 32, 100)).shared_per_block, 256);
  // Static + dynamic over 48 KiB needs the opt-in limit, which 227 KiB allows; 228 KiB does not.
  EXPECT_EQ(compute_occupancy(h100, kernel(128, 32, 40000, 20000)).by_shared, 3);
  o = compute_occupancy(h100, kernel(128, 32, 228 * kKiB));
  EXPECT_EQ(o.blocks_per_sm, 0);
  EXPECT_NE(o.unlaunchable.find("shared memory"), std::string::npos) << o.unlaunchable;
  // Every step is listed with what it holds.
  const Occupancy steps = compute_occupancy(h100, kernel(256, 32, 2048));
  ASSERT_EQ(steps.carveouts.size(), h100.carveout_steps.size());
  EXPECT_EQ(steps.carveouts.front().blocks, 0);        // a 0 KiB carve-out
  EXPECT_EQ(steps.carveouts[3].blocks, 32 * kKiB / 3072);  // 32 KiB
}

TEST(OccupancyLimits, BlocksAndBarriers) {
  const SmLimits h100 = preset("h100");
  const Occupancy o = compute_occupancy(h100, kernel(32, 16, 0));
  EXPECT_EQ(o.by_blocks, 32);
  EXPECT_EQ(o.blocks_per_sm, 32);
  EXPECT_EQ(o.limiting_factor, OccupancyLimit::Blocks);
  // 12.0 has one barrier slot per resident-block slot: two barriers per block halve the 24 blocks.
  const SmLimits sm120 = preset("rtx5070ti");
  EXPECT_EQ(compute_occupancy(sm120, kernel(32, 16, 0, 0, 2)).by_barriers, 12);
  EXPECT_EQ(compute_occupancy(sm120, kernel(32, 16, 0, 0, 2)).limiting_factor, OccupancyLimit::Barriers);
  EXPECT_EQ(compute_occupancy(h100, kernel(32, 16, 0, 0, 2)).by_barriers, 32);
  EXPECT_EQ(compute_occupancy(preset("a100"), kernel(32, 16, 0, 0, 2)).by_barriers, Occupancy::kUnlimited);
}

TEST(OccupancyLimits, EveryBindingLimitIsListed) {
  // 5070 Ti, 256 threads, 40 registers: threads, warps and registers all allow 6.
  const Occupancy o = compute_occupancy(preset("rtx5070ti"), kernel(256, 40, 2048));
  const std::vector<OccupancyLimit> expected{OccupancyLimit::Threads, OccupancyLimit::Warps,
                                            OccupancyLimit::Registers};
  EXPECT_EQ(o.binding, expected);
  for (OccupancyLimit l : o.binding) EXPECT_EQ(o.limit_value(l), o.blocks_per_sm);
}

TEST(OccupancyLimits, ImpossibleInputsAreRefused) {
  const SmLimits h100 = preset("h100");
  const Occupancy too_big = compute_occupancy(h100, kernel(2048, 16, 0));
  EXPECT_EQ(too_big.blocks_per_sm, 0);
  EXPECT_EQ(too_big.limiting_factor, OccupancyLimit::Threads);
  EXPECT_NE(too_big.unlaunchable.find("1024"), std::string::npos) << too_big.unlaunchable;
  EXPECT_FALSE(check_resources(h100, kernel(0, 16, 0)).empty());
  EXPECT_FALSE(check_resources(h100, kernel(32, -1, 0)).empty());
  EXPECT_FALSE(check_resources(h100, kernel(32, 16, -4)).empty());
  EXPECT_EQ(compute_occupancy(h100, kernel(0, 16, 0)).blocks_per_sm, 0);
  EXPECT_FALSE(compute_occupancy(SmLimits{}, kernel(32, 16, 0)).unlaunchable.empty());
}

// A kernel built on TF32 mma.sync (compute capability 8.0) does not launch on
// a T4 (7.5), whatever its registers and shared memory; on an A100 it does.
TEST(OccupancyLimits, AKernelNeedingANewerGpuDoesNotLaunch) {
  KernelResources k = kernel(128, 96, 16384);
  k.min_compute_capability = 80;
  const Occupancy t4 = compute_occupancy(preset("t4"), k);
  EXPECT_EQ(t4.blocks_per_sm, 0);
  EXPECT_EQ(t4.occupancy, 0.0);
  EXPECT_NE(t4.unlaunchable.find("compute capability 8.0"), std::string::npos) << t4.unlaunchable;
  EXPECT_NE(t4.unlaunchable.find("7.5"), std::string::npos) << t4.unlaunchable;
  const Occupancy a100 = compute_occupancy(preset("a100"), k);
  EXPECT_GT(a100.blocks_per_sm, 0);
  EXPECT_TRUE(a100.unlaunchable.empty()) << a100.unlaunchable;
}

TEST(GpuPresets, TheRequiredGpusWithTheirArchitectures) {
  const std::pair<const char*, int> required[] = {{"rtx3050", 86}, {"rtx4090", 89}, {"rtx5070ti", 120},
                                                  {"a100", 80},    {"h100", 90},    {"h200", 90}};
  for (const auto& [name, cc] : required) {
    const auto p = find_gpu_preset(name);
    ASSERT_TRUE(p.has_value()) << name;
    EXPECT_EQ(p->compute_capability, cc) << name;
    EXPECT_GT(p->sm_count, 0);
  }
  EXPECT_EQ(find_gpu_preset("h200")->sm_count, 132);
  EXPECT_EQ(find_gpu_preset("rtx5070ti")->sm_count, 70);
  EXPECT_FALSE(find_gpu_preset("H100").has_value());  // names are exact
  EXPECT_FALSE(find_gpu_preset("").has_value());
}

TEST(GpuPresets, NamesAreShortAndLimitsConsistent) {
  std::set<std::string_view> names;
  for (const GpuPreset& p : gpu_presets()) {
    EXPECT_TRUE(names.insert(p.short_name).second) << p.short_name;
    EXPECT_TRUE(std::all_of(p.short_name.begin(), p.short_name.end(),
                            [](char c) { return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)); }))
        << p.short_name;
    const SmLimits s = preset_limits(p);
    EXPECT_EQ(s.sm_count, p.sm_count);
    EXPECT_EQ(s.max_warps_per_sm() * 32, s.max_threads_per_sm);
    EXPECT_FALSE(s.carveout_steps.empty());
    EXPECT_EQ(s.carveout_steps.back(), s.shared_per_sm);
    EXPECT_TRUE(std::is_sorted(s.carveout_steps.begin(), s.carveout_steps.end()));
    EXPECT_LE(s.max_shared_per_block_optin, s.shared_per_sm);
  }
  EXPECT_NE(gpu_preset_names().find("rtx5070ti"), std::string::npos);
  SmLimits unknown;
  EXPECT_FALSE(limits_for_compute_capability(61, unknown));
}

}  // namespace
}  // namespace ts
