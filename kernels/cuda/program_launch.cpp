// program_launch.cpp — `tilescope launch`: inputs, the launch, the check.
#include "kernels/cuda/program_launch.h"

#include <cuda_runtime.h>

#include <cmath>

#include "kernels/catalog.h"
#include "kernels/cuda/bench_check.cuh"
#include "kernels/cuda/bench_cublas.cuh"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/plain_file.h"
#include "kernels/cuda/plain_kernels.cuh"
#include "kernels/recorder.h"
#include "trace/model/reference.h"

namespace ts::gpu {
namespace {

// Row-major rows x cols <-> column-major (to_column: which way).
std::vector<float> relaid(const std::vector<float>& v, int rows, int cols, bool to_column) {
  std::vector<float> out(v.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const std::size_t row_major = std::size_t(r) * cols + c, col_major = std::size_t(c) * rows + r;
      if (to_column) out[col_major] = v[row_major];
      else out[row_major] = v[col_major];
    }
  return out;
}

struct DeviceFloats {
  float* p = nullptr;
  explicit DeviceFloats(std::size_t count) { TS_CUDA_CHECK(cudaMalloc(&p, std::max<std::size_t>(count, 1) * 4)); }
  ~DeviceFloats() { cudaFree(p); }  // nothing to report at teardown
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
};

}  // namespace

LaunchOutcome launch_once(const LaunchRequest& q) {
  const bool col = q.order == MatrixOrder::ColMajor;
  if (q.source == LaunchSource::Catalog && col)
    throw RecordError(RecordError::Kind::InvalidParams, "tilescope's kernels take row-major A, B and C (--layout row)");
  // The inputs `record --seed` makes (the catalog kernel's shape checked too).
  RecordParams p;
  p.kernel = q.source == LaunchSource::Catalog ? q.kernel : KernelKind::Naive;
  p.tile = q.source == LaunchSource::Catalog ? q.tile : 16;
  p.m = q.m, p.n = q.n, p.k = q.k;
  p.seed = q.seed;
  p.device = DeviceChoice::Cpu;  // only the inputs: nothing is recorded
  validate_shape(p);
  Trace t = prepare_launch(p);

  std::vector<BoundParam> bound;
  bool c_zero = false;
  double alpha = 1.0;
  if (q.source == LaunchSource::CudaFile) {
    bound = bind_plain_kernel(q.file, q.m, q.n, q.k);  // before any allocation: a usage error costs no GPU time
    c_zero = plain_kernel_takes_beta(bound);
    alpha = plain_kernel_alpha(bound);
  }
  if (c_zero) std::fill(t.c.begin(), t.c.end(), 0.0f);

  const DeviceStatus gpu = probe();  // allocates nothing: A, B, C stay the first allocations
  if (!gpu.available) throw GpuError("no GPU to launch on: " + gpu.reason);
  LaunchOutcome out;
  out.device = gpu.name;
  out.seed = t.launch.seed;
  // A, B, C: the first three allocations, in that order.
  DeviceFloats a(t.a.size()), b(t.b.size()), c(t.c.size());
  const std::vector<float> ha = col ? relaid(t.a, q.m, q.k, true) : t.a;
  const std::vector<float> hb = col ? relaid(t.b, q.k, q.n, true) : t.b;
  const std::vector<float> hc = col ? relaid(t.c, q.m, q.n, true) : t.c;
  TS_CUDA_CHECK(cudaMemcpy(a.p, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(b.p, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(c.p, hc.data(), hc.size() * 4, cudaMemcpyHostToDevice));

  cudaEvent_t start = nullptr, stop = nullptr;
  auto timed = [&](auto&& body) {
    TS_CUDA_CHECK(cudaEventCreate(&start));
    TS_CUDA_CHECK(cudaEventCreate(&stop));
    TS_CUDA_CHECK(cudaEventRecord(start));
    body();
    TS_CUDA_CHECK(cudaEventRecord(stop));
    TS_CUDA_CHECK(cudaGetLastError());
    TS_CUDA_CHECK(cudaEventSynchronize(stop));  // the tracer reads its records back at this synchronization
    float ms = 0;
    TS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    out.milliseconds = ms;
    TS_CUDA_CHECK(cudaEventDestroy(start));
    TS_CUDA_CHECK(cudaEventDestroy(stop));
  };
  switch (q.source) {
    case LaunchSource::Catalog:
      out.kernel = std::string(kernel_info(q.kernel).name) + (!takes_tile(q.kernel) ? std::string() : " TILE=" + std::to_string(q.tile));
      timed([&] { launch_plain(q.kernel, q.tile, a.p, b.p, c.p, q.m, q.n, q.k); });
      break;
    case LaunchSource::CudaFile: {
      PlainFileOperands ops{a.p, b.p, c.p, q.m, q.n, q.k};
      const PlainFileLaunch l = launch_plain_file(q.file, bound, ops);
      out.kernel = q.file.entry;
      out.milliseconds = l.milliseconds;
      break;
    }
    case LaunchSource::Cublas: {
      CublasHandle handle;  // after A, B, C: its own allocations come later
      out.kernel = "cuBLAS " + CublasHandle::version() + (q.tf32 ? " GEMM (TF32)" : " SGEMM");
      timed([&] {
        if (col) handle.gemm_col_major(a.p, b.p, c.p, q.m, q.n, q.k, q.tf32, nullptr);
        else if (q.tf32) handle.gemm_tf32(a.p, b.p, c.p, q.m, q.n, q.k, nullptr);
        else handle.gemm_fp32(a.p, b.p, c.p, q.m, q.n, q.k, nullptr);
      });
      break;
    }
  }
  TS_CUDA_CHECK(cudaDeviceSynchronize());  // every launch done (cuBLAS's split-k reduction too)
  std::vector<float> hc_after(t.c.size());
  TS_CUDA_CHECK(cudaMemcpy(hc_after.data(), c.p, hc_after.size() * 4, cudaMemcpyDeviceToHost));
  t.c = col ? relaid(hc_after, q.m, q.n, false) : hc_after;
  out.product = product_name(alpha);
  const bool tf32 = (q.source == LaunchSource::Cublas && q.tf32) ||
                    (q.source == LaunchSource::Catalog && q.kernel == KernelKind::Tf32TensorCore);
  if (tf32) {
    // TF32 rounds the inputs to 10 mantissa bits: held to the normwise bound the benchmark uses.
    const double err = relative_error(t.c, reference_matmul(t.a, t.b, q.m, q.n, q.k));
    if (!(err <= kTf32Tolerance))
      out.wrong = "relative error " + std::to_string(err) + " > " + std::to_string(kTf32Tolerance);
  } else {
    out.wrong = check_matmul(t.a, t.b, t.c, q.m, q.n, q.k, alpha);
  }
  return out;
}

}  // namespace ts::gpu
