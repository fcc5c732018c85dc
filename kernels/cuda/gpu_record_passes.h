// gpu_record_passes.h — the two passes of a GPU recording (count, then record),
// for any instrumented kernel: tilescope's own (gpu_recorder.cu) and a user's
// loaded through the driver API (user_kernel_gpu.cpp). No CUDA headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "trace/trace.h"

namespace ts::gpu {

// How to run one instrumented kernel.
struct InstrumentedKernel {
  // Copies the launch description (a gpu_rec::RecordLaunch, mode_recorded.cuh) into the kernel's c_launch.
  std::function<void(const void* record_launch, std::size_t bytes)> set_launch;
  // Launches the kernel on trace.launch's grid and block, and checks that it ran.
  std::function<void(const float* a, const float* b, float* c)> launch;
  // C starts at 0 rather than NaN: a user kernel that reads it for beta C (kernels/user/user_args.h).
  bool c_starts_zero = false;
};

// Inputs from trace.a and trace.b, C (poisoned with NaN first, or zeroed) back into
// trace.c, the events, block timings and shared tiles' places and shapes into
// trace. focus: only these blocks (a focused trace, recorder.h); empty: all.
// event_limit: refuse (GpuError) after the counting pass; 0: none.
void record_passes(Trace& trace, const InstrumentedKernel& kernel, std::span<const std::uint32_t> focus = {},
                   std::uint64_t event_limit = 0);

}  // namespace ts::gpu
