// Shared loads as compiled (app/core/analysis/compiled_loads.h) against what
// Nsight Compute measured for the same launches on an NVIDIA H100 80GB HBM3
// (assets/ncu/counters-vs-ncu-64.md, profiled 2026-11-26: executed shared
// load instructions, their wavefronts and bank conflicts per instruction, the
// table's "ncu" and "ncu per instruction" columns): every kernel at TILE 16
// and 32 and every recorded rung, N = 64. The trace's own requests (one per
// float the source reads) stay as they were.
#include <gtest/gtest.h>

#include "app/core/analysis/memory_stats.h"
#include "kernels/catalog.h"
#include "tests/core/analysis_test_support.h"

namespace ts {
namespace {

struct Measured {
  KernelKind kind;
  int tile;
  std::uint64_t instructions, wavefronts, conflicts;
};

constexpr Measured kH100[] = {
    {KernelKind::Naive, 16, 0, 0, 0},
    {KernelKind::NaiveRow, 32, 0, 0, 0},
    {KernelKind::Tiled, 16, 10240, 12288, 0},
    {KernelKind::Tiled, 32, 10240, 12288, 0},
    {KernelKind::Coarsened, 16, 5120, 6144, 0},
    {KernelKind::Coarsened, 32, 5120, 6144, 0},
    {KernelKind::TiledTransposed, 16, 4096, 36864, 24576},
    {KernelKind::TiledTransposed, 32, 4096, 69632, 57344},
    {KernelKind::TiledPadded, 16, 10240, 12288, 0},
    {KernelKind::TiledPadded, 32, 10240, 12288, 0},
    {KernelKind::Blocktile1d, 0, 3072, 5120, 0},
    {KernelKind::Blocktile2d, 0, 2048, 10240, 4096},
    {KernelKind::Vectorized, 0, 2048, 10240, 4096},
    {KernelKind::Warptile, 0, 2048, 6144, 0},
    {KernelKind::DoubleBuffer, 0, 2048, 6144, 0},
    {KernelKind::Tf32TensorCore, 0, 320, 512, 0},
};

class CompiledLoads : public ::testing::TestWithParam<Measured> {};

TEST_P(CompiledLoads, EqualWhatNsightComputeCountedOnTheH100) {
  const Measured m = GetParam();
  const MemoryStats s = analyze_memory(test::square_trace(m.kind, m.tile, 64), 2);
  const AccessTotals compiled = s.compiled_shared_load_totals();
  EXPECT_EQ(compiled.requests, m.instructions);
  EXPECT_EQ(compiled.wavefronts, m.wavefronts);
  EXPECT_EQ(compiled.bank_conflicts, m.conflicts);
  // Merging never makes more loads than the source's, and reads the same floats.
  const AccessTotals source = s.total(Space::Shared, Op::Load);
  EXPECT_LE(compiled.requests, source.requests);
  const nlohmann::json j = memory_counters_json(s);
  EXPECT_EQ(j.at("shared_load_requests_compiled"), m.instructions);
  EXPECT_EQ(j.at("shared_load_requests"), source.requests);
}

std::string measured_name(const ::testing::TestParamInfo<Measured>& info) {
  std::string name = std::string(kernel_info(info.param.kind).name) + "_" + std::to_string(info.param.tile);
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(N64, CompiledLoads, ::testing::ValuesIn(kH100), measured_name);

// A warp's step-by-step counters add up to its whole-launch ones, merged
// loads included (a merged load is counted at the step of its first float).
TEST(CompiledLoadsBySteps, AddUpToTheWholeLaunch) {
  const Trace t = test::small_trace(KernelKind::Blocktile2d, 0, 70, 130, 45);
  const auto blocks = static_cast<std::uint32_t>(t.launch.grid.count());
  ASSERT_GT(blocks, 1u);
  for (std::uint32_t block = 0; block < blocks; ++block) {
    const BlockStepStats steps(t, block);
    const std::uint64_t whole = analyze_block(t, block).compiled_shared_load_totals().requests;
    EXPECT_GT(whole, 0u);
    EXPECT_EQ(steps.block(kAllSteps).compiled_shared_load_totals().requests, whole);
    std::uint64_t by_step = 0;
    for (std::uint32_t step = 0; step < 8; ++step) {
      const std::uint64_t n = analyze_block(t, block, step).compiled_shared_load_totals().requests;
      EXPECT_EQ(steps.block(step).compiled_shared_load_totals().requests, n);
      by_step += n;
    }
    EXPECT_EQ(by_step, whole);
  }
}

}  // namespace
}  // namespace ts
