// bench_no_gpu.cpp — the benchmark in a build without CUDA: there is no GPU to time.
#include "kernels/cuda/bench_runner.h"
#include "kernels/cuda/gpu_runtime.h"

namespace ts::gpu {

BenchResults run_benchmark(const BenchOptions&, const ProgressFn&) { throw GpuError("no GPU found: " + probe().reason); }

std::vector<BenchKernelInfo> bench_kernel_list() { throw GpuError(probe().reason); }

}  // namespace ts::gpu
