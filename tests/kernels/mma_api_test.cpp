// The kernel API's warp-level TF32 mma (kernels/api/mma.h) on the emulator:
// the fragment layouts cover each matrix once, TF32 rounding is the rung's,
// the emulator's product agrees with a double-precision product of the
// rounded inputs, each fragment element a lane holds is one marked shared
// load of that lane, the analysis counts an ldmatrix.x4 as the hardware does,
// and a warp whose lanes do not all reach the mma is refused, not hung.
// clang-format off
#include "kernels/emu/mode_emulator.h"
// clang-format on

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <string>
#include <utility>

#include "app/core/analysis/bank_conflicts.h"
#include "app/core/analysis/warp_requests.h"
#include "kernels/emu/emulator.h"
#include "kernels/emu/warp_mma.h"
#include "tests/kernels/emulator_test_support.h"

namespace ts::emu {
namespace {

using mma::a_coord;
using mma::b_coord;
using mma::c_coord;

TEST(MmaLayout, EachElementOnceInEveryFragment) {
  std::set<std::pair<int, int>> a, b, c;
  for (int lane = 0; lane < 32; ++lane) {
    for (int s = 0; s < 4; ++s) {
      a.insert({a_coord(lane, s).row, a_coord(lane, s).col});
      c.insert({c_coord(lane, s).row, c_coord(lane, s).col});
    }
    for (int s = 0; s < 2; ++s) b.insert({b_coord(lane, s).row, b_coord(lane, s).col});
  }
  EXPECT_EQ(a.size(), 16u * 8);
  EXPECT_EQ(b.size(), 8u * 8);
  EXPECT_EQ(c.size(), 16u * 8);
  for (auto [r, col] : a) EXPECT_TRUE(r < 16 && col < 8);
  for (auto [r, col] : b) EXPECT_TRUE(r < 8 && col < 8);
  for (auto [r, col] : c) EXPECT_TRUE(r < 16 && col < 8);
}

TEST(MmaLayout, ThePtxTable) {
  // Lane 13: group 3, quad 1.
  EXPECT_EQ(a_coord(13, 0).row, 3);
  EXPECT_EQ(a_coord(13, 0).col, 1);
  EXPECT_EQ(a_coord(13, 1).row, 11);
  EXPECT_EQ(a_coord(13, 1).col, 1);
  EXPECT_EQ(a_coord(13, 2).row, 3);
  EXPECT_EQ(a_coord(13, 2).col, 5);
  EXPECT_EQ(a_coord(13, 3).row, 11);
  EXPECT_EQ(a_coord(13, 3).col, 5);
  EXPECT_EQ(b_coord(13, 0).row, 1);
  EXPECT_EQ(b_coord(13, 0).col, 3);
  EXPECT_EQ(b_coord(13, 1).row, 5);
  EXPECT_EQ(b_coord(13, 1).col, 3);
  EXPECT_EQ(c_coord(13, 0).row, 3);
  EXPECT_EQ(c_coord(13, 0).col, 2);
  EXPECT_EQ(c_coord(13, 1).row, 3);
  EXPECT_EQ(c_coord(13, 1).col, 3);
  EXPECT_EQ(c_coord(13, 2).row, 11);
  EXPECT_EQ(c_coord(13, 2).col, 2);
  EXPECT_EQ(c_coord(13, 3).row, 11);
  EXPECT_EQ(c_coord(13, 3).col, 3);
}

float tf32(float x) { return mma::bits_float(mma::to_tf32(mma::float_bits(x))); }

TEST(MmaTf32, RoundsToNearestTiesAwayFromZero) {
  const float ulp = std::ldexp(1.0f, -10);  // TF32's last place at 1
  EXPECT_EQ(tf32(1.0f), 1.0f);
  EXPECT_EQ(tf32(1.0f + ulp / 2), 1.0f + ulp);  // a tie: away from zero
  EXPECT_EQ(tf32(-(1.0f + ulp / 2)), -(1.0f + ulp));
  EXPECT_EQ(tf32(1.0f + ulp / 2 - std::ldexp(1.0f, -23)), 1.0f);  // below the tie
  EXPECT_EQ(tf32(1.0f + ulp + ulp / 2), 1.0f + 2 * ulp);          // a tie at an odd last bit: away too
  EXPECT_EQ(mma::float_bits(tf32(3.14159265f)) & 0x1FFFu, 0u);
}

// A double-precision product of the TF32-rounded inputs, and the bound the
// tensor core's cut sums keep to: a few units in the last place of the
// largest term, per step of four products.
double reference_dot(const std::uint32_t (&a)[8], const std::uint32_t (&b)[8], float c, double& scale) {
  double sum = c;
  scale = std::fabs(c);
  for (int k = 0; k < 8; ++k) {
    const double p = double(mma::bits_float(a[k])) * double(mma::bits_float(b[k]));
    sum += p;
    scale = std::max(scale, std::fabs(p));
  }
  return sum;
}

TEST(MmaTf32, DotAgreesWithDoubleReferenceOnRandomInputs) {
  std::mt19937 rng(20261123);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  double worst = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::uint32_t a[8], b[8];
    for (int k = 0; k < 8; ++k) a[k] = mma::to_tf32(mma::float_bits(value(rng))), b[k] = mma::to_tf32(mma::float_bits(value(rng)));
    const float c = value(rng);
    double scale = 0;
    const double ref = reference_dot(a, b, c, scale);
    const double err = std::fabs(double(mma_dot_tf32(a, b, c)) - ref) / (scale * std::ldexp(1.0, -23));
    worst = std::max(worst, err);
  }
  // Two steps, each cutting its terms and its sum: at most ~8 units of the largest term's last place.
  EXPECT_LE(worst, 8.0);
  EXPECT_GT(worst, 0.0);  // the model does round: not an exact double sum
}

TEST(MmaTf32, ExactWhereEveryPartialSumFits) {
  std::uint32_t a[8], b[8];
  for (int k = 0; k < 8; ++k) a[k] = mma::float_bits(float(k + 1)), b[k] = mma::float_bits(0.5f);
  EXPECT_EQ(mma_dot_tf32(a, b, 1.0f), 1.0f + 18.0f);  // (1 + ... + 8) / 2 + 1
  a[3] = mma::float_bits(std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isinf(mma_dot_tf32(a, b, 0.0f)));
  a[4] = mma::float_bits(-std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(mma_dot_tf32(a, b, 0.0f)));
}

TEST(MmaTf32, InputsKeepOnlyTheirTf32Bits) {
  std::uint32_t a[8] = {}, b[8] = {};
  a[0] = mma::float_bits(1.0f) | 0x1FFFu;  // low bits the tensor core ignores
  b[0] = mma::float_bits(1.0f);
  EXPECT_EQ(mma_dot_tf32(a, b, 0.0f), 1.0f);
}

// ---- one warp on the emulator -------------------------------------------

constexpr int kM = 16, kK = 8, kN = 8;

// One warp stages A (16 x 8) and B (8 x 8) in shared memory, loads its
// fragments, multiplies, and stores its accumulators to C.
void one_warp_mma(const KernelArgs& p) {
  TS_SHARED(float, As, kM, kK + 4);  // a padded row, as the rung pads
  TS_SHARED(float, Bs, kK, kN);
  InMatrix A{p.a, ArrayId::A}, B{p.b, ArrayId::B};
  OutMatrix C{p.c, ArrayId::C};
  const int lane = threadIdx.x;
  for (int i = lane; i < kM * kK; i += 32) As[i / kK][i % kK] = A[i];
  for (int i = lane; i < kK * kN; i += 32) Bs[i / kN][i % kN] = B[i];
  __syncthreads();
  FragA a;
  FragB b;
  FragC c = {1.0f, 1.0f, 1.0f, 1.0f};  // C starts at 1: the accumulator is added
  load_matrix_a(a, As, 0, 0);
  load_matrix_b(b, Bs, 0, 0);
  mma_tf32(c, a, b);
  for (int s = 0; s < 4; ++s) C[c_coord(lane, s).row * kN + c_coord(lane, s).col] = c[s];
}

// Lane 5 skips the mma: its warp can never meet.
void divergent_mma(const KernelArgs& p) {
  TS_SHARED(float, As, kM, kK);
  TS_SHARED(float, Bs, kK, kN);
  for (int i = threadIdx.x; i < kM * kK; i += 32) As[i / kK][i % kK] = 0.0f;
  for (int i = threadIdx.x; i < kK * kN; i += 32) Bs[i / kN][i % kN] = 0.0f;
  __syncthreads();
  FragA a;
  FragB b;
  FragC c = {};
  load_matrix_a(a, As, 0, 0);
  load_matrix_b(b, Bs, 0, 0);
  if (threadIdx.x != 5) mma_tf32(c, a, b);
  OutMatrix C{p.c, ArrayId::C};
  C[threadIdx.x] = c[0];
}

void half_warp_mma(const KernelArgs&) {
  FragA a = {};
  FragB b = {};
  FragC c = {};
  mma_tf32(c, a, b);
}

Trace warp_launch(std::uint32_t threads, std::uint32_t seed) {
  Trace t;
  LaunchInfo& L = t.launch;
  L.kernel = "test";
  L.tile = 8;
  L.m = kM, L.n = kN, L.k = kK;
  L.grid = {1, 1, 1};
  L.block = {threads, 1, 1};
  L.iteration_rule = {1, static_cast<std::uint32_t>(kK), kK, kN, 1, 0, 0};
  L.set_array(ArrayId(0), {true, 0x1000, kM, kK, kK});
  L.set_array(ArrayId(1), {true, 0x2000, kK, kN, kN});
  L.set_array(ArrayId(2), {true, 0x3000, kM, kN, kN});
  L.set_array(ArrayId(3), {true, 0, kM, kK + 4, kK + 4});
  L.set_array(ArrayId(4), {true, 0, kK, kN, kN});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (int i = 0; i < kM * kK; ++i) t.a.push_back(value(rng));
  for (int i = 0; i < kK * kN; ++i) t.b.push_back(value(rng));
  t.c.assign(kM * kN, NAN);
  return t;
}

TEST(MmaEmulator, OneWarpComputesTheProductOfRoundedInputs) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    Trace t = warp_launch(32, seed);
    record_launch_with(&one_warp_mma, t, 1);
    for (int r = 0; r < kM; ++r)
      for (int col = 0; col < kN; ++col) {
        double ref = 1.0, scale = 1.0;
        for (int k = 0; k < kK; ++k) {
          const double p = double(tf32(t.a[r * kK + k])) * double(tf32(t.b[k * kN + col]));
          ref += p;
          scale = std::max(scale, std::fabs(p));
        }
        EXPECT_NEAR(t.c[r * kN + col], ref, 8 * scale * std::ldexp(1.0, -23)) << "C[" << r << "][" << col << "]";
      }
  }
}

