// occupancy_columns.cpp — the calculator's inputs from the live GPU or a preset.
#include "app/ui/occupancy_columns.h"

#include "kernels/kernel_resources.h"

namespace ts::ui {

OccupancyColumn live_occupancy_column(const gpu::DeviceStatus& gpu, KernelKind kind, int tile, int carveout_bytes) {
  OccupancyColumn c;
  c.gpu = gpu.name;
  c.title = gpu.name + " (this machine)";
  c.live = true;
  try {
    c.limits = gpu::live_sm_limits();
    const gpu::LiveKernelOccupancy k = gpu::live_plain_occupancy(kind, tile);
    c.resources = k.resources;
    c.api_blocks_per_sm = k.api_blocks_per_sm;
    c.origin = "live: CUDA runtime (device properties, cudaFuncGetAttributes, sm_" + std::to_string(k.binary_arch) + ")";
    c.occupancy = compute_occupancy(c.limits, *c.resources, carveout_bytes);
  } catch (const gpu::GpuError& e) {
    c.missing = e.what();
  }
  return c;
}

OccupancyColumn preset_occupancy_column(const GpuPreset& p, KernelKind kind, int tile, int carveout_bytes) {
  OccupancyColumn c;
  c.gpu = std::string(p.short_name);
  c.title = c.gpu + " (preset)";
  c.limits = preset_limits(p);
  c.resources = compiled_kernel_resources(p.compute_capability, kind, tile);
  c.origin = "preset: " + std::string(p.name) + ", documented limits; registers: " +
             resource_origin(resource_table()) + ", sm_" + std::to_string(p.compute_capability);
  if (!c.resources)
    c.missing = "no compiler numbers for sm_" + std::to_string(p.compute_capability) + " (" +
                resource_origin(resource_table()) + " covers the presets' architectures only)";
  else
    c.occupancy = compute_occupancy(c.limits, *c.resources, carveout_bytes);
  return c;
}

}  // namespace ts::ui
