// The emulator runs every kernel to the right answer: C against a
// double-precision reference (the TF32 rung's against its TF32-rounded inputs,
// product_check.h), on fresh random inputs, square and ragged sizes.
#include <gtest/gtest.h>

#include "trace/model/reference.h"
#include "kernels/catalog.h"
#include "kernels/recorder.h"
#include "tests/kernels/kernel_cases.h"
#include "tests/kernels/product_check.h"

namespace ts {
namespace {

class EveryKernel : public ::testing::TestWithParam<test::KernelCase> {};

TEST_P(EveryKernel, MatchesDoubleReference) {
  const test::KernelCase c = GetParam();
  const RecordParams p = c.params(DeviceChoice::Cpu);
  const Trace t = record(p);
  EXPECT_EQ(test::check_product(c.kind, t.a, t.b, t.c, p.m, p.n, p.k), "") << "seed " << p.seed;
  EXPECT_EQ(t.launch.recorder, "emulator");
}

INSTANTIATE_TEST_SUITE_P(Kernels, EveryKernel,
                         ::testing::ValuesIn(test::kernel_cases({2, 4, 8, 16, 32}, {{64, 64, 64}, {37, 29, 45},
                                                                                    {1, 1, 1}, {50, 70, 33}})),
                         test::kernel_case_name);

INSTANTIATE_TEST_SUITE_P(Rungs, EveryKernel, ::testing::ValuesIn(test::rung_cases(test::rung_shapes())),
                         test::kernel_case_name);

TEST(Emulator, SmallIntegerInputsGiveExactIntegers) {
  const Trace t = test::record_on(DeviceChoice::Cpu, KernelKind::Tiled, 2, 6, 6, 6, InputKind::SmallIntegers);
  const auto ref = reference_matmul(t.a, t.b, 6, 6, 6);
  for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_EQ(double(t.c[i]), ref[i]);
}

}  // namespace
}  // namespace ts
