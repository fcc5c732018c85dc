// occupancy_columns.h — one GPU's occupancy for one kernel and TILE, as the
// Occupancy panel's columns and the strip beside the TILE buttons show it:
// this machine's GPU from the CUDA runtime, a preset from its documented
// limits and the registers ptxas gave the kernel at build time.
#pragma once

#include <optional>
#include <string>

#include "trace/model/gpu_presets.h"
#include "trace/model/occupancy.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/kernel_kind.h"

namespace ts::ui {

struct OccupancyColumn {
  std::string title;   // "NVIDIA H200 (this machine)" or "rtx5070ti (preset)"
  std::string gpu;     // "NVIDIA H200" or "rtx5070ti"
  std::string origin;  // where the limits and resources come from
  bool live = false;
  SmLimits limits;
  std::optional<KernelResources> resources;  // nullopt: none for this architecture
  std::string missing;                       // why not
  Occupancy occupancy;
  std::optional<int> api_blocks_per_sm;  // live only
};

// carveout_bytes as compute_occupancy takes it (< 0: the largest carve-out).
OccupancyColumn live_occupancy_column(const gpu::DeviceStatus& gpu, KernelKind kind, int tile, int carveout_bytes);
OccupancyColumn preset_occupancy_column(const GpuPreset& preset, KernelKind kind, int tile, int carveout_bytes);

}  // namespace ts::ui
