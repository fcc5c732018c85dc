// gpu_runtime.h — what the rest of tilescope asks of the GPU, without CUDA
// headers: is one there, record a launch on it, run the plain kernels.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace/model/memory_counts.h"
#include "trace/model/occupancy.h"
#include "trace/timing_recording.h"
#include "trace/trace.h"
#include "kernels/kernel_kind.h"
#include "kernels/user/user_kernel.h"

namespace ts::gpu {

class GpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A launch this GPU cannot take as asked (more shared memory a block than it
// allows, ...), found before anything was launched: a refusal, not a fault.
class GpuRefusal : public GpuError {
 public:
  using GpuError::GpuError;
};

// A recording that holds more than a trace can (events past the recording
// limit, more barriers than an event counts), found by the instrumented
// kernel's counting pass: the launch is too large to record, not a fault.
class GpuTooLarge : public GpuError {
 public:
  using GpuError::GpuError;
};

// A launch that ran past the deadline of a LaunchDeadline (a kernel that never
// ends): it was abandoned. A running kernel cannot be stopped, so the CUDA
// context stays busy with it: the process should report and exit.
class GpuTimeout : public GpuError {
 public:
  using GpuError::GpuError;
};

// While one is alive, waits for this thread's launches end at
// `seconds` from its making (0: no deadline) with GpuTimeout.
class LaunchDeadline {
 public:
  explicit LaunchDeadline(double seconds);
  ~LaunchDeadline();
  LaunchDeadline(const LaunchDeadline&) = delete;
  LaunchDeadline& operator=(const LaunchDeadline&) = delete;

 private:
  double previous_;
};

// Whether a launch of this process was abandoned (GpuTimeout): the GPU is
// busy with it for good, and probe() says so.
bool launch_abandoned();

struct DeviceStatus {
  bool available = false;
  std::string name;    // e.g. "NVIDIA H100 80GB HBM3"
  std::string reason;  // why not, when not available
  int sm_count = 0;
  int compute_capability = 0;  // e.g. 90
  std::uint64_t free_bytes = 0, total_bytes = 0;
};

// Never throws; built without CUDA it says so.
DeviceStatus probe();

// Records one launch with the instrumented kernel: the same contract as
// emu::record_launch, plus per-block SM ids and start/end times.
// focus: the linear ids of the blocks to record, ascending (a focused trace:
// the other blocks do not run, their cells of C stay NaN); empty: all.
void record_launch(KernelKind kind, Trace& trace, std::span<const std::uint32_t> focus = {});

// Records a kernel the user wrote (kernels/user/): NVRTC compiles it in the
// recorded mode (cached like the emulator's objects), the driver API loads and
// launches it. The same contract as record_launch; trace.launch.arrays of As and
// Bs get the shapes the kernel declared. event_limit: refused after counting.
// Throws UserKernelError for a source that does not compile, GpuError else.
void record_user_launch(const UserKernelSpec& spec, Trace& trace, std::uint64_t event_limit);

// Whole-launch counters from the counting build of the kernels
// (counted_kernels.cu, mode_counted.cuh): every access is grouped on the device
// with the lanes of its warp that made it, and counted there as
// app/core/analysis counts a trace's requests; no event is stored. The same
// contract as record_launch for trace (inputs in, C out; trace.events stays empty).
struct DeviceCounts {
  MemoryStats memory;                           // per array and op: requests, accesses (= events), sectors, ...
  std::uint64_t padding_stores = 0;             // shared stores of a fill value
  std::uint64_t events[kArrayCount][2] = {};    // floats moved per array and op (a vector access moves 2 or 4)
  std::vector<std::uint32_t> a_loads, b_loads;  // global loads per element
  std::uint64_t device_bytes = 0;               // GPU memory the counting used
  // Requests a warp had to count before all its lanes joined (more partial
  // requests open at once than it keeps): each is counted as two or more.
  std::uint64_t split_requests = 0;
};
void count_launch(KernelKind kind, Trace& trace, DeviceCounts& out);

// Runs the plain (uninstrumented) kernel on host data and returns C in c.
void run_plain(KernelKind kind, int tile, const float* a, const float* b, float* c, int m, int n, int k);

// Occupancy from the CUDA runtime (occupancy_runtime.cu): the GPU's per-SM
// limits, and a plain kernel's attributes with the occupancy API's answer.
struct LiveKernelOccupancy {
  KernelResources resources;  // cudaFuncGetAttributes
  int binary_arch = 0;        // the machine code the runtime runs, e.g. 90
  int api_blocks_per_sm = 0;  // cudaOccupancyMaxActiveBlocksPerMultiprocessor
  int local_bytes = 0;            // cudaFuncAttributes::localSizeBytes
  int max_threads_per_block = 0;  // cudaFuncAttributes::maxThreadsPerBlock
};
SmLimits live_sm_limits();
LiveKernelOccupancy live_plain_occupancy(KernelKind kind, int tile);

// Runs the plain kernel body once at full size, recording only each block's
// SM and start/end time (timing_recorder.cu). seed 0: a fresh one.
TimingRecording record_timing(KernelKind kind, int tile, int m, int n, int k, std::uint64_t seed);

}  // namespace ts::gpu
