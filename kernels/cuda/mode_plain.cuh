// mode_plain.cuh — compile the kernel headers as plain CUDA: raw pointers and
// __shared__ arrays, nothing recorded. These are the kernels the benchmark times.
#pragma once

#include <cstdint>

#include "kernels/api/mma.h"

#define TS_KERNEL_NS ts::plain
#define TS_SHARED(type, name, rows, cols) __shared__ type name[rows][cols]
// A tile read or written as float4 (or by 16-byte cp.async): 16-byte aligned.
#define TS_SHARED_ALIGNED(type, name, rows, cols) __shared__ __align__(16) type name[rows][cols]
// A launch with dynamic shared memory (tiles past the 48 KB of static shared
// memory) defines TS_PLAIN_DYNAMIC_SHARED before this header: its
// TS_SHARED_DYNAMIC tiles are carved from there. Otherwise they are static.
#if defined(TS_PLAIN_DYNAMIC_SHARED)
#define TS_SHARED_DYNAMIC(type, name, rows, cols, first_word) \
  type(&name)[rows][cols] = *reinterpret_cast<type(*)[rows][cols]>(::ts::plain::dynamic_shared + (first_word))
#else
#define TS_SHARED_DYNAMIC(type, name, rows, cols, first_word) __shared__ __align__(16) type name[rows][cols]
#endif

namespace ts::plain {
extern __shared__ __align__(16) float dynamic_shared[];  // the launch's dynamic shared memory
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
// The copy, or zero bytes when !in_bounds (src is then not read): one
// cp.async with a source size of 16 (or 4) or 0.
__device__ __forceinline__ void cp_async16_or_zero(float& dst, const float& src, bool in_bounds) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(dst)), "l"(&src),
               "r"(in_bounds ? 16 : 0));
#else
  store4(dst, in_bounds ? load4(src) : make_float4(0.0f, 0.0f, 0.0f, 0.0f));
#endif
}
__device__ __forceinline__ void cp_async4_or_zero(float& dst, const float& src, bool in_bounds) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(shared_address(dst)), "l"(&src),
               "r"(in_bounds ? 4 : 0));
#else
  dst = in_bounds ? src : 0.0f;
#endif
}
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
// Warp-level TF32 mma.sync m16n8k8 (kernels/api/mma.h has the layouts and
// the recorded versions). Needs sm_80.
using FragA = std::uint32_t[4];
using FragB = std::uint32_t[2];
using FragC = float[4];
__device__ __forceinline__ int lane_id() {
  return static_cast<int>(((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % 32);
}
// One ldmatrix.x4: lanes 0-15 point at rows 0-15 of columns col..col+3,
// lanes 16-31 at the same rows of col+4..col+7; lane l receives row l/4, word
// l%4 of each 8 x 4 block, which is the A fragment. Rows 16-byte aligned.
template <class Tile>
__device__ __forceinline__ void load_matrix_a(FragA& a, Tile& tile, int row, int col) {
  const int lane = lane_id();
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
               : "r"(shared_address(tile[row + lane % 16][col + (lane / 16) * 4])));
  for (int s = 0; s < 4; ++s) a[s] = ::ts::mma::to_tf32(a[s]);
}
template <class Tile>
__device__ __forceinline__ void load_matrix_b(FragB& b, Tile& tile, int row, int col) {
  const int lane = lane_id();
  for (int s = 0; s < 2; ++s) {
    const ::ts::mma::Coord at = ::ts::mma::b_coord(lane, s);
    b[s] = ::ts::mma::to_tf32(__float_as_uint(tile[row + at.row][col + at.col]));
  }
}
__device__ __forceinline__ void mma_tf32(FragC& c, const FragA& a, const FragB& b) { ::ts::mma::mma_sync_tf32(c, a, b); }
}  // namespace ts::plain
