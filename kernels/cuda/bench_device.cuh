// bench_device.cuh — what the benchmark records about the GPU (name, clocks,
// driver, versions, FP32 lanes) and the memory ceiling it measures there.
#pragma once

#include <cuda_runtime.h>

#include "trace/bench_results.h"

namespace ts::gpu {

// FP32 FMA units per SM of a compute capability (CUDA programming guide,
// "arithmetic instructions" throughput table); 0 if unknown.
int fp32_lanes_per_sm(int compute_capability);

// Device 0's description, dated now. The current SM clock is left for
// read_sm_clock_mhz() to fill while the GPU is busy.
BenchDevice read_bench_device(const std::string& cublas_version);

// The SM clock now, through NVML if the driver has it; 0 if it cannot be read.
double read_sm_clock_mhz();

// A device-to-device copy of `bytes` (read + written bytes over the median time), in GB/s.
double measure_copy_bandwidth(std::size_t bytes, cudaStream_t stream);

}  // namespace ts::gpu
