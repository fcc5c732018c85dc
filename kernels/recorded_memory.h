// recorded_memory.h — the types that make a kernel record itself.
//
// In the recorded modes, A[i] yields a GlobalRef and As[r][c] a SharedRef. A
// reference records a load when it is read as a float and a store when it is
// assigned, through a Sink: the instrumented CUDA kernel's device buffer, or
// the emulator's. The kernel source stays the textbook listing.
//
// Sink interface (all static):
//   float load(ArrayId, const float* base, uint32_t index);
//   void  store(ArrayId, float* base, uint32_t index, float value, uint8_t flags);
//   void  load_vector(ArrayId, const float* base, uint32_t index, Width, float* out);
//   void  store_vector(ArrayId, float* base, uint32_t index, Width, const float* values,
//                      const uint8_t* flags);  // one access of 2 or 4 floats (api/vector.h)
//   void  copy_async(ArrayId dst, float* dst_base, uint32_t dst_index, ArrayId src,
//                    const float* src_base, uint32_t src_index, Width);  // null src: zero fill
//   void  commit_async();  void wait_async(int pending);         // (api/async_copy.h)
//   void  barrier();                       // __syncthreads()
//   void  shared_base(ArrayId, const void*);  // where a shared tile lives
// and, in the emulator only, note(const Origin&, int slot) (api/origin.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "trace/event.h"
#include "kernels/api/async_copy.h"
#include "kernels/api/origin.h"
#include "kernels/api/vector.h"

#if defined(__CUDACC__)
#define TS_REC_HD __host__ __device__ __forceinline__
#else
#define TS_REC_HD inline
#endif

namespace ts::rec {

// The index given to an access outside a tile; every sink rejects it.
inline constexpr std::uint32_t kOutOfRange = 0xFFFFFFFFu;

template <class Sink, class Elem>
struct GlobalRef {
  Elem* base;
  std::uint32_t index;
  ArrayId id;
  [[no_unique_address]] OriginOf<Sink> origin;

  TS_REC_HD operator float() const {
    note_origin<Sink>(origin);
    return Sink::load(id, base, index);
  }
  TS_REC_HD GlobalRef& operator=(float v) requires(!std::is_const_v<Elem>) {
    note_origin<Sink>(origin);
    Sink::store(id, base, index, v, kFlagStore);
    return *this;
  }
};

// A global matrix as the kernel sees it: a flat array indexed like a pointer.
template <class Sink, class Elem>
struct GlobalArray {
  Elem* base;
  ArrayId id;
  TS_REC_HD GlobalRef<Sink, Elem> operator[](IndexOf<Sink> i) const {
    return {base, static_cast<std::uint32_t>(index_value(i)), id, global_origin<Sink>(i)};
  }
};

template <class Sink>
struct SharedRef {
  float* base;
  std::uint32_t index;
  ArrayId id;
  [[no_unique_address]] OriginOf<Sink> origin;

  TS_REC_HD operator float() const {
    note_origin<Sink>(origin);
    return Sink::load(id, base, index);
  }
  // Staging a value just loaded from global memory: the load, then the store.
  template <class E>
  TS_REC_HD SharedRef& operator=(const GlobalRef<Sink, E>& g) {
    const float v = g;
    note_origin<Sink>(origin);
    Sink::store(id, base, index, v, kFlagStore);
    return *this;
  }
  // An element of a vector load, staged through a register: a copy when a load
  // produced it, else a fill.
  TS_REC_HD SharedRef& operator=(const Staged& v) {
    note_origin<Sink>(origin);
    Sink::store(id, base, index, v.value, v.loaded ? kFlagStore : kFlagStore | kFlagPadding);
    return *this;
  }
  // Any other value stored into a tile is a fill (the zero written for a slot
  // outside the matrices): recorded as padding, not as a memory read.
  TS_REC_HD SharedRef& operator=(float v) {
    note_origin<Sink>(origin);
    Sink::store(id, base, index, v, kFlagStore | kFlagPadding);
    return *this;
  }
};

template <class Sink, int COLS>
struct SharedRow {
  float* base;
  std::uint32_t row_start;
  ArrayId id;
  [[no_unique_address]] OriginOf<Sink> origin;  // the row as written
  TS_REC_HD SharedRef<Sink> operator[](IndexOf<Sink> c) const {
    // A column past the row's end would alias the next row: make it out of range.
    const std::uint32_t col = static_cast<std::uint32_t>(index_value(c));
    const bool inside = row_start != kOutOfRange && col < static_cast<std::uint32_t>(COLS);
    OriginOf<Sink> at{};
    if constexpr (SinkTakesNotes<Sink>) at = Origin{c.line, origin.row, c.value};  // the second [] gives the line
    return {base, inside ? row_start + col : kOutOfRange, id, at};
  }
};

// A ROWS x COLS tile in the block's shared memory.
template <class T, int ROWS, int COLS, class Sink>
struct SharedArray2D {
  static_assert(std::is_same_v<T, float>, "tiles hold floats");
  float* base;
  ArrayId id;
  TS_REC_HD SharedArray2D(T (&words)[ROWS][COLS], ArrayId array) : base(&words[0][0]), id(array) {
    Sink::shared_base(array, base);
  }
  TS_REC_HD SharedRow<Sink, COLS> operator[](IndexOf<Sink> r) const {
    const std::uint32_t row = static_cast<std::uint32_t>(index_value(r));
    return {base, row < static_cast<std::uint32_t>(ROWS) ? row * COLS : kOutOfRange, id, global_origin<Sink>(r)};
  }
};

template <class T>
inline constexpr bool is_recorded_ref = false;
template <class S, class E>
inline constexpr bool is_recorded_ref<GlobalRef<S, E>> = true;
template <class S>
inline constexpr bool is_recorded_ref<SharedRef<S>> = true;

// a * b with a recorded operand: read a, then b, so that the recorded order is
// the source order on every compiler (C++ leaves operand order unspecified).
template <class L, class R>
  requires(is_recorded_ref<L> || is_recorded_ref<R>)
TS_REC_HD float operator*(const L& a, const R& b) {
  const float x = a;
  const float y = b;
  return x * y;
}

}  // namespace ts::rec
