// On a real GPU (label gpu): a launch that asks a block for more dynamic
// shared memory than this GPU allows is refused before anything runs
// (GpuRefusal, with both figures), one at the limit runs; and the benchmark
// turns such a refusal into a refused row and goes on with the next kernel.
#include <gtest/gtest.h>

#include "kernels/cuda/bench_entries.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/ladder/ladder_device.cuh"

namespace ts::ladder {
namespace {

// Writes the last word of its dynamic shared memory through to out: proof it ran with all of it.
__global__ void touch_shared(int words, float* out) {
  extern __shared__ float shared[];
  shared[words - 1] = float(words);
  __syncthreads();
  if (threadIdx.x == 0) *out = shared[words - 1];
}

int allowed_per_block() {
  int device = 0, allowed = 0;
  TS_CUDA_CHECK(cudaGetDevice(&device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&allowed, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return allowed;
}

class SharedRefusal : public ::testing::Test {
 protected:
  void SetUp() override {
    const gpu::DeviceStatus st = gpu::probe();
    ASSERT_TRUE(st.available) << st.reason;
  }
};

TEST_F(SharedRefusal, OneWordPastTheLimitIsRefusedTheLimitRuns) {
  const int allowed = allowed_per_block();
  ASSERT_GT(allowed, 48 * 1024);
  float* out = nullptr;
  TS_CUDA_CHECK(cudaMalloc(&out, sizeof(float)));
  TS_CUDA_CHECK(cudaMemset(out, 0, sizeof(float)));
  try {
    launch_checked(touch_shared, dim3(1), 32, allowed + 4, nullptr, (allowed + 4) / 4, out);
    ADD_FAILURE() << "a launch past the limit was not refused";
  } catch (const gpu::GpuRefusal& e) {
    const std::string why = e.what();
    EXPECT_NE(why.find(std::to_string(allowed + 4) + " bytes of shared memory a block"), std::string::npos) << why;
    EXPECT_NE(why.find("this GPU allows " + std::to_string(allowed)), std::string::npos) << why;
  }
  TS_CUDA_CHECK(cudaGetLastError());  // nothing was launched, no error left behind
  launch_checked(touch_shared, dim3(1), 32, allowed, nullptr, allowed / 4, out);
  TS_CUDA_CHECK_LAUNCH();
  float got = 0;
  TS_CUDA_CHECK(cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT_EQ(got, float(allowed / 4));
  TS_CUDA_CHECK(cudaFree(out));
}

TEST_F(SharedRefusal, TheBenchmarkRefusesTheRowAndGoesOn) {
  gpu::CublasHandle cublas;
  std::vector<gpu::BenchEntry> entries = gpu::all_bench_entries(&cublas);
  std::vector<gpu::BenchEntry> chosen{entries[0], entries[1]};
  gpu::BenchEntry greedy;
  greedy.info = {"greedy", "ladder", "fp32", "asks a block for more shared memory than any GPU has"};
  greedy.bytes = [](int m, int n, int k) { return ts::gemm_bytes_compulsory(m, n, k); };
  greedy.refusal = [](int, int, int, int) { return std::string(); };
  greedy.launch = [](const float*, const float*, float* c, int, int, int, cudaStream_t s) {
    launch_checked(touch_shared, dim3(1), 32, allowed_per_block() + 1024, s, 1, c);
  };
  chosen.push_back(greedy);
  for (const gpu::BenchEntry& e : entries)
    if (e.info.name == "fp32-best") chosen.push_back(e);
  gpu::BenchOptions o;
  o.shapes = {{256, 256, 256}};
  o.measure_ceilings = false;
  const BenchResults r = gpu::run_bench_entries(o, chosen, {});
  ASSERT_EQ(r.rows.size(), 4u);
  EXPECT_EQ(r.rows[2].kernel, "greedy");
  EXPECT_EQ(r.rows[2].status, RowStatus::Refused);
  EXPECT_NE(r.rows[2].message.find("bytes of shared memory a block"), std::string::npos) << r.rows[2].message;
  EXPECT_EQ(r.rows[2].runs, 0);
  EXPECT_EQ(r.rows[3].kernel, "fp32-best");
  EXPECT_EQ(r.rows[3].status, RowStatus::Ok) << r.rows[3].message;
}

}  // namespace
}  // namespace ts::ladder
