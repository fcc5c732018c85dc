// occupancy_runtime.cuh — ask the CUDA runtime about one compiled kernel:
// its attributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor.
#pragma once

#include "kernels/cuda/gpu_runtime.h"

namespace ts::gpu {

// fn: the address of a __global__ function that runs kind's body at tile
// (the plain kernel, or the timed one), launched with the catalog's block.
LiveKernelOccupancy query_kernel(const void* fn, KernelKind kind, int tile);

}  // namespace ts::gpu
