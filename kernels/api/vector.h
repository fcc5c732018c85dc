// vector.h — 8- and 16-byte loads and stores (float2, float4) in the recorded
// modes: the instrumented CUDA kernel and the CPU emulator.
//
// A kernel writes, in every mode,
//   float4 a = load4(A[row * K + col]);   // 16 bytes of global memory
//   store4(Bs[r][c], load4(B[i]));        // global -> shared, one access each
//   As[c + 0][r] = a.x;                   // a staged element, not padding
//   store4(As[r][c], make_float4(0.0f, 0.0f, 0.0f, 0.0f));  // a fill: padding
// and load2/store2 likewise. The plain build (mode_plain.cuh) compiles them to
// one vector instruction; here each is one access of its width, recorded as
// one event per float (event.h says how the analysis regroups them).
//
// float4 and float2 are these modes' own: their members remember whether a
// load produced them, so that a value staged through registers into shared
// memory is recorded as a copy, and a computed one (a zero fill) as padding.
#pragma once

#include <cstdint>

#include "trace/event.h"
#include "kernels/api/origin.h"

#if defined(__CUDACC__)
#define TS_VEC_HD __host__ __device__ __forceinline__
#else
#define TS_VEC_HD inline
#endif

namespace ts::rec {

// A float in a register, and whether it came from memory.
struct Staged {
  float value = 0.0f;
  bool loaded = false;
  Staged() = default;
  TS_VEC_HD Staged(float v) : value(v) {}  // a computed value
  TS_VEC_HD static Staged from_memory(float v) {
    Staged s(v);
    s.loaded = true;
    return s;
  }
  TS_VEC_HD operator float() const { return value; }
  TS_VEC_HD Staged& operator+=(float v) { return *this = Staged(value + v); }
  TS_VEC_HD Staged& operator*=(float v) { return *this = Staged(value * v); }
};

struct Float4 {
  Staged x, y, z, w;
};
struct Float2 {
  Staged x, y;
};

TS_VEC_HD Float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
TS_VEC_HD Float2 make_float2(float x, float y) { return {x, y}; }

// The floats of a vector register, in element order.
template <class V>
inline constexpr Width width_of = Width::B16;
template <>
inline constexpr Width width_of<Float2> = Width::B8;

TS_VEC_HD Staged* elements(Float4& v) { return &v.x; }
TS_VEC_HD Staged* elements(Float2& v) { return &v.x; }
TS_VEC_HD const Staged* elements(const Float4& v) { return &v.x; }
TS_VEC_HD const Staged* elements(const Float2& v) { return &v.x; }

// ref: a GlobalRef or SharedRef (base, index, id), the first element.
template <class Sink, class V, class Ref>
TS_VEC_HD V load_vector(const Ref& ref) {
  constexpr Width w = width_of<V>;
  float f[4];
  note_origin<Sink>(ref.origin);
  Sink::load_vector(ref.id, ref.base, ref.index, w, f);
  V v;
  for (std::uint32_t i = 0; i < floats_of(w); ++i) elements(v)[i] = Staged::from_memory(f[i]);
  return v;
}

// A store into shared memory of an element no load produced is padding.
template <class Sink, class V, class Ref>
TS_VEC_HD void store_vector(const Ref& ref, const V& v) {
  constexpr Width w = width_of<V>;
  float f[4];
  std::uint8_t flags[4];
  const bool shared = space_of(ref.id) == Space::Shared;
  for (std::uint32_t i = 0; i < floats_of(w); ++i) {
    f[i] = elements(v)[i].value;
    flags[i] = kFlagStore | (shared && !elements(v)[i].loaded ? kFlagPadding : 0);
  }
  note_origin<Sink>(ref.origin);
  Sink::store_vector(ref.id, ref.base, ref.index, w, f, flags);
}

}  // namespace ts::rec

// The kernel-facing names, for a recorded mode's namespace (its Sink, its
// GlobalRef and SharedRef): float4, float2, make_float4/2, load4/2, store4/2.
#define TS_REC_VECTOR_API(SINK)                                                                 \
  using float4 = ::ts::rec::Float4;                                                             \
  using float2 = ::ts::rec::Float2;                                                             \
  using ::ts::rec::make_float2;                                                                 \
  using ::ts::rec::make_float4;                                                                 \
  template <class Ref>                                                                          \
  TS_VEC_HD float4 load4(const Ref& r) {                                                        \
    return ::ts::rec::load_vector<SINK, float4>(r);                                             \
  }                                                                                             \
  template <class Ref>                                                                          \
  TS_VEC_HD float2 load2(const Ref& r) {                                                        \
    return ::ts::rec::load_vector<SINK, float2>(r);                                             \
  }                                                                                             \
  template <class Ref>                                                                          \
  TS_VEC_HD void store4(const Ref& r, const float4& v) {                                        \
    ::ts::rec::store_vector<SINK>(r, v);                                                        \
  }                                                                                             \
  template <class Ref>                                                                          \
  TS_VEC_HD void store2(const Ref& r, const float2& v) {                                        \
    ::ts::rec::store_vector<SINK>(r, v);                                                        \
  }
