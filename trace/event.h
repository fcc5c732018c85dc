// event.h — one recorded memory access, as written by the instrumented CUDA
// kernels and the CPU emulator alike. Plain data: compiled by g++ and nvcc.
//
// The thread that made an access is not stored: a trace keeps each thread's
// events contiguous (see trace.h), so the thread and its sequence number follow
// from the position. That keeps an event at 16 bytes in memory (see below).
#pragma once

#include <cstdint>

namespace ts {

// The memory of tilescope's own kernels: buffers A, B, C in global memory and
// the block's shared tiles As and Bs. Their values are the memory ids those
// kernels' events carry (memory.h: buffers first, then regions), and what the
// five arrays of trace files of versions 1 and 2 map onto. Any other kernel's
// memory is named by its launch's tables, not by this list.
enum class ArrayId : std::uint8_t { A = 0, B = 1, C = 2, As = 3, Bs = 4 };
inline constexpr int kArrayCount = 5;

// An event's memory id is a byte: a launch has at most this many buffers and
// shared regions together (trace/memory.h).
inline constexpr std::uint32_t kMaxMemoryIds = 256;
// No memory id: what LaunchInfo::role_id says of a role no buffer has.
inline constexpr std::uint32_t kNoMemory = ~std::uint32_t{0};

enum class Space : std::uint8_t { Global = 0, Shared = 1 };
enum class Op : std::uint8_t { Load = 0, Store = 1 };

// The space of a memory id as the kernel vocabulary numbers them (A, B, C,
// then every TS_SHARED region in declaration order: As and Bs for
// tilescope's own kernels). A trace's events carry their space (kFlagShared),
// which the launch's tables decide for any kernel.
constexpr Space space_of(ArrayId a) {
  return static_cast<unsigned>(a) >= static_cast<unsigned>(ArrayId::As) ? Space::Shared : Space::Global;
}

// Event::flags bits.
inline constexpr std::uint8_t kFlagStore = 1u << 0;
// A shared store of a value that no global load produced: the zero written
// into a tile slot that lies outside the matrices (also the zero-fill of a
// cp.async whose source lies outside). Not a memory read.
inline constexpr std::uint8_t kFlagPadding = 1u << 1;
// The same bit on a shared load (a load is never padding): the element went
// into a lane's mma fragment register (kernels/api/mma.h). See Event below.
inline constexpr std::uint8_t kFlagFragment = kFlagPadding;
// The event's memory id names a shared region (else a global buffer): the
// space is on the event so that it needs no table to tell; the recorders set
// it from the launch's tables, and validation checks that the two agree.
inline constexpr std::uint8_t kFlagShared = 1u << 2;

// Limits that trace files of versions 1 and 2 impose on a recording (checked
// before recording): their fields are 12 bits wide.
inline constexpr std::uint32_t kMaxEpoch = (1u << 12) - 1;
inline constexpr std::uint32_t kMaxIteration = (1u << 12) - 1;

// Bytes one lane moves in one access: a float, a float2 or a float4.
enum class Width : std::uint8_t { B4 = 0, B8 = 1, B16 = 2 };
constexpr std::uint32_t bytes_of(Width w) { return 4u << static_cast<unsigned>(w); }
constexpr std::uint32_t floats_of(Width w) { return 1u << static_cast<unsigned>(w); }

// 16 bytes: the thread is implied by the position in the trace (see trace.h);
// the memory id, flags, width and async mark take a byte each, so that any
// kernel's memory (up to 255 buffers and regions) and future access kinds fit.
// The file format does not rely on this layout: the codec writes each field
// explicitly.
//
// A vector access (8 or 16 bytes) is one event per float it moves, so that
// every element keeps its value: the events of one access are consecutive in
// their thread, in element order, all with the access's width, and the first
// at an index that is a multiple of floats_of(width) (the hardware's alignment
// rule, which the kernel API enforces). first_of_access() regroups them.
//
// An asynchronous copy (cp.async) is a global load and a shared store, both
// flagged async; the store's epoch is the barrier epoch in which the copy was
// issued (the data becomes visible at the wait, which the emulator checks).
//
// An mma fragment load (a shared load flagged kFlagFragment) is one element a
// lane holds in a fragment register of mma.sync m16n8k8 (kernels/api/mma.h).
// A shared load is never async, so there the async bit is free: it marks a
// fragment element that is not its fragment's first register. An A fragment
// comes from one ldmatrix.x4 (16 bytes per lane, four events a0..a3 in slot
// order, the last three marked: one access, as the hardware counts it); a B
// fragment is two 4-byte loads b0, b1 (b1 marked). fragment_slot() counts
// back to the slot of an event.
struct Event {
  std::uint32_t index;  // element index in its buffer or region (memory.h: from its layout)
  float value;          // the value loaded or stored
  std::uint16_t epoch;  // __syncthreads() barriers this thread had passed
  std::uint16_t iter;   // k-tile iteration (the number of iterations for the final store)
  std::uint8_t array;   // memory id: a buffer or a shared region of the launch (memory.h)
  std::uint8_t flags;   // kFlagStore | kFlagPadding | kFlagShared
  std::uint8_t width;   // Width of the access this element belongs to
  std::uint8_t async;   // part of a cp.async global -> shared copy (or, on a fragment, not its first register)