TEST(MmaEmulator, EachLaneLoadsTheElementsItHolds) {
  Trace t = warp_launch(32, 7);
  record_launch_with(&one_warp_mma, t, 1);
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    const auto ev = t.thread_events(lane);
    // 4 A stores and 2 B (lane < 16 stores 4 of A's 128 and 2 of B's 64), then the fragments.
    std::size_t i = 0;
    while (i < ev.size() && !ev[i].is_fragment()) ++i;
    ASSERT_EQ(ev.size() - i, 4u + 2 + 4) << "lane " << lane;  // a0..a3, b0, b1, then four C stores
    for (int s = 0; s < 4; ++s) {
      const Event& e = ev[i + s];
      EXPECT_EQ(e.array_id(), ArrayId::As);
      EXPECT_TRUE(e.is_fragment());
      EXPECT_FALSE(e.is_padding());
      EXPECT_FALSE(e.is_async());
      EXPECT_EQ(e.width_bytes(), 16u);
      EXPECT_EQ(e.index, std::uint32_t(a_coord(lane, s).row * (kK + 4) + a_coord(lane, s).col));
      EXPECT_EQ(fragment_slot(ev.data(), i + s), std::uint32_t(s));
      EXPECT_EQ(first_of_access(e, &ev[i + s - 1]), s == 0);
      EXPECT_EQ(e.value, t.a[a_coord(lane, s).row * kK + a_coord(lane, s).col]);
    }
    for (int s = 0; s < 2; ++s) {
      const Event& e = ev[i + 4 + s];
      EXPECT_EQ(e.array_id(), ArrayId::Bs);
      EXPECT_TRUE(e.is_fragment());
      EXPECT_EQ(e.width_bytes(), 4u);
      EXPECT_EQ(e.index, std::uint32_t(b_coord(lane, s).row * kN + b_coord(lane, s).col));
      EXPECT_EQ(fragment_slot(ev.data(), i + 4 + s), std::uint32_t(s));
      EXPECT_TRUE(first_of_access(e, &ev[i + 3 + s]));
    }
  }
}

