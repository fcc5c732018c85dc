// The emulator runs every kernel to the right answer: C against a
// double-precision reference, on fresh random inputs, square and ragged sizes.
#include <gtest/gtest.h>

#include <random>

#include "app/core/reference.h"
#include "kernels/catalog.h"
#include "kernels/recorder.h"

namespace ts {
namespace {

struct Shape {
  int m, n, k;
};

std::uint64_t fresh_seed() { return std::random_device{}() | 1; }

class EveryKernel : public ::testing::TestWithParam<std::tuple<KernelKind, int, Shape>> {};

TEST_P(EveryKernel, MatchesDoubleReference) {
  const auto [kind, tile, shape] = GetParam();
  RecordParams p;
  p.kernel = kind;
  p.tile = tile;
  p.m = shape.m;
  p.n = shape.n;
  p.k = shape.k;
  p.device = DeviceChoice::Cpu;
  p.seed = fresh_seed();
  const Trace t = record(p);
  const auto ref = reference_matmul(t.a, t.b, p.m, p.n, p.k);
  EXPECT_LT(relative_error(t.c, ref), 1e-5) << "seed " << p.seed;
  EXPECT_EQ(t.launch.recorder, "emulator");
}

const Shape kShapes[] = {{64, 64, 64}, {37, 29, 45}, {1, 1, 1}, {50, 70, 33}};

std::string case_name(const ::testing::TestParamInfo<EveryKernel::ParamType>& info) {
  const auto& [kind, tile, s] = info.param;
  std::string name(kernel_info(kind).name);
  for (auto& ch : name)
    if (ch == '-') ch = '_';
  return name + "_t" + std::to_string(tile) + "_" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k);
}

INSTANTIATE_TEST_SUITE_P(Kernels, EveryKernel,
                         ::testing::Combine(::testing::ValuesIn(kAllKernels), ::testing::ValuesIn(kAllTiles),
                                            ::testing::ValuesIn(kShapes)),
                         case_name);

TEST(Emulator, SmallIntegerInputsGiveExactIntegers) {
  RecordParams p;
  p.kernel = KernelKind::Tiled;
  p.tile = 2;
  p.m = p.n = p.k = 6;
  p.device = DeviceChoice::Cpu;
  p.inputs = InputKind::SmallIntegers;
  p.seed = fresh_seed();
  const Trace t = record(p);
  const auto ref = reference_matmul(t.a, t.b, 6, 6, 6);
  for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_EQ(double(t.c[i]), ref[i]);
}

}  // namespace
}  // namespace ts
