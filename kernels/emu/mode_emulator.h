// mode_emulator.h — compile the kernel headers for the CPU emulator.
//
// The threads of a block run as fibers on one OS thread and switch only at
// __syncthreads() and at a warp's mma_tf32 (where the warp's 32 lanes meet), so
// the kernel source runs unchanged, in the order CUDA guarantees (none between
// barriers), and every access is recorded.
// Include this, then kernels/all_kernels.h, in emulator.cpp only.
#pragma once

#include <cstdint>

#include "trace/event.h"
#include "kernels/api/mma.h"
#include "kernels/recorded_memory.h"

#define TS_KERNEL_NS ts::emu

namespace ts::emu {

struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};

// The CUDA built-ins, per OS thread; the scheduler sets them before it resumes a fiber.
inline thread_local uint3 threadIdx, blockIdx, blockDim, gridDim;

// Where the emulated kernel's accesses go (defined in emulator.cpp).
struct Sink {
  static float load(ArrayId array, const float* base, std::uint32_t index);
  static void store(ArrayId array, float* base, std::uint32_t index, float value, std::uint8_t flags);
  static void load_vector(ArrayId array, const float* base, std::uint32_t index, Width width, float* out);
  static void store_vector(ArrayId array, float* base, std::uint32_t index, Width width, const float* values,
                           const std::uint8_t* flags);
  static void copy_async(ArrayId dst, float* dst_base, std::uint32_t dst_index, ArrayId src, const float* src_base,
                         std::uint32_t src_index, Width width);
  static void commit_async();
  static void wait_async(int pending);
  static void barrier(std::uint32_t line);
  // An element of an mma fragment (kernels/api/mma.h), and the warp's mma.
  static float load_fragment(ArrayId array, const float* base, std::uint32_t index, Width width, bool continues);
  static void mma_tf32(float (&c)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]);
  static void shared_base(ArrayId array, const float* base);
  // Where the next access comes from (kernels/api/origin.h): source lines and the checks' reports.
  static void note(const rec::Origin& origin, int slot);
};

// The block's shared memory: the n-th tile a fiber declares is the n-th tile of
// its block, shared by all of the block's fibers, and the launch's shared
// region n (memory id 3 + n: after A, B and C) by the name the kernel gave it.
float* shared_words(std::uint32_t rows, std::uint32_t cols, const char* name, std::uint32_t element_bytes);
template <class T, int ROWS, int COLS>
T (&shared_tile(const char* name))[ROWS][COLS] {
  static_assert(sizeof(T) == 4, "shared tiles hold 4-byte elements (float, int)");
  return *reinterpret_cast<T(*)[ROWS][COLS]>(shared_words(ROWS, COLS, name, sizeof(T)));
}
// The memory id of the region this fiber declared last.
ArrayId declared_region();

// The default argument is evaluated at the call: the line of the kernel's __syncthreads().
inline void __syncthreads(std::uint32_t line = __builtin_LINE()) { Sink::barrier(line); }

using InMatrix = rec::GlobalArray<Sink, const float>;
using OutMatrix = rec::GlobalArray<Sink, float>;

TS_REC_VECTOR_API(Sink)
TS_REC_ASYNC_COPY_API(Sink)
TS_REC_MMA_API(Sink)

}  // namespace ts::emu

// The emulator checks a vector access's alignment by its index (the hardware's rule).
#define TS_SHARED_ALIGNED(type, name, rows, cols) TS_SHARED(type, name, rows, cols)
#define TS_SHARED(type, name, rows, cols)                                          \
  auto& name##_words = ::ts::emu::shared_tile<type, rows, cols>(#name);            \
  ::ts::rec::SharedArray2D<type, rows, cols, ::ts::emu::Sink> name(name##_words, \
                                                                   ::ts::emu::declared_region())
#define TS_SHARED_DYNAMIC(type, name, rows, cols, first_word) TS_SHARED(type, name, rows, cols)
