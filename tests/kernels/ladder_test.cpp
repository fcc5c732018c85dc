// On a real GPU (label gpu): every rung of the ladder computes C = A * B at
// several sizes, including sizes that are not multiples of its tile, with
// fresh random inputs, its output poisoned beforehand and checked against a
// double-precision reference; a shape a rung cannot run is refused with a
// message that says why.
#include <gtest/gtest.h>

#include <random>

#include "trace/model/reference.h"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/ladder/ladder.h"

namespace ts::ladder {
namespace {

struct Case {
  std::string kernel;
  int m, n, k;
};

std::vector<Case> all_cases() {
  // Whole tiles; ragged in every dimension; a single row; k shorter than one
  // k-tile; and one shape whose k is not a multiple of 4.
  const int shapes[][3] = {{256, 256, 256}, {130, 132, 68}, {515, 260, 1028}, {1, 4, 4},
                           {37, 44, 20},    {200, 8, 12},   {37, 29, 45}};
  std::vector<Case> cases;
  for (const LadderKernel& lk : ladder_kernels())
    for (const auto& s : shapes) cases.push_back({std::string(lk.name), s[0], s[1], s[2]});
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.kernel;
  for (char& c : name)
    if (c == '-') c = '_';
  return name + "_" + std::to_string(info.param.m) + "x" + std::to_string(info.param.n) + "x" +
         std::to_string(info.param.k);
}

class Ladder : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const gpu::DeviceStatus st = gpu::probe();
    ASSERT_TRUE(st.available) << st.reason;
    compute_capability_ = st.compute_capability;
  }
  int compute_capability_ = 0;
};

TEST_P(Ladder, MatchesDoublePrecisionOrRefuses) {
  const Case c = GetParam();
  const LadderKernel* lk = find_ladder_kernel(c.kernel);
  ASSERT_NE(lk, nullptr);
  const std::string refusal = ladder_refusal(*lk, c.m, c.n, c.k, compute_capability_);
  const bool aligned = c.k % lk->multiple_of == 0 && c.n % lk->multiple_of == 0;
  if (!aligned) {
    EXPECT_NE(refusal.find("multiples of 4"), std::string::npos) << refusal;
    return;
  }
  ASSERT_EQ(refusal, "") << "a shape the rung should run was refused";

  std::mt19937 rng(std::hash<std::string>{}(case_name({GetParam(), 0})));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(std::size_t(c.m) * c.k), b(std::size_t(c.k) * c.n), out(std::size_t(c.m) * c.n);
  for (float& v : a) v = dist(rng);
  for (float& v : b) v = dist(rng);
  gpu::DeviceBuffer da, db, dc;
  TS_CUDA_CHECK(cudaMemcpy(da.get<float>(a.size()), a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(db.get<float>(b.size()), b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemset(dc.get<float>(out.size()), 0xFF, out.size() * 4));  // NaN: unwritten cells show
  try {
    lk->launch(da.get<float>(a.size()), db.get<float>(b.size()), dc.get<float>(out.size()), c.m, c.n, c.k, nullptr);
  } catch (const gpu::GpuRefusal& e) {
    GTEST_SKIP() << c.kernel << " cannot run on this GPU: " << e.what();
  }
  TS_CUDA_CHECK_LAUNCH();
  TS_CUDA_CHECK(cudaMemcpy(out.data(), dc.get<float>(out.size()), out.size() * 4, cudaMemcpyDeviceToHost));

  for (std::size_t i = 0; i < out.size(); ++i)
    ASSERT_TRUE(std::isfinite(out[i])) << "cell (" << i / c.n << ", " << i % c.n << ") not written";
  const double err = relative_error(out, reference_matmul(a, b, c.m, c.n, c.k));
  EXPECT_LT(err, lk->tf32 ? 5e-3 : 1e-5) << c.kernel;
  if (lk->tf32) {
    EXPECT_GT(err, 1e-6) << "TF32 rounding should show: is this really the tensor-core path?";
  }
}

INSTANTIATE_TEST_SUITE_P(AllRungs, Ladder, ::testing::ValuesIn(all_cases()), case_name);

TEST(LadderRefusal, SaysWhy) {
  const LadderKernel* vec = find_ladder_kernel("vectorized");
  const LadderKernel* one_d = find_ladder_kernel("blocktile-1d");
  ASSERT_TRUE(vec && one_d);
  EXPECT_NE(ladder_refusal(*vec, 64, 64, 64, 75).find("compute capability 8.0"), std::string::npos);
  EXPECT_NE(ladder_refusal(*vec, 64, 30, 64, 90).find("n = 30"), std::string::npos);
  EXPECT_EQ(ladder_refusal(*one_d, 37, 29, 45, 90), "");
  EXPECT_NE(ladder_refusal(*one_d, 65536, 8, 65536, 90).find("32-bit"), std::string::npos);
  EXPECT_EQ(find_ladder_kernel("cublas"), nullptr);
  const LadderKernel* wgmma = find_ladder_kernel("tf32-wgmma");
  ASSERT_TRUE(wgmma);
  EXPECT_NE(ladder_refusal(*wgmma, 64, 64, 64, 80).find("9.0 only"), std::string::npos);
  EXPECT_EQ(ladder_refusal(*wgmma, 64, 64, 64, 90), "");
}

TEST(LadderRefusal, RungsInOrder) {
  std::vector<std::string> names;
  for (const LadderKernel& lk : ladder_kernels()) names.emplace_back(lk.name);
  // Each converted rung is followed by the kernel it replaced, until the two are compared on a GPU.
  EXPECT_EQ(names, (std::vector<std::string>{"blocktile-1d", "blocktile-1d-before", "blocktile-2d",
                                             "blocktile-2d-before", "vectorized", "vectorized-before", "warptile",
                                             "warptile-before", "double-buffer", "double-buffer-before",
                                             "tf32-tensor-core", "tf32-tensor-core-before", "tf32-wgmma",
                                             "tf32-wgmma-ws", "fp32-best"}));
}

}  // namespace
}  // namespace ts::ladder
