// bench_no_gpu.cpp — the benchmark in a build without CUDA: there is no GPU to time.
#include "kernels/cuda/bench_runner.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/cuda/program_launch.h"

namespace ts::gpu {

BenchResults run_benchmark(const BenchOptions&, const ProgressFn&) { throw GpuError("no GPU found: " + probe().reason); }

std::vector<BenchKernelInfo> bench_kernel_list() { throw GpuError(probe().reason); }

LaunchOutcome launch_once(const LaunchRequest&) { throw GpuError(probe().reason); }

}  // namespace ts::gpu
