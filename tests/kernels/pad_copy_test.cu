// pad_rows_async (kernels/ladder/pad_copy.cu) on a real GPU (label gpu): the
// padded copies that tf32-wgmma-ws and fp32-best read where rows are off 16
// bytes. Each copy is compared word for word with the source on the host:
// every row's columns, the zeros past them up to ld, and guard words after
// the copy left as they were; the destination is poisoned with NaN first.
// Shapes: one matrix and two at once (a narrow one beside a wide one, as B
// of n = 157 beside A of k = 5,257), rows shorter than a warp's float4s,
// ld more than 3 past cols, sources starting off 16 bytes, an empty matrix
// beside a full one, and copies larger than the grid's one pass.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/bench_check.cuh"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/ladder/ladder_device.cuh"
#include "tests/kernels/random_matrix.h"

namespace ts::ladder {
namespace {

struct Matrix {
  int rows, cols, ld;
  int src_offset = 0;  // floats the source starts past a 256-byte boundary
};

constexpr int kGuard = 64;  // words after each copy that must stay poisoned

// Copies one or two matrices at once and checks every word of each copy.
void check_copies(const std::vector<Matrix>& ms, std::uint32_t seed) {
  std::vector<std::vector<float>> host;
  std::vector<float*> src(ms.size()), dst(ms.size());
  std::vector<PadJob> jobs;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    const Matrix& m = ms[i];
    const std::size_t words = std::size_t(m.rows) * m.cols;
    host.push_back(test::random_matrix(words, seed + std::uint32_t(i)));
    TS_CUDA_CHECK(cudaMalloc(&src[i], (words + m.src_offset + 1) * sizeof(float)));
    TS_CUDA_CHECK(cudaMemcpy(src[i] + m.src_offset, host[i].data(), words * sizeof(float), cudaMemcpyHostToDevice));
    const std::size_t out = std::size_t(m.rows) * m.ld + kGuard;
    TS_CUDA_CHECK(cudaMalloc(&dst[i], out * sizeof(float)));
    gpu::poison(dst[i], out, nullptr);
    jobs.push_back({src[i] + m.src_offset, m.rows, m.cols, dst[i], m.ld});
  }
  pad_rows_async(jobs.data(), int(jobs.size()), nullptr);
  TS_CUDA_CHECK(cudaDeviceSynchronize());
  for (std::size_t i = 0; i < ms.size(); ++i) {
    const Matrix& m = ms[i];
    const std::string what = "matrix " + std::to_string(i) + " (" + std::to_string(m.rows) + " x " +
                             std::to_string(m.cols) + ", ld " + std::to_string(m.ld) + ")";
    std::vector<float> got(std::size_t(m.rows) * m.ld + kGuard);
    TS_CUDA_CHECK(cudaMemcpy(got.data(), dst[i], got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < m.rows && bad < 5; ++r)
      for (int c = 0; c < m.ld && bad < 5; ++c) {
        const float want = c < m.cols ? host[i][std::size_t(r) * m.cols + c] : 0.0f;
        const float g = got[std::size_t(r) * m.ld + c];
        if (!(g == want)) {
          ADD_FAILURE() << what << ": row " << r << " column " << c << " is " << g << ", not " << want;
          ++bad;
        }
      }
    for (int w = 0; w < kGuard; ++w)
      ASSERT_TRUE(std::isnan(got[std::size_t(m.rows) * m.ld + w])) << what << ": guard word " << w << " written";
    TS_CUDA_CHECK(cudaFree(src[i]));
    TS_CUDA_CHECK(cudaFree(dst[i]));
  }
}

int round4(int x) { return (x + 3) / 4 * 4; }

class PadCopy : public ::testing::Test {
 protected:
  void SetUp() override {
    const gpu::DeviceStatus st = gpu::probe();
    ASSERT_TRUE(st.available) << st.reason;
  }
};

TEST_F(PadCopy, OneMatrix) {
  for (const Matrix m : {Matrix{1, 1, 4}, Matrix{7, 3, 4}, Matrix{129, 157, 160}, Matrix{5257, 157, 160, 1},
                         Matrix{33, 1001, 1004, 2}, Matrix{3, 5, 12}, Matrix{2000, 2047, 2048, 3}})
    check_copies({m}, 11);
}

TEST_F(PadCopy, TwoMatricesOfDifferentWidths) {
  // tf32-wgmma-ws's pair: A (m x k) and B (k x n), both off 16 bytes.
  check_copies({{2969, 5257, round4(5257)}, {5257, 157, round4(157)}}, 21);
  check_copies({{362, 6359, round4(6359), 1}, {6359, 511, round4(511), 2}}, 22);
  check_copies({{5, 6, 8}, {700, 9, 12}}, 23);
}

TEST_F(PadCopy, AnEmptyMatrixBesideAFullOne) {
  check_copies({{0, 0, 0}, {300, 301, 304}}, 31);
  check_copies({{300, 301, 304}, {0, 5, 8}}, 32);
}

TEST_F(PadCopy, MoreThanOnePassOfTheGrid) {
  // 4,100 x 4,101 floats: 4.2 M float4s, more than 2,048 blocks x 256 threads x 4 in flight.
  check_copies({{4100, 4101, 4104, 1}}, 41);
}

TEST_F(PadCopy, RefusesCopiesThatBreakTheRules) {
  float* buf = nullptr;
  TS_CUDA_CHECK(cudaMalloc(&buf, 64 * sizeof(float)));
  const PadJob ld_not_float4{buf, 2, 5, buf + 16, 6}, ld_short{buf, 2, 5, buf + 16, 4},
      dst_off_16{buf, 2, 3, buf + 17, 4};
  for (const PadJob& j : {ld_not_float4, ld_short, dst_off_16})
    EXPECT_THROW(pad_rows_async(&j, 1, nullptr), std::invalid_argument);
  EXPECT_THROW(pad_rows_async(&ld_short, 0, nullptr), std::invalid_argument);
  EXPECT_THROW(pad_rows_async(&ld_short, 3, nullptr), std::invalid_argument);
  TS_CUDA_CHECK(cudaFree(buf));
}

}  // namespace
}  // namespace ts::ladder
