// mode_plain.cuh — compile the kernel headers as plain CUDA: raw pointers and
// __shared__ arrays, nothing recorded. These are the kernels the benchmark times.
#pragma once

#define TS_KERNEL_NS ts::plain
#define TS_SHARED(type, name, rows, cols) __shared__ type name[rows][cols]
// A tile read or written as float4 (or by 16-byte cp.async): 16-byte aligned.
#define TS_SHARED_ALIGNED(type, name, rows, cols) __shared__ __align__(16) type name[rows][cols]

namespace ts::plain {
using InMatrix = const float* __restrict__;
using OutMatrix = float* __restrict__;

// Vector accesses (kernels/api/vector.h has the recorded versions): one
// LDG.128 / STS.128 and the like. The element must be aligned to the width.
__device__ __forceinline__ float4 load4(const float& first) { return *reinterpret_cast<const float4*>(&first); }
__device__ __forceinline__ float2 load2(const float& first) { return *reinterpret_cast<const float2*>(&first); }
__device__ __forceinline__ void store4(float& first, float4 v) { *reinterpret_cast<float4*>(&first) = v; }
__device__ __forceinline__ void store2(float& first, float2 v) { *reinterpret_cast<float2*>(&first) = v; }

// cp.async global -> shared (kernels/api/async_copy.h has the recorded versions).
// GPUs before sm_80 have no cp.async: there the copy is made synchronously
// (through a register), which keeps every kernel's meaning, since data a wait
// would have made visible is visible at once; the builds for those GPUs exist
// for the textbook kernels and the occupancy tables.
__device__ __forceinline__ unsigned shared_address(const float& x) {
  return static_cast<unsigned>(__cvta_generic_to_shared(&x));
}
__device__ __forceinline__ void cp_async16(float& dst, const float& src) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address(dst)), "l"(&src));
#else
  store4(dst, load4(src));
#endif
}
__device__ __forceinline__ void cp_async4(float& dst, const float& src) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(shared_address(dst)), "l"(&src));
#else
  dst = src;
#endif
}
// A ragged edge: zeros, stored directly (nothing to fetch).
__device__ __forceinline__ void cp_async16_zero(float& dst) { store4(dst, make_float4(0.0f, 0.0f, 0.0f, 0.0f)); }
__device__ __forceinline__ void cp_async4_zero(float& dst) { dst = 0.0f; }
__device__ __forceinline__ void cp_async_commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int PENDING>
__device__ __forceinline__ void cp_async_wait() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
#endif
}
}  // namespace ts::plain
