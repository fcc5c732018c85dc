// mode_plain.cuh — compile the kernel headers as plain CUDA: raw pointers and
// __shared__ arrays, nothing recorded. These are the kernels the benchmark times.
#pragma once

#define TS_KERNEL_NS ts::plain
#define TS_SHARED(type, name, rows, cols) __shared__ type name[rows][cols]

namespace ts::plain {
using InMatrix = const float* __restrict__;
using OutMatrix = float* __restrict__;

// Vector accesses (kernels/api/vector.h has the recorded versions): one
// LDG.128 / STS.128 and the like. The element must be aligned to the width.
__device__ __forceinline__ float4 load4(const float& first) { return *reinterpret_cast<const float4*>(&first); }
__device__ __forceinline__ float2 load2(const float& first) { return *reinterpret_cast<const float2*>(&first); }
__device__ __forceinline__ void store4(float& first, float4 v) { *reinterpret_cast<float4*>(&first) = v; }
__device__ __forceinline__ void store2(float& first, float2 v) { *reinterpret_cast<float2*>(&first) = v; }
}  // namespace ts::plain
