// gpu_presets.cpp — the preset GPUs. SM counts: NVIDIA's product pages and
// architecture whitepapers for each board (the full-size part of each name).
#include "trace/model/gpu_presets.h"

#include <array>
#include <stdexcept>

namespace ts {
namespace {

constexpr std::array<GpuPreset, 8> kPresets{{
    {"t4", "NVIDIA T4", "TU104", 75, 40},
    {"rtx3050", "NVIDIA GeForce RTX 3050 (8 GB)", "GA106", 86, 20},
    {"a100", "NVIDIA A100", "GA100", 80, 108},
    {"rtx4090", "NVIDIA GeForce RTX 4090", "AD102", 89, 128},
    {"h100", "NVIDIA H100 SXM5", "GH100", 90, 132},
    {"h100pcie", "NVIDIA H100 PCIe", "GH100", 90, 114},
    {"h200", "NVIDIA H200", "GH100", 90, 132},
    {"rtx5070ti", "NVIDIA GeForce RTX 5070 Ti", "GB203", 120, 70},
}};

}  // namespace

std::span<const GpuPreset> gpu_presets() { return kPresets; }

std::optional<GpuPreset> find_gpu_preset(std::string_view short_name) {
  for (const GpuPreset& p : kPresets)
    if (p.short_name == short_name) return p;
  return std::nullopt;
}

std::string gpu_preset_names() {
  std::string out;
  for (const GpuPreset& p : kPresets) {
    if (!out.empty()) out += ", ";
    out += p.short_name;
  }
  return out;
}

SmLimits preset_limits(const GpuPreset& preset) {
  SmLimits s;
  if (!limits_for_compute_capability(preset.compute_capability, s))
    throw std::logic_error("a preset with an unknown compute capability");
  s.sm_count = preset.sm_count;
  return s;
}

}  // namespace ts
