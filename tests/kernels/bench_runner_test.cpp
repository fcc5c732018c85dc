// On a real GPU (label gpu): the benchmark runner checks before it times.
// Deliberately broken kernels (a missed k-tile, half of C never written) are
// reported as failed and never timed; refused and too-slow rows say why; the
// figures of the good rows hang together.
#include <gtest/gtest.h>

#include "kernels/cuda/bench_entries.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/ladder/ladder.h"

namespace ts::gpu {
namespace {

class BenchRunner : public ::testing::Test {
 protected:
  void SetUp() override {
    const DeviceStatus st = probe();
    ASSERT_TRUE(st.available) << st.reason;
  }
  static BenchOptions small(std::vector<GemmShape> shapes) {
    BenchOptions o;
    o.shapes = std::move(shapes);
    o.measure_ceilings = false;
    return o;
  }
};

BenchEntry broken(const std::string& name, GemmLaunch launch) {
  BenchEntry e;
  e.info = {name, "ladder", "fp32", "deliberately wrong"};
  e.bytes = [](int m, int n, int k) { return gemm_bytes_compulsory(m, n, k); };
  e.refusal = [](int, int, int, int) { return std::string(); };
  e.launch = std::move(launch);
  return e;
}

TEST_F(BenchRunner, BrokenKernelsFailAndAreNeverTimed) {
  CublasHandle cublas;
  std::vector<BenchEntry> entries = all_bench_entries(&cublas);
  std::vector<BenchEntry> chosen{entries[0], entries[1]};
  for (const BenchEntry& e : entries)
    if (e.info.name == "tiled/16" || e.info.name == "double-buffer" || e.info.name == "tf32-tensor-core") chosen.push_back(e);
  chosen.push_back(broken("misses-last-k", [](const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t s) {
    ladder::launch_double_buffer(a, b, c, m, n, k - 4, s);  // reads A with the wrong row length too
  }));
  chosen.push_back(broken("half-written", [](const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t s) {
    ladder::launch_double_buffer(a, b, c, m / 2, n, k, s);
  }));
  const BenchResults r = run_bench_entries(small({{256, 256, 256}, {300, 260, 124}}), chosen, {});
  ASSERT_EQ(r.rows.size(), 2 * chosen.size());
  for (const BenchRow& row : r.rows) {
    SCOPED_TRACE(row.kernel + " " + std::to_string(row.m));
    if (row.kernel == "misses-last-k" || row.kernel == "half-written") {
      EXPECT_EQ(row.status, RowStatus::Failed);
      EXPECT_EQ(row.runs, 0);
      EXPECT_EQ(row.time_ms, 0);
      EXPECT_EQ(row.gflops, 0);
      if (row.kernel == "half-written") EXPECT_NE(row.message.find("not written"), std::string::npos) << row.message;
      else EXPECT_NE(row.message.find("wrong result"), std::string::npos) << row.message;
      continue;
    }
    EXPECT_EQ(row.status, RowStatus::Ok) << row.message;
    EXPECT_EQ(row.runs, 20);
    EXPECT_GT(row.time_ms, 0);
    EXPECT_LE(row.time_min_ms, row.time_ms);
    EXPECT_GE(row.time_max_ms, row.time_ms);
    EXPECT_GT(row.gflops, 0);
    EXPECT_GT(row.pct_cublas, 0);
    EXPECT_LT(row.rel_err_ref, row.precision == "tf32" ? 5e-3 : 1e-4);
  }
  EXPECT_NEAR(find_row(r, "cublas-fp32", 256, 256, 256)->pct_cublas, 100.0, 1e-9);
  EXPECT_GT(r.device.sm_count, 0);
  EXPECT_GT(r.ceilings.peak_fp32_gflops, 0);
  EXPECT_FALSE(r.device.date.empty());
}

TEST_F(BenchRunner, RefusedAndSkippedRowsSayWhy) {
  BenchOptions o = small({{64, 64, 45}});
  o.kernels = {"vectorized", "tiled/32"};
  o.max_seconds_per_row = 1e-9;  // everything would take too long: checked, then skipped
  const BenchResults r = run_benchmark(o);
  const BenchRow* vec = find_row(r, "vectorized", 64, 64, 45);
  const BenchRow* tiled = find_row(r, "tiled/32", 64, 64, 45);
  ASSERT_TRUE(vec && tiled);
  EXPECT_EQ(vec->status, RowStatus::Refused);
  EXPECT_NE(vec->message.find("multiples of 4"), std::string::npos);
  EXPECT_EQ(tiled->status, RowStatus::Skipped);
  EXPECT_NE(tiled->message.find("correct, not timed"), std::string::npos) << tiled->message;
  EXPECT_EQ(tiled->runs, 0);
  EXPECT_EQ(r.rows.size(), 4u);  // cuBLAS FP32 and TF32 always run
}

TEST_F(BenchRunner, RefusesUnknownKernelsAndBadShapes) {
  BenchOptions o = small({{64, 64, 64}});
  o.kernels = {"fastest"};
  EXPECT_THROW(run_benchmark(o), std::invalid_argument);
  EXPECT_THROW(run_benchmark(small({{0, 64, 64}})), std::invalid_argument);
  EXPECT_THROW(run_benchmark(small({})), std::invalid_argument);
}

TEST_F(BenchRunner, CeilingsAreMeasured) {
  BenchOptions o = small({{512, 512, 512}});
  o.kernels = {"cublas"};
  o.measure_ceilings = true;
  const BenchResults r = run_benchmark(o);
  EXPECT_GT(r.ceilings.copy_gbytes_per_s, 100);
  EXPECT_GT(r.ceilings.cublas_fp32_gflops, 1000);
  EXPECT_GT(r.ceilings.cublas_tf32_gflops, r.ceilings.cublas_fp32_gflops);
}

}  // namespace
}  // namespace ts::gpu
