// Ladder rung 6 (kernels/tf32_tensor_core.h) on the emulator, at small
// configurations of the same source: C equals the double-precision product
// within TF32 rounding at ragged shapes, every cell is written, every element
// of A and B is loaded from global memory once per block column (row) that
// needs it, and each lane's fragment loads are the ones its warp tile implies.
// clang-format off
#include "kernels/emu/mode_emulator.h"
#include "kernels/tf32_tensor_core.h"
// clang-format on

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kernels/emu/emulator.h"

namespace ts::emu {
namespace {

struct Config {
  int bm, bn, bk, wm, wn, stages;
  int threads() const { return 32 * (bm / wm) * (bn / wn); }
};

// Two configurations: 4 warps of 16 x 16 (one 16 x 8 tile pair each) with
// double buffering, and the shipped shape's proportions at a quarter of its
// size (warps of 32 x 32, three stages, groups of 2 block rows).
constexpr Config kSmall{32, 32, 16, 16, 16, 2};
constexpr Config kQuarter{64, 64, 16, 32, 32, 3};

template <const Config& G>
void rung(const KernelArgs& p) {
  matmul_tf32_tensor_core<G.bm, G.bn, G.bk, G.wm, G.wn, G.stages, 2>(
      InMatrix{p.a, ArrayId::A}, InMatrix{p.b, ArrayId::B}, OutMatrix{p.c, ArrayId::C}, p.m, p.n, p.k);
}

Trace launch(const Config& g, int m, int n, int k, unsigned seed) {
  Trace t;
  LaunchInfo& L = t.launch;
  L.kernel = "tf32-tensor-core";
  L.tile = g.bk;
  L.m = m, L.n = n, L.k = k;
  const auto blocks = static_cast<std::uint32_t>(((m + g.bm - 1) / g.bm) * ((n + g.bn - 1) / g.bn));
  L.grid = {blocks, 1, 1};
  L.block = {static_cast<std::uint32_t>(g.threads()), 1, 1};
  const auto tiles = static_cast<std::uint32_t>((k + g.bk - 1) / g.bk);
  // One barrier per k-tile, the first before tile 0's reads; global loads by their k-tile.
  L.iteration_rule = {1, static_cast<std::uint32_t>(g.bk), static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(n),
                      tiles, 1, 1};
  const auto u = [](int x) { return static_cast<std::uint32_t>(x); };
  L.set_array(ArrayId(0), {true, 0x1000, u(m), u(k), u(k)});
  L.set_array(ArrayId(1), {true, 0x100000, u(k), u(n), u(n)});
  L.set_array(ArrayId(2), {true, 0x200000, u(m), u(n), u(n)});
  L.set_array(ArrayId(3), {true, 0, u(g.stages * g.bm), u(g.bk + 4), u(g.bk + 4)});
  L.set_array(ArrayId(4), {true, 0, u(g.stages * g.bk), u(g.bn + 8), u(g.bn + 8)});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (int i = 0; i < m * k; ++i) t.a.push_back(value(rng));
  for (int i = 0; i < k * n; ++i) t.b.push_back(value(rng));
  t.c.assign(std::size_t(m) * n, NAN);
  return t;
}

// |C - A B| per cell, against the bound TF32 rounding allows: each input off
// by at most 2^-11 of itself, so each product by about 2^-10, plus FP32 sums.
void expect_product(const Trace& t) {
  const int m = t.launch.m, n = t.launch.n, k = t.launch.k;
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c) {
      double ref = 0, magnitude = 0;
      for (int p = 0; p < k; ++p) {
        const double x = double(t.a[r * k + p]) * t.b[p * n + c];
        ref += x;
        magnitude += std::fabs(x);
      }
      const double bound = magnitude * (std::ldexp(1.0, -10) + k * std::ldexp(1.0, -23));
      ASSERT_NEAR(t.c[std::size_t(r) * n + c], ref, bound) << "C[" << r << "][" << c << "] of " << m << "x" << n << "x" << k;
    }
}

TEST(Tf32TensorCoreEmulator, RaggedShapesGiveTheProduct) {
  struct Shape {
    int m, n, k;
  };
  for (const Shape s : {Shape{32, 32, 16}, Shape{50, 44, 36}, Shape{7, 68, 4}, Shape{65, 32, 48}}) {
    Trace t = launch(kSmall, s.m, s.n, s.k, 11);
    record_launch_with(&rung<kSmall>, t, 2);
    expect_product(t);
  }
  Trace q = launch(kQuarter, 130, 72, 52, 5);  // 3 x 2 blocks, the last row and column ragged
  record_launch_with(&rung<kQuarter>, q, 2);
  expect_product(q);
}

TEST(Tf32TensorCoreEmulator, GlobalLoadsPerElementAndFragmentLoads) {
  const int m = 50, n = 44, k = 36;
  Trace t = launch(kSmall, m, n, k, 3);
  record_launch_with(&rung<kSmall>, t, 1);
  std::vector<int> a_loads(m * k), b_loads(k * n);
  std::uint64_t a_fragments = 0, b_fragments = 0, a_first = 0;
  for (const Event& e : t.events.span()) {
    if (e.array_id() == ArrayId::A && e.op() == Op::Load) ++a_loads[e.index];
    if (e.array_id() == ArrayId::B && e.op() == Op::Load) ++b_loads[e.index];
    if (e.is_fragment()) {
      EXPECT_EQ(e.op(), Op::Load);
      (e.array_id() == ArrayId::As ? a_fragments : b_fragments) += 1;
      a_first += e.array_id() == ArrayId::As && !e.continues_fragment();
    }
  }
  const int block_cols = (n + kSmall.bn - 1) / kSmall.bn, block_rows = (m + kSmall.bm - 1) / kSmall.bm;
  for (int i = 0; i < m * k; ++i) ASSERT_EQ(a_loads[i], block_cols) << "A element " << i;
  for (int i = 0; i < k * n; ++i) ASSERT_EQ(b_loads[i], block_rows) << "B element " << i;
  // Per thread, k-step and warp tile: 4 A elements per 16 x 8 tile row, 2 B per 8 x 8 tile column.
  const std::uint64_t threads = t.launch.thread_count(), ksteps = (k + kSmall.bk - 1) / kSmall.bk * (kSmall.bk / 8);
  EXPECT_EQ(a_fragments, threads * ksteps * (kSmall.wm / 16) * 4);
  EXPECT_EQ(b_fragments, threads * ksteps * (kSmall.wn / 8) * 2);
  EXPECT_EQ(a_first * 4, a_fragments);  // one 16-byte access per A fragment
}

}  // namespace
}  // namespace ts::emu
