// timing_test_support.h — timing recordings made by hand for the tests of
// the timeline, its file format, the CLI and the panel.
#pragma once

#include <vector>

#include "trace/timing_recording.h"

namespace ts::test {

// The tiled kernel at TILE 16 (256 threads, 8 warps, 32 registers, 2 KiB of
// shared memory) on an H200-like GPU of sm_count SMs (64 warp slots, the API
// allowing 8 blocks per SM), with these blocks on a grid of blocks.size() x 1.
inline TimingRecording tiled16_timing(int sm_count, std::vector<BlockTiming> blocks) {
  TimingRecording r;
  r.launch.kernel = "tiled";
  r.launch.tile = 16;
  r.launch.m = 16;
  r.launch.n = r.launch.k = 16 * static_cast<int>(blocks.size());
  r.launch.grid = {static_cast<std::uint32_t>(blocks.size()), 1, 1};
  r.launch.block = {16, 16, 1};
  r.launch.recorder = "gpu-timing";
  r.launch.device_name = "test GPU";
  r.launch.date = "2026-01-01T00:00:00Z";
  r.launch.seed = 7;
  r.sm_count = sm_count;
  r.compute_capability = 90;
  r.max_warps_per_sm = 64;
  r.timed_kernel = {256, 32, 2048, 0, 1, "CUDA runtime (cudaFuncGetAttributes)"};
  r.api_blocks_per_sm = 8;
  r.elapsed_ms = 0.5;
  r.checked_cells = 64;
  r.worst_error_to_bound = 0.01;
  r.blocks = std::move(blocks);
  return r;
}

}  // namespace ts::test
