// occupancy_runtime.cu — live occupancy numbers from the CUDA runtime: the
// GPU's per-SM limits (cudaDeviceProp), each plain kernel's attributes
// (cudaFuncGetAttributes) and the occupancy API's answer.
#include "kernels/cuda/occupancy_runtime.cuh"

#include <cuda_runtime.h>

#include "kernels/catalog.h"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/plain_kernels.cuh"

namespace ts::gpu {

SmLimits live_sm_limits() {
  int device = 0;
  TS_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp p{};
  TS_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  SmLimits s;
  // Allocation units, carve-out steps and barrier slots are not device
  // properties: they come from the compute capability's table, when known.
  if (!limits_for_compute_capability(p.major * 10 + p.minor, s)) s = SmLimits{};
  s.compute_capability = p.major * 10 + p.minor;
  s.sm_count = p.multiProcessorCount;
  s.warp_size = p.warpSize;
  s.max_threads_per_block = p.maxThreadsPerBlock;
  s.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  s.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  s.registers_per_sm = p.regsPerMultiprocessor;
  s.max_registers_per_block = p.regsPerBlock;
  s.shared_per_sm = static_cast<int>(p.sharedMemPerMultiprocessor);
  s.max_shared_per_block = static_cast<int>(p.sharedMemPerBlock);
  s.max_shared_per_block_optin = static_cast<int>(p.sharedMemPerBlockOptin);
  s.reserved_shared_per_block = static_cast<int>(p.reservedSharedMemPerBlock);
  return s;
}

LiveKernelOccupancy query_kernel(const void* fn, KernelKind kind, int tile) {
  const int threads_per_block = static_cast<int>(launch_shape(kind, tile, tile, tile).block.count());
  cudaFuncAttributes a{};
  TS_CUDA_CHECK(cudaFuncGetAttributes(&a, fn));
  LiveKernelOccupancy r;
  r.resources.threads_per_block = threads_per_block;
  r.resources.registers_per_thread = a.numRegs;
  r.resources.static_shared_bytes = static_cast<int>(a.sharedSizeBytes);
  // The runtime does not report barriers; ptxas counts barrier 0 for every
  // kernel that calls __syncthreads.
  r.resources.barriers = kernel_info(kind).barriers_per_iteration > 0 ? 1 : 0;
  r.resources.min_compute_capability = min_compute_capability(kind);
  r.resources.source = "CUDA runtime (cudaFuncGetAttributes)";
  r.binary_arch = a.binaryVersion;
  r.local_bytes = static_cast<int>(a.localSizeBytes);
  r.max_threads_per_block = a.maxThreadsPerBlock;
  TS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.api_blocks_per_sm, fn, threads_per_block, 0));
  return r;
}

LiveKernelOccupancy live_plain_occupancy(KernelKind kind, int tile) {
  return query_kernel(plain_kernel_entry(kind, tile), kind, tile);
}

}  // namespace ts::gpu
