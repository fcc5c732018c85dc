// kernel_resources.h — what the compiler gave each plain kernel, for every
// architecture recorded at build time (cmake/KernelResources.cmake runs ptxas
// over kernels/cuda/plain_kernels.cu once per architecture and compiles the
// table in). This is where a GPU preset's registers per thread come from; a
// live GPU's come from the CUDA runtime instead. Empty in a build without
// the CUDA Toolkit.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/core/occupancy.h"
#include "kernels/kernel_kind.h"

namespace ts {

struct CompiledResources {
  int arch = 0;  // 90 for sm_90
  KernelKind kind = KernelKind::Naive;
  int tile = 0;  // 0 for the naive kernels (their block edge is a run-time value) and the rungs (fixed tiles)
  int registers = 0;
  int static_shared_bytes = 0;
  int barriers = 0;
  int stack_bytes = 0;
  int spill_bytes = 0;  // spill stores + spill loads
};

std::span<const CompiledResources> compiled_resources();
// Architectures in the table, and those whose machine code is in this binary
// (the build's CMAKE_CUDA_ARCHITECTURES; the table also covers every preset's).
std::vector<int> recorded_arches();
std::vector<int> binary_arches();

const CompiledResources* find_compiled_resources(int arch, KernelKind kind, int tile);

// A kernel's per-block needs at TILE on arch, from the table; nullopt when
// the table has no entry for arch. The source names the compiler and arch.
std::optional<KernelResources> compiled_kernel_resources(int arch, KernelKind kind, int tile);

}  // namespace ts
