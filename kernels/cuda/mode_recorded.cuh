// mode_recorded.cuh — compile the kernel headers as instrumented CUDA: every
// global and shared load and store of every thread lands in a device buffer.
//
// Per-thread recording state lives in global memory, indexed by the thread's
// global id, so that the kernel source needs no extra parameter: A[i], As[r][c]
// and __syncthreads() find it themselves. The launch itself is described by a
// __constant__ RecordLaunch set before each launch.
#pragma once

#include <cstdint>

#include "trace/dim3.h"
#include "trace/event.h"
#include "trace/block_timing.h"
#if !defined(__CUDACC_RTC__)  // NVRTC (a user kernel) has no host headers
#include "trace/trace.h"
#endif
#include "kernels/api/mma.h"
#include "kernels/recorded_memory.h"

#define TS_KERNEL_NS ts::gpu_rec

namespace ts::gpu_rec {

// Error bits the kernel raises instead of touching memory it must not.
inline constexpr std::uint32_t kErrOutOfBounds = 1u << 0;
inline constexpr std::uint32_t kErrOverflow = 1u << 1;  // more events than counted
inline constexpr std::uint32_t kErrUnderflow = 1u << 2;  // fewer events than counted
inline constexpr std::uint32_t kErrEpochs = 1u << 3;    // more barriers than an event can hold
inline constexpr std::uint32_t kErrMisaligned = 1u << 4;  // a vector access at an unaligned index
inline constexpr std::uint32_t kErrRegions = 1u << 5;     // more TS_SHARED regions than memory ids

// Memory ids: A, B, C, then the TS_SHARED regions in declaration order.
inline constexpr std::uint32_t kFirstRegion = 3;
inline constexpr std::uint32_t kRegionNameBytes = 64;  // a region's name, cut to 63 characters

struct ThreadState {
  Event* out;
  std::uint64_t seq, capacity;
  std::uint32_t epoch;
  std::uint32_t regions;  // TS_SHARED regions declared so far
};

struct RecordLaunch {
  IterationRule rule;
  std::uint64_t elements[kMaxMemoryIds];  // valid indices per memory id
  ThreadState* state;                   // one per thread
  std::uint64_t* counts;                // counting pass: events per thread
  const std::uint64_t* offsets;         // recording pass: first event of each thread
  Event* events;                        // recording pass: null while counting
  BlockTiming* timing;                  // recording pass: per block SM and times
  std::uint64_t* shared_base;           // per memory id: byte offset in shared memory
  std::uint64_t* shared_shape;          // per memory id: rows << 32 | cols, as TS_SHARED declared it
  char (*region_names)[kRegionNameBytes];  // per memory id: the name TS_SHARED gave it, NUL-ended
  std::uint32_t* errors;
  // A focused recording: per block of the grid, its place among the traced
  // blocks, or kNotTraced; null when every block is traced. Per-thread state,
  // counts and events are then indexed by that place, not by the block.
  const std::uint32_t* block_slot;
};

inline constexpr std::uint32_t kNotTraced = 0xFFFFFFFFu;

__constant__ RecordLaunch c_launch;

__device__ __forceinline__ std::uint64_t linear_block() {
  return (std::uint64_t{blockIdx.z} * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}

// Whether this block is recorded (every block, unless the recording is focused).
__device__ __forceinline__ bool block_traced() {
  return c_launch.block_slot == nullptr || c_launch.block_slot[linear_block()] != kNotTraced;
}

// The thread's index in the recording's per-thread arrays.
__device__ __forceinline__ std::uint64_t global_thread_id() {
  const std::uint64_t block = c_launch.block_slot ? c_launch.block_slot[linear_block()] : linear_block();
  const std::uint64_t in_block = (std::uint64_t{threadIdx.z} * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return block * (std::uint64_t{blockDim.x} * blockDim.y * blockDim.z) + in_block;
}

struct Sink {
  __device__ static void record(ArrayId array, std::uint32_t index, float value, std::uint8_t flags,
                                  Width width = Width::B4, bool async = false) {
    ThreadState& s = c_launch.state[global_thread_id()];
    if (c_launch.events) {
      if (s.seq < s.capacity) {
        Event e;
        e.index = index;
        e.value = value;
        e.epoch = static_cast<std::uint16_t>(s.epoch);
        e.iter = iteration_of(c_launch.rule, array, index, s.epoch);
        e.array = static_cast<std::uint8_t>(array);
        e.flags = static_cast<std::uint8_t>(space_of(array) == Space::Shared ? flags | kFlagShared : flags);
        e.width = static_cast<std::uint8_t>(width);
        e.async = async ? 1 : 0;
        s.out[s.seq] = e;
      } else {
        atomicOr(c_launch.errors, kErrOverflow);
      }
    }
    ++s.seq;
  }
  __device__ static bool inside(ArrayId array, std::uint32_t index) {
    if (index < c_launch.elements[static_cast<int>(array)]) return true;
    atomicOr(c_launch.errors, kErrOutOfBounds);
    return false;
  }
  __device__ static float load(ArrayId array, const float* base, std::uint32_t index) {
    const float v = inside(array, index) ? base[index] : 0.0f;
    record(array, index, v, 0);
    return v;
  }
  __device__ static void store(ArrayId array, float* base, std::uint32_t index, float value, std::uint8_t flags) {
    if (inside(array, index)) base[index] = value;
    record(array, index, value, flags);
  }
  // One access of 2 or 4 floats; a misaligned one is an error, as on the hardware.
  __device__ static bool vector_inside(ArrayId array, std::uint32_t index, Width width) {
    const std::uint32_t n = floats_of(width);
    if (index % n != 0) atomicOr(c_launch.errors, kErrMisaligned);
    return index % n == 0 && inside(array, index) && inside(array, index + n - 1);
  }
  __device__ static void load_vector(ArrayId array, const float* base, std::uint32_t index, Width width, float* out) {
    const bool ok = vector_inside(array, index, width);
    for (std::uint32_t i = 0; i < floats_of(width); ++i) {
      out[i] = ok ? base[index + i] : 0.0f;
      record(array, index + i, out[i], 0, width);
    }
  }
  __device__ static void store_vector(ArrayId array, float* base, std::uint32_t index, Width width,
                                      const float* values, const std::uint8_t* flags) {
    const bool ok = vector_inside(array, index, width);
    for (std::uint32_t i = 0; i < floats_of(width); ++i) {
      if (ok) base[index + i] = values[i];
      record(array, index + i, values[i], flags[i], width);
    }
  }
  // cp.async, made synchronous: the same events as the emulator's, and the
  // data is in place before any wait (api/async_copy.h).
  __device__ static void copy_async(ArrayId dst, float* dst_base, std::uint32_t dst_index, ArrayId src,
                                    const float* src_base, std::uint32_t src_index, Width width) {
    const bool dst_ok = vector_inside(dst, dst_index, width);
    const bool src_ok = src_base == nullptr || vector_inside(src, src_index, width);
    float values[4] = {};
    if (src_base)
      for (std::uint32_t i = 0; i < floats_of(width); ++i) {
        values[i] = src_ok ? src_base[src_index + i] : 0.0f;
        record(src, src_index + i, values[i], 0, width, true);
      }
    const std::uint8_t flags = src_base ? kFlagStore : kFlagStore | kFlagPadding;
    for (std::uint32_t i = 0; i < floats_of(width); ++i) {
      if (dst_ok) dst_base[dst_index + i] = values[i];
      record(dst, dst_index + i, values[i], flags, width, true);
    }
  }
  // An element of an mma fragment (kernels/api/mma.h): a shared load of this
  // lane, marked; the product itself is the real instruction.
  __device__ static float load_fragment(ArrayId array, const float* base, std::uint32_t index, Width width,
                                        bool continues) {
    const float v = inside(array, index) ? base[index] : 0.0f;
    record(array, index, v, kFlagFragment, width, continues);
    return v;
  }
  __device__ static void mma_tf32(float (&c)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
    ::ts::mma::mma_sync_tf32(c, a, b);  // the recorder refuses GPUs before sm_80 before launching
  }
  __device__ static void commit_async() {}
  __device__ static void wait_async(int) {}
  __device__ static void barrier() {
    ::__syncthreads();
    ThreadState& s = c_launch.state[global_thread_id()];
    if (++s.epoch > kMaxEpoch) atomicOr(c_launch.errors, kErrEpochs);
  }
  __device__ static void shared_base(ArrayId array, const float* base) {
    if (c_launch.shared_base && global_thread_id() == 0)
      c_launch.shared_base[static_cast<int>(array)] = static_cast<std::uint64_t>(__cvta_generic_to_shared(base));
  }
};

// Kernels call __syncthreads() unqualified: inside this namespace it is this one.
__device__ __forceinline__ void __syncthreads() { Sink::barrier(); }

using InMatrix = rec::GlobalArray<Sink, const float>;
using OutMatrix = rec::GlobalArray<Sink, float>;

TS_REC_VECTOR_API(Sink)
TS_REC_ASYNC_COPY_API(Sink)
TS_REC_MMA_API(Sink)

}  // namespace ts::gpu_rec

namespace ts::gpu_rec {

// A region as TS_SHARED declares it: the next memory id of this thread's
// regions, its shape and name noted for the recorder (a kernel's regions are
// known only once it runs).
template <int ROWS, int COLS>
__device__ __forceinline__ ArrayId declare_region(const char* name) {
  ThreadState& s = c_launch.state[global_thread_id()];
  const std::uint32_t id = kFirstRegion + s.regions++;
  if (id >= kMaxMemoryIds) {
    atomicOr(c_launch.errors, kErrRegions);
    return static_cast<ArrayId>(kMaxMemoryIds - 1);
  }
  if (c_launch.shared_shape && global_thread_id() == 0) {
    c_launch.shared_shape[id] = std::uint64_t{ROWS} << 32 | std::uint32_t{COLS};
    std::uint32_t i = 0;
    for (; i + 1 < kRegionNameBytes && name[i] != '\0'; ++i) c_launch.region_names[id][i] = name[i];
    c_launch.region_names[id][i] = '\0';
  }
  return static_cast<ArrayId>(id);
}

}  // namespace ts::gpu_rec

#define TS_SHARED(type, name, rows, cols)                                                \
  __shared__ type name##_words[rows][cols];                                              \
  ::ts::rec::SharedArray2D<type, rows, cols, ::ts::gpu_rec::Sink> name(                   \
      name##_words, ::ts::gpu_rec::declare_region<rows, cols>(#name))
#define TS_SHARED_ALIGNED(type, name, rows, cols)                                        \
  __shared__ __align__(16) type name##_words[rows][cols];                                \
  ::ts::rec::SharedArray2D<type, rows, cols, ::ts::gpu_rec::Sink> name(                   \
      name##_words, ::ts::gpu_rec::declare_region<rows, cols>(#name))
// Static here: the recorded configurations fit in 48 KB. 16-byte aligned (cp.async, ldmatrix rows).
#define TS_SHARED_DYNAMIC(type, name, rows, cols, first_word) TS_SHARED_ALIGNED(type, name, rows, cols)
