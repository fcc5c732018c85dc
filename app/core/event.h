// event.h — one recorded memory access, as written by the instrumented CUDA
// kernels and the CPU emulator alike. Plain data: compiled by g++ and nvcc.
//
// The thread that made an access is not stored: a trace keeps each thread's
// events contiguous (see trace.h), so the thread and its sequence number follow
// from the position. That keeps an event at 12 bytes in memory and on disk.
#pragma once

#include <cstdint>

namespace ts {

// The five arrays a matmul kernel touches. A, B, C live in global memory;
// As and Bs are the block's shared-memory tiles.
enum class ArrayId : std::uint8_t { A = 0, B = 1, C = 2, As = 3, Bs = 4 };
inline constexpr int kArrayCount = 5;

enum class Space : std::uint8_t { Global = 0, Shared = 1 };
enum class Op : std::uint8_t { Load = 0, Store = 1 };

constexpr Space space_of(ArrayId a) {
  return a == ArrayId::As || a == ArrayId::Bs ? Space::Shared : Space::Global;
}

// Event::flags bits.
inline constexpr std::uint8_t kFlagStore = 1u << 0;
// A shared store of a value that no global load produced: the zero written
// into a tile slot that lies outside the matrices. Not a memory read.
inline constexpr std::uint8_t kFlagPadding = 1u << 1;

// Limits that the packed fields impose on a recording (checked before recording).
inline constexpr std::uint32_t kMaxEpoch = (1u << 13) - 1;
inline constexpr std::uint32_t kMaxIteration = (1u << 14) - 1;

// 12 bytes: the thread is implied by the position in the trace (see trace.h),
// and the small fields share two 16-bit words. The layout is the file format's
// (little-endian, bit-fields allocated from the low bit, as GCC, Clang and nvcc do).
struct Event {
  std::uint32_t index;       // element index in its array: row * ld + col
  float value;               // the value loaded or stored
  std::uint16_t epoch : 13;  // __syncthreads() barriers this thread had passed
  std::uint16_t array : 3;   // ArrayId
  std::uint16_t iter : 14;   // k-tile iteration (the number of iterations for the final store)
  std::uint16_t flags : 2;   // kFlagStore | kFlagPadding

  constexpr ArrayId array_id() const { return static_cast<ArrayId>(array); }
  constexpr Op op() const { return (flags & kFlagStore) ? Op::Store : Op::Load; }
  constexpr Space space() const { return space_of(array_id()); }
  constexpr bool is_padding() const { return (flags & kFlagPadding) != 0; }
  constexpr bool is_global_load() const { return space() == Space::Global && op() == Op::Load; }
};
static_assert(sizeof(Event) == 12, "an event must stay at 12 bytes");

// How a kernel's k-loop maps onto iterations, so that the recorder can stamp
// each event with its iteration on the GPU and the CPU alike.
struct IterationRule {
  std::uint32_t barriers_per_iteration;  // 2 for the tiled kernels, 0 for naive
  std::uint32_t tile;                    // k-extent of one iteration
  std::uint32_t k;                       // K of the product
  std::uint32_t n;                       // N of the product (B's leading dimension)
  std::uint32_t iterations;              // ceil(K / tile)
};

#if defined(__CUDACC__)
__host__ __device__
#endif
inline std::uint16_t iteration_of(const IterationRule& rule, ArrayId array, std::uint32_t index,
                                  std::uint32_t epoch) {
  std::uint32_t it = rule.iterations;
  if (rule.barriers_per_iteration != 0) {
    it = epoch / rule.barriers_per_iteration;
  } else if (array == ArrayId::A) {
    it = (index % rule.k) / rule.tile;  // naive: the k of A[row][k] decides
  } else if (array == ArrayId::B) {
    it = (index / rule.n) / rule.tile;  // naive: the k of B[k][col] decides
  }
  return static_cast<std::uint16_t>(it < rule.iterations ? it : rule.iterations);
}

}  // namespace ts
