// plain_kernels.cuh — launch the plain (uninstrumented) kernels on device data.
#pragma once

#include <cuda_runtime.h>

#include "kernels/kernel_kind.h"

namespace ts::gpu {

// Launches kind at tile on device pointers; checks the launch error, does not synchronize.
void launch_plain(KernelKind kind, int tile, const float* a, const float* b, float* c, int m, int n, int k,
                  cudaStream_t stream = nullptr);

}  // namespace ts::gpu
