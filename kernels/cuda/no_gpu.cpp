// no_gpu.cpp — the GPU runtime of a build without CUDA: there is no GPU to use.
#include "kernels/cuda/gpu_runtime.h"

namespace ts::gpu {

// Nothing runs on a GPU here: no launch to wait for.
LaunchDeadline::LaunchDeadline(double) : previous_(0) {}
LaunchDeadline::~LaunchDeadline() = default;
bool launch_abandoned() { return false; }

DeviceStatus probe() {
  DeviceStatus st;
  st.reason = "this build of tilescope has no CUDA support";
  return st;
}

void record_launch(KernelKind, Trace&, std::span<const std::uint32_t>) { throw GpuError(probe().reason); }
void record_user_launch(const UserKernelSpec&, Trace&, std::uint64_t) { throw GpuError(probe().reason); }
void count_launch(KernelKind, Trace&, DeviceCounts&) { throw GpuError(probe().reason); }

void run_plain(KernelKind, int, const float*, const float*, float*, int, int, int) {
  throw GpuError(probe().reason);
}

SmLimits live_sm_limits() { throw GpuError(probe().reason); }
LiveKernelOccupancy live_plain_occupancy(KernelKind, int) { throw GpuError(probe().reason); }
TimingRecording record_timing(KernelKind, int, int, int, int, std::uint64_t) { throw GpuError(probe().reason); }

}  // namespace ts::gpu
