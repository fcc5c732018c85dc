// tf32-wgmma-ws (kernels/ladder/tf32_wgmma_ws.cuh), two ways:
//  - Layout (no GPU needed): the index arithmetic the kernel uses
//    (tf32_wgmma_ws_layout.h) is checked on the host: the fragment loads are
//    free of bank conflicts, the row -> column map is one-to-one, and a host
//    model that moves data exactly as the kernel does (TMA boxes into the
//    128-byte swizzled image, fragments loaded through b_fragment_offset, the
//    A tile read as the wgmma descriptor reads it, the documented fragment
//    and accumulator layouts, the epilogue's acc_m / acc_n) multiplies
//    correctly, ragged edges included.
//  - On an sm_90 GPU (label gpu; skipped without one): every compiled variant
//    against a double-precision reference at small ragged shapes (rows that
//    TMA cannot address go through the padded copy), with a grid of 1 to 3
//    CTAs so that each CTA walks several tiles and the ring wraps, and at a
//    few square shapes with the variant's own grid; output poisoned with NaN
//    first, TF32 tolerance.
#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <string>

#include "app/core/reference.h"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/ladder/tf32_wgmma_ws.h"
#include "kernels/ladder/tf32_wgmma_ws_layout.h"

namespace ts::ladder {
namespace {

std::vector<float> random_matrix(std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = dist(rng);
  return v;
}

// ---- host checks of the layout ----

TEST(Tf32WgmmaWsLayout, RowToColumnIsOneToOne) {
  std::set<int> seen;
  for (int row = 0; row < 64; ++row) {
    const int n = ws::n_of_row(row);
    EXPECT_GE(n, 0);
    EXPECT_LT(n, 64);
    seen.insert(n);
  }
  EXPECT_EQ(seen.size(), 64u);
}

TEST(Tf32WgmmaWsLayout, FragmentLoadsAreFreeOfBankConflicts) {
  // One ld.shared.u32 per (warp, register, k-slice, column group): its 32 lanes hit 32 banks.
  for (int group = 0; group < 4; ++group)
    for (int warp = 0; warp < 4; ++warp)
      for (int reg = 0; reg < 4; ++reg)
        for (int slice = 0; slice < 4; ++slice) {
          std::set<std::uint32_t> banks;
          for (int lane = 0; lane < 32; ++lane) banks.insert(ws::b_fragment_offset(group, warp, lane, reg, slice) / 4 % 32);
          EXPECT_EQ(banks.size(), 32u) << "group " << group << " warp " << warp << " reg " << reg << " slice " << slice;
        }
}

TEST(Tf32WgmmaWsLayout, SwizzleStaysInItsRowAndAtom) {
  for (int row = 0; row < 32; ++row) {
    std::set<std::uint32_t> offsets;
    for (int col = 0; col < 32; ++col) {
      const std::uint32_t off = ws::swizzled_offset(row, col);
      EXPECT_EQ(off / 128, std::uint32_t(row));
      offsets.insert(off);
    }
    EXPECT_EQ(offsets.size(), 32u);
  }
}

// The wgmma descriptor's view of a K-major tile with 128-byte swizzle: the
// address of (row, k) before swizzling is start + (row / 8) * SBO + (row % 8)
// * 128 + 4 k, and the swizzle XORs address bits 4-6 with bits 7-9. Written
// independently of swizzled_offset, so the model checks that TMA's image and
// the descriptor agree.
std::uint32_t descriptor_offset(int row, int k) {
  const std::uint32_t linear = std::uint32_t((row / 8) * 1024 + (row % 8) * 128 + 4 * k);
  return linear ^ (((linear >> 7) & 7) << 4);
}

// Runs one CTA tile of the kernel's data flow on the host: C's tile at
// (row0, col0) of a bm x bn block tile with nsub column groups per consumer.
void model_tile(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c, int m, int n, int k,
                int bm, int nsub, int row0, int col0) {
  const int bn = 128 * nsub, kConsumers = 2;
  std::vector<float> acc(std::size_t(kConsumers) * nsub * 128 * (bm / 2), 0.0f);  // [consumer][group][thread][i]
  std::vector<unsigned char> a_tile(std::size_t(bm) * 128), b_tile(std::size_t(bn) * 128);
  const auto put = [](std::vector<unsigned char>& img, std::uint32_t off, float v) { std::memcpy(&img[off], &v, 4); };
  const auto get = [](const std::vector<unsigned char>& img, std::uint32_t off) {
    float v;
    std::memcpy(&v, &img[off], 4);
    return v;
  };
  for (int k0 = 0; k0 < k; k0 += 32) {
    // TMA: A's box (bm rows x 32 k), B's boxes (32 k x 32 n each); zeros out of bounds.
    for (int r = 0; r < bm; ++r)
      for (int kk = 0; kk < 32; ++kk) {
        const bool in = row0 + r < m && k0 + kk < k;
        put(a_tile, ws::swizzled_offset(r, kk), in ? a[std::size_t(row0 + r) * k + k0 + kk] : 0.0f);
      }
    for (int box = 0; box < bn / 32; ++box)
      for (int kk = 0; kk < 32; ++kk)
        for (int cc = 0; cc < 32; ++cc) {
          const int col = col0 + 32 * box + cc;
          const bool in = k0 + kk < k && col < n;
          put(b_tile, box * ws::kBBoxBytes + ws::swizzled_offset(kk, cc), in ? b[std::size_t(k0 + kk) * n + col] : 0.0f);
        }
    for (int consumer = 0; consumer < kConsumers; ++consumer)
      for (int u = 0; u < nsub; ++u)
        for (int slice = 0; slice < 4; ++slice) {
          // The wgmma A operand (64 x 8) gathered from the 128 threads' fragment registers.
          float a_op[64][8] = {};
          for (int t = 0; t < 128; ++t)
            for (int reg = 0; reg < 4; ++reg) {
              const int warp = t / 32, lane = t % 32;
              a_op[ws::frag_row(warp, lane, reg)][ws::frag_k(lane, reg)] =
                  get(b_tile, ws::b_fragment_offset(consumer * nsub + u, warp, lane, reg, slice));
            }
          // D (64 x bm) += A_op * B_op, B_op (8 x bm) read through the descriptor; then
          // each thread's accumulators by the documented D layout.
          for (int t = 0; t < 128; ++t)
            for (int i = 0; i < bm / 2; ++i) {
              const int warp = t / 32, lane = t % 32;
              const int d_row = 16 * warp + lane / 4 + 8 * ((i / 2) % 2), d_col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
              float sum = 0;
              for (int kk = 0; kk < 8; ++kk) sum += a_op[d_row][kk] * get(a_tile, descriptor_offset(d_col, 8 * slice + kk));
              acc[((std::size_t(consumer) * nsub + u) * 128 + t) * (bm / 2) + i] += sum;
            }
        }
  }
  for (int consumer = 0; consumer < kConsumers; ++consumer)
    for (int u = 0; u < nsub; ++u)
      for (int t = 0; t < 128; ++t)
        for (int i = 0; i < bm / 2; ++i) {
          const int warp = t / 32, lane = t % 32;
          const int row = row0 + ws::acc_m(lane, i), col = col0 + ws::acc_n(consumer * nsub + u, warp, lane, i);
          if (row < m && col < n) c[std::size_t(row) * n + col] = acc[((std::size_t(consumer) * nsub + u) * 128 + t) * (bm / 2) + i];
        }
}

TEST(Tf32WgmmaWsLayout, HostModelMultipliesLikeTheReference) {
  struct Shape {
    int m, n, k, bm, nsub;
  };
  // Both tile shapes; ragged in every dimension; two tiles each way.
  for (const Shape s : {Shape{300, 200, 70, 256, 1}, Shape{150, 300, 45, 128, 2}, Shape{37, 29, 5, 256, 1}}) {
    const auto a = random_matrix(std::size_t(s.m) * s.k, 1), b = random_matrix(std::size_t(s.k) * s.n, 2);
    std::vector<float> c(std::size_t(s.m) * s.n, std::nanf(""));
    const int bn = 128 * s.nsub;
    for (int row0 = 0; row0 < s.m; row0 += s.bm)
      for (int col0 = 0; col0 < s.n; col0 += bn) model_tile(a, b, c, s.m, s.n, s.k, s.bm, s.nsub, row0, col0);
    for (std::size_t i = 0; i < c.size(); ++i) ASSERT_TRUE(std::isfinite(c[i])) << "cell " << i << " not written";
    EXPECT_LT(relative_error(c, reference_matmul(a, b, s.m, s.n, s.k)), 1e-5) << s.m << "x" << s.n << "x" << s.k;
  }
}

TEST(Tf32WgmmaWsLayout, TilesInGroupsCoverEveryUnitOnce) {
  for (const auto [units_m, units_n, group] : {std::array{16, 32, 8}, std::array{13, 7, 8}, std::array{3, 5, 16}}) {
    std::set<std::pair<int, int>> seen;
    for (int unit = 0; unit < units_m * units_n; ++unit) {
      int um = -1, un = -1;
      ws::unit_position(unit, units_m, units_n, group, um, un);
      ASSERT_TRUE(um >= 0 && um < units_m && un >= 0 && un < units_n) << unit;
      seen.insert({um, un});
    }
    EXPECT_EQ(seen.size(), std::size_t(units_m) * units_n);
  }
}

// ---- on the GPU ----

struct Case {
  int variant;
  int m, n, k;
  int grid_limit;  // 0: the variant's own grid
};

std::vector<Case> all_cases() {
  // Small ragged shapes (k or n not multiples of 4 -> padded copies; k
  // shorter than a k-tile; a single row), walked by 1-3 CTAs; then squares.
  const int ragged[][3] = {{1, 1, 1},     {37, 29, 45},   {130, 132, 68},  {257, 129, 33},
                           {200, 8, 12},  {515, 260, 1028}, {300, 520, 999}, {3001, 97, 63}};
  const int square[] = {256, 512, 1024};
  std::vector<Case> cases;
  for (int v = 0; v < int(tf32_ws_variants().size()); ++v) {
    const int grid = 3 * tf32_ws_variants()[v].cluster_m * tf32_ws_variants()[v].cluster_n;
    for (const auto& s : ragged) cases.push_back({v, s[0], s[1], s[2], grid});
    for (int e : square) cases.push_back({v, e, e, e, 0});
  }
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name(tf32_ws_variants()[info.param.variant].name);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name + "_" + std::to_string(info.param.m) + "x" + std::to_string(info.param.n) + "x" +
         std::to_string(info.param.k) + (info.param.grid_limit ? "_grid" + std::to_string(info.param.grid_limit) : "");
}

class Tf32WgmmaWs : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const gpu::DeviceStatus st = gpu::probe();
    if (!st.available) GTEST_SKIP() << "no GPU: " << st.reason;
    if (st.compute_capability != 90) GTEST_SKIP() << "tf32-wgmma-ws is sm_90a code; this GPU is cc " << st.compute_capability;
  }
};

