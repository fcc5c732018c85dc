// plain_kernels.cuh — launch the plain (uninstrumented) kernels on device data.
#pragma once

#include <cuda_runtime.h>

#include "kernels/kernel_kind.h"

namespace ts::gpu {

// Launches kind at tile on device pointers; checks the launch error, does not synchronize.
void launch_plain(KernelKind kind, int tile, const float* a, const float* b, float* c, int m, int n, int k,
                  cudaStream_t stream = nullptr);

// The plain kernel's __global__ function, for cudaFuncGetAttributes and the occupancy API.
const void* plain_kernel_entry(KernelKind kind, int tile);

}  // namespace ts::gpu