  constexpr ArrayId array_id() const { return static_cast<ArrayId>(array); }
  constexpr Op op() const { return (flags & kFlagStore) ? Op::Store : Op::Load; }
  constexpr Space space() const { return (flags & kFlagShared) ? Space::Shared : Space::Global; }
  constexpr bool is_padding() const { return (flags & (kFlagStore | kFlagPadding)) == (kFlagStore | kFlagPadding); }
  constexpr bool is_fragment() const { return (flags & (kFlagStore | kFlagFragment)) == kFlagFragment; }
  // Not the first register of its mma fragment (only for is_fragment()).
  constexpr bool continues_fragment() const { return is_fragment() && async != 0; }
  constexpr bool is_async() const { return async != 0 && !is_fragment(); }
  constexpr bool is_global_load() const { return space() == Space::Global && op() == Op::Load; }
  constexpr Width access_width() const { return static_cast<Width>(width); }
  constexpr std::uint32_t width_bytes() const { return bytes_of(access_width()); }
  // Which float of its vector access this event is (0 for a scalar access).
  constexpr std::uint32_t lane_element() const { return index % floats_of(access_width()); }
};
static_assert(sizeof(Event) == 16, "an event stays at 16 bytes");

// Whether e starts an access, given the event before it in the same thread
// (nullptr when e is the thread's first): scalar events always do; a vector
// element continues the access of the element just before it in memory.
// An mma A fragment's elements are not adjacent in memory: its a1..a3 continue
// the access of a0 (their marks say so).
constexpr bool first_of_access(const Event& e, const Event* before) {
  if (e.is_fragment()) return !(e.continues_fragment() && e.width != 0 && before != nullptr);
  if (e.width == 0 || e.lane_element() == 0 || before == nullptr) return true;
  return !(before->array == e.array && before->flags == e.flags && before->width == e.width &&
           before->async == e.async && before->index + 1 == e.index);
}

// The fragment register an mma fragment event went into: 0..3 (a0..a3) for a
// 16-byte A fragment, 0..1 (b0, b1) for a B fragment. `thread` is the event's
// thread's events, i its position there.
constexpr std::uint32_t fragment_slot(const Event* thread, std::uint64_t i) {
  std::uint32_t slot = 0;
  while (i > 0 && thread[i].continues_fragment() && thread[i - 1].is_fragment() && thread[i - 1].array == thread[i].array) {
    ++slot;
    --i;
  }
  return slot;
}

// How a kernel's k-loop maps onto iterations, so that the recorder can stamp
// each event with its iteration on the GPU and the CPU alike.
//
// Shared accesses (and the global accesses of kernels that load in step with
// their barriers) take the iteration from the barriers passed:
// (epoch - barriers_before) / barriers_per_iteration, where barriers_before
// counts a pipeline's prologue barriers. A kernel whose global loads run ahead
// of its compute (cp.async pipelines) sets global_by_k: its A and B loads are
// stamped with the k-tile of the element they load, as the naive kernels' are,
// and its stores of C, made once the k-loop is over, with `iterations` (the
// store step), whether or not a barrier follows the loop (tf32-tensor-core's
// last barrier comes before its last k-tile's reads).
// A plain aggregate (no member initialisers): the GPU recorder keeps it in __constant__ memory.
struct IterationRule {
  std::uint32_t barriers_per_iteration;  // 2 for the tiled kernels, 0 for naive
  std::uint32_t tile;                    // k-extent of one iteration
  std::uint32_t k;                       // K of the product
  std::uint32_t n;                       // N of the product (B's leading dimension)
  std::uint32_t iterations;              // ceil(K / tile)
  std::uint32_t barriers_before;         // barriers before the first iteration's shared reads (0: none)
  std::uint32_t global_by_k;             // 1: A/B global loads by their element's k-tile
};

#if defined(__CUDACC__)
__host__ __device__
#endif
inline std::uint16_t iteration_of(const IterationRule& rule, ArrayId array, std::uint32_t index,
                                  std::uint32_t epoch) {
  std::uint32_t it = rule.iterations;
  const bool by_k = rule.barriers_per_iteration == 0 || rule.global_by_k != 0;
  if (by_k && array == ArrayId::A) {
    it = (index % rule.k) / rule.tile;  // the k of A[row][k] decides
  } else if (by_k && array == ArrayId::B) {
    it = (index / rule.n) / rule.tile;  // the k of B[k][col] decides
  } else if (rule.global_by_k != 0 && array == ArrayId::C) {
    it = rule.iterations;
  } else if (rule.barriers_per_iteration != 0) {
    it = epoch < rule.barriers_before ? 0 : (epoch - rule.barriers_before) / rule.barriers_per_iteration;
  }
  return static_cast<std::uint16_t>(it < rule.iterations ? it : rule.iterations);
}

}  // namespace ts
