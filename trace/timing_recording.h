// timing_recording.h — a full-size launch recorded for its scheduling only:
// which SM ran each block and when (%globaltimer), no per-access events.
// Made by the GPU's timing recorder (kernels/cuda/timing_recorder.cu), saved
// and loaded as JSON (app/core/timing_file.h) so that a timeline recorded on
// a GPU server can be viewed on a laptop.
#pragma once

#include <vector>

#include "trace/model/occupancy.h"
#include "trace/trace.h"

namespace ts {

struct TimingRecording {
  LaunchInfo launch;               // recorder "gpu-timing": kernel, sizes, grid, block, device, date
  std::vector<BlockTiming> blocks;  // one per block, block-linear (x fastest); times in ns
  int sm_count = 0;
  int compute_capability = 0;
  int max_warps_per_sm = 0;
  // The timed kernel as the CUDA runtime sees it (the plain kernel body plus
  // two timer reads): its resources and cudaOccupancyMaxActiveBlocksPerMultiprocessor.
  KernelResources timed_kernel;
  int api_blocks_per_sm = 0;
  double elapsed_ms = 0;  // CUDA events around the recorded launch
  // C checked at sampled cells against a double-precision dot product:
  // the largest |error| / (fp32 error bound of a K-term dot product).
  int checked_cells = 0;
  double worst_error_to_bound = 0;

  int warps_per_block() const { return static_cast<int>((launch.block.count() + 31) / 32); }
};

}  // namespace ts