TEST(MmaEmulator, AnalysisCountsLdmatrixAsOneRequestOfFourWavefronts) {
  Trace t = warp_launch(32, 9);
  record_launch_with(&one_warp_mma, t, 1);
  WarpAligner aligner(t);
  aligner.align(0, 0);
  int a_fragment = 0, b_fragment = 0;
  for (const WarpRequest& r : aligner.requests()) {
    if (r.op != Op::Load || r.space() != Space::Shared) continue;
    const BankAccess banks = shared_bank_access(aligner.addresses(r), r.width_bytes(), aligner.lane_numbers(r), r.op);
    if (r.array == ArrayId::As) {
      ++a_fragment;
      EXPECT_EQ(r.width, Width::B16);
      EXPECT_EQ(r.count, 32u);
      // Rows of 12 words: the 8 rows of a block start at banks 0, 12, 24, 4, ...: no conflict.
      EXPECT_EQ(banks.wavefronts(), 4u);
      EXPECT_EQ(banks.conflicts(), 0u);
    } else {
      ++b_fragment;
      EXPECT_EQ(r.width, Width::B4);
      // Bs rows of 8 words: b0 of quad t and group g sits in bank (8 t + g) % 32: all distinct.
      EXPECT_EQ(banks.wavefronts(), 1u);
    }
  }
  EXPECT_EQ(a_fragment, 1);  // one ldmatrix.x4
  EXPECT_EQ(b_fragment, 2);  // two 4-byte loads
  EXPECT_EQ(aligner.alignment().partial_groups, 0u);
}

TEST(MmaEmulator, ALaneThatNeverArrivesIsAnError) {
  test::expect_emulator_fault(&divergent_mma, warp_launch(32, 1), "never reached the mma_tf32");
}

TEST(MmaEmulator, APartialWarpIsAnError) {
  test::expect_emulator_fault(&half_warp_mma, warp_launch(16, 1), "whole warp");
}

}  // namespace
}  // namespace ts::emu
