// bench_entries.cuh — every kernel the benchmark runs, behind one interface:
// cuBLAS (FP32, TF32), the visualized kernels' plain builds at TILE 16 and
// 32, and the ladder. The runner and the GPU tests (which add deliberately
// broken entries to prove the check catches them) work on these.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <vector>

#include "kernels/cuda/bench_cublas.cuh"
#include "kernels/cuda/bench_runner.h"

namespace ts::gpu {

using GemmLaunch = std::function<void(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t)>;

struct BenchEntry {
  BenchKernelInfo info;
  std::function<double(int m, int n, int k)> bytes;  // global bytes moved by its tiling
  // Why it cannot run this shape on a GPU of this compute capability; empty if it can.
  std::function<std::string(int m, int n, int k, int compute_capability)> refusal;
  GemmLaunch launch;  // enqueues one run, checks the launch error
};

// The two cuBLAS entries come first: every other entry is compared with them.
std::vector<BenchEntry> all_bench_entries(CublasHandle* cublas);  // null: for listing only, not to run

// The benchmark over explicit entries (the first two must be cuBLAS FP32 and TF32).
BenchResults run_bench_entries(const BenchOptions& options, const std::vector<BenchEntry>& entries,
                               const ProgressFn& progress);

}  // namespace ts::gpu
