// tf32-wgmma-ws (kernels/ladder/tf32_wgmma_ws.cuh) on an sm_90 GPU (label
// gpu; skipped without one): every compiled variant against a
// double-precision reference at small ragged shapes (rows that TMA cannot
// address go through the padded copy, as do operands that start off 16
// bytes), with a grid of 1 to 3 CTAs so that
// each CTA walks several tiles and the ring wraps, and at a few square
// shapes with the variant's own grid; output poisoned with NaN first, TF32
// tolerance. Its index arithmetic and shared-memory carve-up are checked
// without a GPU in tf32_wgmma_ws_layout_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <cstdint>
#include <cmath>
#include <random>
#include <string>

#include "trace/model/reference.h"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/ladder/tf32_wgmma_ws.h"
#include "tests/kernels/random_matrix.h"

namespace ts::ladder {
namespace {

using test::random_matrix;

// ---- on the GPU ----

struct Case {
  int variant;
  int m, n, k;
  int grid_limit;  // 0: the variant's own grid
  bool stream_k = false;
  int splits = 1;
  int a_offset = 0, b_offset = 0;  // floats A and B start past a 256-byte boundary
  int tail = 1;
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
    if (!tf32_ws_variants()[v].persistent) continue;
    // Stream-k: units cut into pieces of every length, several pieces (and
    // partials) per unit, empty runs (fewer k-tiles than clusters), a grid
    // of 2 and 3 clusters where whole units and pieces mix; and the
    // variant's own grid, at shapes whose units leave a partial round.
    for (const auto& s : ragged) cases.push_back({v, s[0], s[1], s[2], 2 * grid / 3, true});
    cases.push_back({v, 515, 260, 1028, grid, true});
    cases.push_back({v, 1000, 1000, 300, 0, true});
    cases.push_back({v, 128, 4096, 2048, 0, true});
    cases.push_back({v, 1500, 700, 3001, 0, true});
    // The tail split: on a grid of 5 clusters (a last round of 1 to 4 units,
    // cut into 5, 2 or 1 pieces: 1 is the data-parallel grid), pieces of one
    // k-tile and more pieces asked than k-tiles; and the variant's own grid.
    for (const auto& s : ragged) cases.push_back({v, s[0], s[1], s[2], 5 * grid / 3, false, 1, 0, 0, 8});
    cases.push_back({v, 1500, 700, 3001, 0, false, 1, 0, 0, 4});
    cases.push_back({v, 128, 4096, 2048, 0, false, 1, 0, 0, 16});
    cases.push_back({v, 3000, 1000, 999, 0, false, 1, 0, 0, 3});
    // Split-k: pieces of one k-tile, a ragged last piece, more splits than k-tiles, C of one cell.
    for (const auto& s : {std::array{300, 261, 199}, std::array{37, 29, 45}, std::array{1, 1, 1}, std::array{128, 128, 4100}})
      for (const int splits : {2, 7, 64}) cases.push_back({v, s[0], s[1], s[2], splits == 7 ? grid : 0, false, splits});
    // A and B off 16 bytes by their addresses (whole rows): the padded copies.
    for (const auto& o : {std::array{1, 0}, std::array{0, 2}, std::array{3, 1}})
      cases.push_back({v, 256, 256, 256, 0, false, 1, o[0], o[1]});
  }
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name(tf32_ws_variants()[info.param.variant].name);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name + "_" + std::to_string(info.param.m) + "x" + std::to_string(info.param.n) + "x" +
         std::to_string(info.param.k) + (info.param.grid_limit ? "_grid" + std::to_string(info.param.grid_limit) : "") +
         (info.param.stream_k ? "_sk" : "") + (info.param.splits > 1 ? "_split" + std::to_string(info.param.splits) : "") +
         (info.param.tail > 1 ? "_tail" + std::to_string(info.param.tail) : "") +
         (info.param.a_offset || info.param.b_offset
              ? "_off" + std::to_string(info.param.a_offset) + "_" + std::to_string(info.param.b_offset)
              : "");
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
  float* dev_a = da.get<float>(a.size() + 4) + c.a_offset;  // cudaMalloc: 256-byte aligned
  float* dev_b = db.get<float>(b.size() + 4) + c.b_offset;
  TS_CUDA_CHECK(cudaMemcpy(dev_a, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(dev_b, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemset(dev_c, 0xFF, out.size() * 4));  // NaN: unwritten cells show
  launch_tf32_ws_variant(c.variant, dev_a, dev_b, dev_c, c.m, c.n, c.k, nullptr, c.grid_limit, c.stream_k, c.splits,
                         c.tail);
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
