// cuda_check.cuh — every CUDA call is checked; a failure becomes a GpuError
// that names the call, the file and line, and CUDA's own message.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "kernels/cuda/gpu_runtime.h"

namespace ts::gpu {

inline void check_cuda(cudaError_t err, const char* call, const char* file, int line) {
  if (err == cudaSuccess) return;
  std::string msg = std::string(cudaGetErrorString(err)) + " (" + call + " at " + file + ":" + std::to_string(line) + ")";
  if (err == cudaErrorMemoryAllocation) msg = "out of GPU memory: " + msg;
  throw GpuError(msg);
}

// Waits for the device to finish its work: at most until the deadline that a
// LaunchDeadline in scope set (launch_deadline.cpp), past which it throws
// GpuTimeout; without one, as long as the work takes.
cudaError_t wait_for_device();

}  // namespace ts::gpu

#define TS_CUDA_CHECK(call) ::ts::gpu::check_cuda((call), #call, __FILE__, __LINE__)
// After every launch: the launch error now, and any fault once it has run.
#define TS_CUDA_CHECK_LAUNCH()                          \
  do {                                                  \
    TS_CUDA_CHECK(cudaGetLastError());                  \
    TS_CUDA_CHECK(::ts::gpu::wait_for_device());        \
  } while (0)
