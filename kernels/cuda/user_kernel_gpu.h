// user_kernel_gpu.h — build a user kernel for the GPU: NVRTC compiles the
// generated wrapper in the recorded mode (kernels/cuda/mode_recorded.cuh) to a
// CUBIN for the given architecture, cached like the emulator's objects
// (kernels/user/compile_cache.h). Needs no GPU: only libnvrtc.
#pragma once

#include <filesystem>
#include <string>

#include "kernels/user/user_kernel.h"

namespace ts::gpu {

struct CompiledGpuKernel {
  std::filesystem::path cubin;  // in the cache
  bool cached = false;
  double seconds = 0.0;
  bool c_starts_zero = false;  // the entry takes a beta: C starts at 0, not NaN (kernels/user/user_args.h)
};

// arch: the compute capability, e.g. 90. Throws UserKernelError (NVRTC's
// diagnostics keep the user's FILE(LINE)).
CompiledGpuKernel compile_for_gpu(const UserKernelSpec& spec, int arch);

// "NVRTC 13.0", for messages and the benchmark.
std::string nvrtc_version();

}  // namespace ts::gpu
