// kernel_resources.h — what the compiler gave each plain kernel (registers,
// static shared memory, local memory, barriers), for every architecture of
// the GPU presets. Two tables of the same rows:
//   - this build's: ptxas run at build time over kernels/cuda/plain_kernels.cu
//     once per architecture (cmake/KernelResources.cmake); empty in a build
//     without the CUDA Toolkit;
//   - the shipped data, kernels/kernel_resources.csv, taken by a CUDA build
//     (`cmake --build BUILD --target kernel-resources-data`) and compiled into
//     every build, so that a build without the toolkit (the Debian package,
//     the browser) computes the same occupancy. A CUDA build's test compares
//     the two and names the kernel where they differ.
// The calculator uses this build's table when it has one, else the shipped
// data; the source string of each lookup says which compiler the numbers
// came from. A live GPU's numbers come from the CUDA runtime instead.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "trace/model/occupancy.h"
#include "kernels/kernel_kind.h"

namespace ts {

struct CompiledResources {
  int arch = 0;  // 90 for sm_90
  KernelKind kind = KernelKind::Naive;
  int tile = 0;  // 0 for the naive kernels (their block edge is a run-time value) and the rungs (fixed tiles)
  int registers = 0;
  int static_shared_bytes = 0;
  int barriers = 0;
  int stack_bytes = 0;  // local memory per thread (ptxas's stack frame; cudaFuncAttributes::localSizeBytes)
  int spill_bytes = 0;  // spill stores + spill loads
  // The largest block it launches with: its __launch_bounds__ (a rung's
  // fixed block) or 1024, fewer when its registers do not fit that many
  // (cudaFuncAttributes::maxThreadsPerBlock).
  int max_threads_per_block = 0;

  bool operator==(const CompiledResources&) const = default;
};

// One table and where its numbers came from.
struct ResourceTable {
  std::vector<CompiledResources> rows;
  std::string compiler;  // "nvcc 13.0.88" (its ptxas)
  std::string taken;     // "2026-11-28" for the shipped data; "" for this build's (taken as it was built)
  bool shipped = false;
};

const ResourceTable& build_resource_table();    // this build's ptxas; no rows without CUDA
const ResourceTable& shipped_resource_table();  // kernels/kernel_resources.csv as compiled in
// This build's table when it has rows, else the shipped data.
const ResourceTable& resource_table();

std::span<const CompiledResources> compiled_resources();  // resource_table().rows
// Architectures in resource_table(), and those whose machine code is in this
// binary (the build's CMAKE_CUDA_ARCHITECTURES; none without CUDA).
std::vector<int> recorded_arches();
std::vector<int> binary_arches();

const CompiledResources* find_compiled_resources(int arch, KernelKind kind, int tile);
const CompiledResources* find_resources_in(const ResourceTable& table, int arch, KernelKind kind, int tile);

// A kernel's per-block needs at TILE on arch, from resource_table(); nullopt
// when it has no entry for arch. The source names the compiler and arch, and
// whether the numbers are shipped data.
std::optional<KernelResources> compiled_kernel_resources(int arch, KernelKind kind, int tile);

// "ptxas of nvcc 13.0.88, at build time" or "ptxas of nvcc 13.0.88, shipped
// data taken 2026-11-28": the small print under the occupancy figures.
std::string resource_origin(const ResourceTable& table);

// The largest block a kernel of `registers` per thread launches with on a GPU
// of these limits (registers are allocated per warp, in units), at most
// `bound` threads; what cudaFuncGetAttributes reports as maxThreadsPerBlock.
int max_threads_for_registers(const SmLimits& sm, int registers, int bound);

// The table as kernels/kernel_resources.csv holds it (a header of comments
// with the compiler and date, then one line a kernel and architecture), and
// back; parse_resource_csv throws std::runtime_error naming the bad line.
std::string resource_csv(const ResourceTable& table);
ResourceTable parse_resource_csv(const std::string& text);

}  // namespace ts
