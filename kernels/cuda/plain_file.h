// plain_file.h — a CUDA file as written (raw pointers, __shared__ arrays named
// freely, float4 casts, alpha and beta): NVRTC compiles it for this GPU with
// -lineinfo, the driver API loads it and launches its entry once, each
// parameter bound by name (kernels/user/plain_kernel.h). `tilescope launch
// --cuda-file` runs it, and `tilescope record --cuda-file` traces that launch
// (docs/tracer.md).
#pragma once

#include <string>

#include "kernels/user/plain_kernel.h"

namespace ts::gpu {

struct PlainFileOperands {
  void *a = nullptr, *b = nullptr, *c = nullptr;  // device
  int m = 0, n = 0, k = 0;
};

struct PlainFileLaunch {
  std::string lowered_name;  // the entry's mangled name
  double milliseconds = 0;   // the launch, timed with events
};

// Compiles (UserKernelError Compile: NVRTC's first error line, FILE(LINE),
// then its whole log), binds (plain_kernel.h's errors), launches on the
// current device and waits for it (GpuError: the launch failed or faulted,
// with the driver's message).
PlainFileLaunch launch_plain_file(const PlainKernel& kernel, const std::vector<BoundParam>& params,
                                  const PlainFileOperands& operands);

// NVRTC's first error line ("file.cu(12): error: ..."), else the log's first line.
std::string nvrtc_first_error(const std::string& log);

}  // namespace ts::gpu
