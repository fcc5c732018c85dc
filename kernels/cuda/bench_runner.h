// bench_runner.h — the benchmark behind `tilescope bench` and the benchmark
// panel, without CUDA headers: every visualized kernel in its plain build at
// TILE 16 and 32, the ladder, and cuBLAS (FP32 and TF32), each checked against
// cuBLAS and a double-precision reference before it is timed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/bench_results.h"

namespace ts::gpu {

struct GemmShape {
  int m = 0, n = 0, k = 0;
};

// Named size sets: "square" is 128 ... 8192 by powers of two; "nonsquare"
// holds tall, wide, short-k and ragged shapes; "all" is both. Empty if unknown.
std::vector<GemmShape> sweep_shapes(std::string_view sweep);

struct BenchKernelInfo {
  std::string name;       // e.g. "tiled/16", "warptile", "cublas-fp32"
  std::string family;     // "visualized", "ladder" or "cublas"
  std::string precision;  // "fp32" or "tf32"
  std::string title;      // for people
};

struct BenchOptions {
  std::vector<std::string> kernels;  // names to run; empty: all. cuBLAS always runs: the percentages need it
  std::vector<GemmShape> shapes;
  int warmup_runs = 3;
  int timed_runs = 20;
  // A row whose warm-up and timed runs would together take longer is skipped
  // (the slowest visualized kernels at 8192 take seconds per launch).
  double max_seconds_per_row = 15;
  bool measure_ceilings = true;  // copy bandwidth and cuBLAS at 8192 (if it fits)
  // Each kernel timed in alternating rounds with the cuBLAS of its precision
  // (its row's reference_ms); false: every kernel timed on its own, back to back.
  bool paired = true;
  // The L2 cache overwritten before each timed run (gpu::L2Flush): every run
  // reads its inputs from device memory. false: runs find what the last left.
  bool flush_l2 = true;
  std::uint64_t seed = 2024;     // each shape draws fresh inputs from seed and its index
};

struct BenchProgress {
  std::size_t done = 0, total = 0;  // rows
  std::string step;                 // what runs now, e.g. "warptile 4096x4096x4096"
};
using ProgressFn = std::function<void(const BenchProgress&)>;

// Throws GpuError when there is no usable GPU (or the build has no CUDA) and
// std::invalid_argument for an unknown kernel name or an impossible shape.
// A kernel that fails its check is a Failed row, never timed.
BenchResults run_benchmark(const BenchOptions& options, const ProgressFn& progress = {});

// The kernels run_benchmark knows, in ladder order (needs a CUDA build).
std::vector<BenchKernelInfo> bench_kernel_list();

}  // namespace ts::gpu
