// Ladder rung 5 (kernels/double_buffer.h) on the emulator at small
// configurations of 2, 3 and 4 stages, with the emulator's checks on. With
// three or more stages the listing issues a k-tile's refill copies after its
// multiply-adds: the path the benchmark's configuration takes and the
// recorded one (2 stages) does not. The emulator holds each copy's data until
// the wait that covers it and reports a shared word written while another
// thread may read it, so a refill into a buffer still being read, or a wait
// for too few groups, is a finding here. C equals the double-precision
// product at ragged shapes, no check finds anything, and every element of A
// and B is read from global memory once per block column (row) that needs it.
// clang-format off
#include "kernels/emu/mode_emulator.h"
#include "kernels/double_buffer.h"
// clang-format on

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "kernels/emu/emulator.h"
#include "tests/kernels/product_check.h"
#include "tests/kernels/random_matrix.h"

namespace ts::emu {
namespace {

// 32 x 64 x 8 block tiles in 4 warps of 16 x 32, 4 x 4 cells a lane: the
// smallest tiles the listing's copy loops take (each of the 128 threads copies
// 2 floats of A and one float4 of B per k-tile).
constexpr int kBM = 32, kBN = 64, kBK = 8, kWM = 16, kWN = 32, kTM = 4, kTN = 4;
constexpr int kThreads = 32 * (kBM / kWM) * (kBN / kWN);

template <int STAGES>
void rung(const KernelArgs& p) {
  matmul_double_buffer<kBM, kBN, kBK, kWM, kWN, kTM, kTN, STAGES, 0>(
      InMatrix{p.a, ArrayId::A}, InMatrix{p.b, ArrayId::B}, OutMatrix{p.c, ArrayId::C}, p.m, p.n, p.k);
}

Trace launch(int stages, int m, int n, int k, unsigned seed) {
  Trace t;
  LaunchInfo& L = t.launch;
  L.kernel = "double-buffer";
  L.tile = kBK;
  L.m = m, L.n = n, L.k = k;
  const auto u = [](int x) { return static_cast<std::uint32_t>(x); };
  L.grid = {u((n + kBN - 1) / kBN), u((m + kBM - 1) / kBM), 1};  // a grid laid out like C's tiles
  L.block = {u(kThreads), 1, 1};
  // One barrier per k-tile, the first after the prologue; global loads by their k-tile.
  L.iteration_rule = {1, u(kBK), u(k), u(n), u((k + kBK - 1) / kBK), 1, 1};
  L.set_array(ArrayId(0), {true, 0x1000, u(m), u(k), u(k)});
  L.set_array(ArrayId(1), {true, 0x100000, u(k), u(n), u(n)});
  L.set_array(ArrayId(2), {true, 0x200000, u(m), u(n), u(n)});
  L.set_array(ArrayId(3), {true, 0, u(stages * kBK), u(kBM + 4), u(kBM + 4)});  // As, transposed, rows padded by 4
  L.set_array(ArrayId(4), {true, 0, u(stages * kBK), u(kBN), u(kBN)});
  t.a = test::random_matrix(std::size_t(m) * k, seed);
  t.b = test::random_matrix(std::size_t(k) * n, seed + 1);
  t.c.assign(std::size_t(m) * n, NAN);
  return t;
}

// Runs the rung with every check on: the checks clean, C the product (within
// 1e-5 normwise of the double-precision one, as every FP32 kernel test holds it).
template <int STAGES>
Trace run_checked(int m, int n, int k, unsigned seed) {
  Trace t = launch(STAGES, m, n, k, seed);
  LaunchOptions options;
  options.workers = 2;
  options.check.mode = CheckMode::Continue;
  const CheckReport report = record_launch_with(&rung<STAGES>, t, options);
  const std::string shape = std::to_string(STAGES) + " stages, " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                            std::to_string(k);
  EXPECT_TRUE(report.clean()) << shape << ": " << report_summary(report, options.check.cap);
  EXPECT_EQ(test::check_product(KernelKind::DoubleBuffer, t.a, t.b, t.c, m, n, k), "") << shape;
  return t;
}

struct Shape {
  int m, n, k;
};
// Fewer k-tiles than stages, one, exactly the pipeline's depth, more; ragged
// edges in every dimension (K and N multiples of 4, as the rung requires).
constexpr Shape kShapes[] = {{32, 64, 8}, {50, 68, 20}, {33, 132, 36}, {70, 60, 100}, {1, 4, 4}};

TEST(DoubleBufferEmulator, TwoStagesRefillBeforeTheMultiplyAdds) {
  for (const Shape s : kShapes) run_checked<2>(s.m, s.n, s.k, 3);
}

TEST(DoubleBufferEmulator, ThreeStagesRefillAfterTheMultiplyAdds) {
  for (const Shape s : kShapes) run_checked<3>(s.m, s.n, s.k, 5);
}

TEST(DoubleBufferEmulator, FourStagesRefillAfterTheMultiplyAdds) {
  for (const Shape s : kShapes) run_checked<4>(s.m, s.n, s.k, 7);
}

TEST(DoubleBufferEmulator, EveryElementReadOncePerBlockThatNeedsIt) {
  const int m = 70, n = 132, k = 100;
  const Trace t = run_checked<4>(m, n, k, 11);
  std::vector<int> a_loads(std::size_t(m) * k), b_loads(std::size_t(k) * n);
  for (const Event& e : t.events.span()) {
    if (e.array_id() == ArrayId::A && e.op() == Op::Load) ++a_loads[e.index];
    if (e.array_id() == ArrayId::B && e.op() == Op::Load) ++b_loads[e.index];
  }
  const int block_cols = (n + kBN - 1) / kBN, block_rows = (m + kBM - 1) / kBM;
  for (std::size_t i = 0; i < a_loads.size(); ++i) ASSERT_EQ(a_loads[i], block_cols) << "A element " << i;
  for (std::size_t i = 0; i < b_loads.size(); ++i) ASSERT_EQ(b_loads[i], block_rows) << "B element " << i;
}

}  // namespace
}  // namespace ts::emu
