// mode_counted.cuh — compile the kernel headers as counting CUDA: no event is
// stored; each access is grouped on the device with the lanes of its warp that
// make it (__activemask, __match_any_sync on the array and op), and the group's
// leader counts the warp-level request as app/core/analysis counts a trace's:
// requests, accesses, sectors, lines and the fewest sectors (global),
// wavefronts, bank conflicts and broadcast lanes (shared), and the histogram.
// Counters live per block in shared memory and are added to the launch's
// totals when the block ends, so the launch runs at any N with a fixed
// footprint besides the per-element load counts of A and B.
// Include this, then kernels/all_kernels.h, in counted_kernels.cu only.
#pragma once

#include <cstdint>

#include "app/core/event.h"
#include "kernels/recorded_memory.h"

#define TS_KERNEL_NS ts::gpu_count

namespace ts::gpu_count {

inline constexpr int kCombos = kArrayCount * 2;  // (array, op)
inline constexpr int kBins = 33;                 // requests by sectors or ways, 0..32
// Per (array, op): the counters of one warp-level request kind.
enum Field : int {
  kRequests,
  kAccesses,
  kSectors,     // global; shared: wavefronts
  kLines,       // global; shared: bank conflicts
  kIdeal,       // global: fewest sectors; shared: broadcast lanes
  kPadding,     // shared stores of a fill value
  kHistogram,   // kBins bins follow
  kFields = kHistogram + kBins
};

inline constexpr std::uint32_t kErrOutOfBounds = 1u << 0;
inline constexpr std::uint32_t kErrWideAccess = 1u << 1;  // a float4 or cp.async: not counted (counter.cpp refuses)

struct CountLaunch {
  std::uint64_t elements[kArrayCount];  // valid indices per array
  unsigned long long* totals;           // [kCombos][kFields], the launch's sums
  std::uint32_t* a_loads;               // global loads per element of A
  std::uint32_t* b_loads;
  std::uint32_t* errors;
};

__constant__ CountLaunch c_count;

// The block's counters (32-bit: one block makes far fewer than 2^32 of anything).
__shared__ std::uint32_t s_counts[kCombos][kFields];

__device__ __forceinline__ std::uint32_t lane_id() {
  const std::uint32_t t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return t % 32u;
}

__device__ __forceinline__ void sort_small(std::uint64_t* v, int n) {
  for (int i = 1; i < n; ++i) {
    const std::uint64_t x = v[i];
    int j = i;
    for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
    v[j] = x;
  }
}

// The request made by the lanes in `peers` (this lane among them): the leader
// gathers their byte addresses and counts.
__device__ __noinline__ void count_request(int combo, std::uint64_t address, const float* element0, bool padding) {
  const unsigned active = __activemask();
  const unsigned peers = __match_any_sync(active, static_cast<unsigned>(combo));
  const bool leader = static_cast<int>(lane_id()) == __ffs(peers) - 1;
  std::uint64_t words[32];
  int n = 0;
  for (unsigned m = peers; m != 0; m &= m - 1) {
    const std::uint64_t a = __shfl_sync(peers, address, __ffs(m) - 1);
    if (leader) words[n++] = a / 4;
  }
  const unsigned padding_lanes = __popc(__ballot_sync(peers, padding));
  if (!leader) return;
  std::uint32_t* c = s_counts[combo];
  const ArrayId array = static_cast<ArrayId>(combo / 2);
  atomicAdd(&c[kRequests], 1u);
  atomicAdd(&c[kAccesses], static_cast<std::uint32_t>(n));
  if (padding_lanes) atomicAdd(&c[kPadding], padding_lanes);
  sort_small(words, n);
  if (space_of(array) == Space::Global) {
    std::uint32_t distinct = 0, sectors = 0, lines = 0;
    std::uint64_t last_word = ~0ull, last_sector = ~0ull, last_line = ~0ull;
    const bool per_element = combo % 2 == 0 && (array == ArrayId::A || array == ArrayId::B);
    std::uint32_t* loads = array == ArrayId::A ? c_count.a_loads : c_count.b_loads;
    const std::uint64_t first_word = reinterpret_cast<std::uint64_t>(element0) / 4;
    for (int i = 0; i < n;) {
      int run = 1;
      while (i + run < n && words[i + run] == words[i]) ++run;
      const std::uint64_t byte = words[i] * 4;
      if (words[i] != last_word) ++distinct, last_word = words[i];
      if (byte / 32 != last_sector) ++sectors, last_sector = byte / 32;
      if (byte / 128 != last_line) ++lines, last_line = byte / 128;
      if (per_element) atomicAdd(&loads[words[i] - first_word], static_cast<std::uint32_t>(run));
      i += run;
    }
    atomicAdd(&c[kSectors], sectors);
    atomicAdd(&c[kLines], lines);
    atomicAdd(&c[kIdeal], (distinct * 4 + 31) / 32);
    atomicAdd(&c[kHistogram + (sectors < 32 ? sectors : 32)], 1u);
  } else {
    std::uint32_t per_bank[32] = {};
    std::uint32_t ways = 0, repeats = 0;
    for (int i = 0; i < n;) {
      int run = 1;
      while (i + run < n && words[i + run] == words[i]) ++run;
      if (run > 1) repeats += run;
      const std::uint32_t w = ++per_bank[words[i] % 32];
      ways = w > ways ? w : ways;
      i += run;
    }
    atomicAdd(&c[kSectors], ways);
    atomicAdd(&c[kLines], ways > 0 ? ways - 1 : 0);
    atomicAdd(&c[kIdeal], repeats);
    atomicAdd(&c[kHistogram + (ways < 32 ? ways : 32)], 1u);
  }
}

struct Sink {
  __device__ static bool inside(ArrayId array, std::uint32_t index) {
    if (index < c_count.elements[static_cast<int>(array)]) return true;
    atomicOr(c_count.errors, kErrOutOfBounds);
    return false;
  }
  __device__ static std::uint64_t address(ArrayId array, const float* base, std::uint32_t index) {
    if (space_of(array) == Space::Shared) return static_cast<std::uint64_t>(__cvta_generic_to_shared(base + index));
    return reinterpret_cast<std::uint64_t>(base + index);
  }
  __device__ static float load(ArrayId array, const float* base, std::uint32_t index) {
    const bool ok = inside(array, index);
    const float v = ok ? base[index] : 0.0f;
    count_request(static_cast<int>(array) * 2, ok ? address(array, base, index) : 0, base, false);
    return v;
  }
  __device__ static void store(ArrayId array, float* base, std::uint32_t index, float value, std::uint8_t flags) {
    const bool ok = inside(array, index);
    if (ok) base[index] = value;
    count_request(static_cast<int>(array) * 2 + 1, ok ? address(array, base, index) : 0, base,
                  (flags & kFlagPadding) != 0);
  }
  // float4 and cp.async accesses are not counted here (counter.cpp sends those
  // kernels to the emulator): they only move the data and raise an error bit,
  // so that the headers compile in this mode and nothing is silently miscounted.
  __device__ static void load_vector(ArrayId, const float* base, std::uint32_t index, Width width, float* out) {
    atomicOr(c_count.errors, kErrWideAccess);
    for (std::uint32_t i = 0; i < floats_of(width); ++i) out[i] = base[index + i];
  }
  __device__ static void store_vector(ArrayId, float* base, std::uint32_t index, Width width, const float* values,
                                      const std::uint8_t*) {
    atomicOr(c_count.errors, kErrWideAccess);
    for (std::uint32_t i = 0; i < floats_of(width); ++i) base[index + i] = values[i];
  }
  __device__ static void copy_async(ArrayId, float* dst_base, std::uint32_t dst_index, ArrayId, const float* src_base,
                                    std::uint32_t src_index, Width width) {
    atomicOr(c_count.errors, kErrWideAccess);
    for (std::uint32_t i = 0; i < floats_of(width); ++i) dst_base[dst_index + i] = src_base ? src_base[src_index + i] : 0.0f;
  }
  __device__ static void commit_async() {}
  __device__ static void wait_async(int) {}
  __device__ static void barrier() { ::__syncthreads(); }
  __device__ static void shared_base(ArrayId, const float*) {}
};

// Kernels call __syncthreads() unqualified: inside this namespace it is this one.
__device__ __forceinline__ void __syncthreads() { Sink::barrier(); }

using InMatrix = rec::GlobalArray<Sink, const float>;
using OutMatrix = rec::GlobalArray<Sink, float>;

TS_REC_VECTOR_API(Sink)
TS_REC_ASYNC_COPY_API(Sink)

}  // namespace ts::gpu_count

#define TS_SHARED(type, name, rows, cols)   \
  __shared__ type name##_words[rows][cols]; \
  ::ts::rec::SharedArray2D<type, rows, cols, ::ts::gpu_count::Sink> name(name##_words, ::ts::ArrayId::name)
#define TS_SHARED_ALIGNED(type, name, rows, cols)         \
  __shared__ __align__(16) type name##_words[rows][cols]; \
  ::ts::rec::SharedArray2D<type, rows, cols, ::ts::gpu_count::Sink> name(name##_words, ::ts::ArrayId::name)