TEST_P(Tf32WgmmaWs, MatchesDoublePrecision) {
  const Case c = GetParam();
  const auto a = random_matrix(std::size_t(c.m) * c.k, std::uint32_t(c.m * 7 + c.k));
  const auto b = random_matrix(std::size_t(c.k) * c.n, std::uint32_t(c.n * 13 + c.k));
  std::vector<float> out(std::size_t(c.m) * c.n);
  gpu::DeviceBuffer da, db, dc;
  float* dev_c = dc.get<float>(out.size());
  TS_CUDA_CHECK(cudaMemcpy(da.get<float>(a.size()), a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(db.get<float>(b.size()), b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemset(dev_c, 0xFF, out.size() * 4));  // NaN: unwritten cells show
  launch_tf32_ws_variant(c.variant, da.get<float>(a.size()), db.get<float>(b.size()), dev_c, c.m, c.n, c.k, nullptr,
                         c.grid_limit);
  TS_CUDA_CHECK_LAUNCH();
  TS_CUDA_CHECK(cudaMemcpy(out.data(), dev_c, out.size() * 4, cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < out.size(); ++i)
    ASSERT_TRUE(std::isfinite(out[i])) << "cell (" << i / c.n << ", " << i % c.n << ") not written";
  const double err = relative_error(out, reference_matmul(a, b, c.m, c.n, c.k));
  EXPECT_LT(err, 5e-3);
  if (c.k >= 8) {
    EXPECT_GT(err, 1e-6) << "TF32 rounding should show: is this really the tensor-core path?";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryVariant, Tf32WgmmaWs, ::testing::ValuesIn(all_cases()), case_name);

}  // namespace
}  // namespace ts::ladder
