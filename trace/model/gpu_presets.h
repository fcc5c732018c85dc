// gpu_presets.h — GPUs the user may not have: their per-SM limits, for the
// occupancy calculator. A preset's limits are its compute capability's
// documented values plus the chip's SM count; registers per thread for a
// preset come from the compiler's resource usage for that architecture,
// recorded at build time (kernels/kernel_resources.h). Part of trace/model:
// the focused recorder and the app's panels both name presets.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "trace/model/occupancy.h"

namespace ts {

struct GpuPreset {
  std::string_view short_name;  // for --gpu, e.g. "rtx5070ti"
  std::string_view name;        // e.g. "NVIDIA GeForce RTX 5070 Ti"
  std::string_view chip;        // e.g. "GB203"
  int compute_capability = 0;
  int sm_count = 0;
};

std::span<const GpuPreset> gpu_presets();
std::optional<GpuPreset> find_gpu_preset(std::string_view short_name);
std::string gpu_preset_names();  // "rtx3050, rtx4090, ..." for messages

// The preset's per-SM limits (its compute capability's, with its SM count).
SmLimits preset_limits(const GpuPreset& preset);

}  // namespace ts
