// kernel_resources.cpp — lookups in the build-time table of kernel resources.
#include "kernels/kernel_resources.h"

#include <algorithm>

#include "kernels/catalog.h"

namespace ts {

// Defined in the generated kernel_resources_table.cpp (see cmake/KernelResources.cmake).
namespace generated {
extern const std::vector<CompiledResources> kCompiledResources;
extern const std::vector<int> kBinaryArches;
}  // namespace generated

std::span<const CompiledResources> compiled_resources() { return generated::kCompiledResources; }

std::vector<int> recorded_arches() {
  std::vector<int> arches;
  for (const CompiledResources& r : generated::kCompiledResources)
    if (std::find(arches.begin(), arches.end(), r.arch) == arches.end()) arches.push_back(r.arch);
  std::sort(arches.begin(), arches.end());
  return arches;
}

std::vector<int> binary_arches() { return generated::kBinaryArches; }

const CompiledResources* find_compiled_resources(int arch, KernelKind kind, int tile) {
  // The naive kernels' block edge is a run-time value and the rungs' tiles are fixed: one entry each, TILE 0.
  const int table_tile = is_naive(kind) || !takes_tile(kind) ? 0 : tile;
  for (const CompiledResources& r : generated::kCompiledResources)
    if (r.arch == arch && r.kind == kind && r.tile == table_tile) return &r;
  return nullptr;
}

std::optional<KernelResources> compiled_kernel_resources(int arch, KernelKind kind, int tile) {
  const CompiledResources* r = find_compiled_resources(arch, kind, tile);
  if (!r) return std::nullopt;
  KernelResources k;
  k.threads_per_block = static_cast<int>(launch_shape(kind, tile, tile, tile).block.count());
  k.registers_per_thread = r->registers;
  k.static_shared_bytes = r->static_shared_bytes;
  k.barriers = r->barriers;
  k.min_compute_capability = min_compute_capability(kind);
  k.source = "ptxas for sm_" + std::to_string(arch) + " at build time";
  return k;
}

}  // namespace ts
