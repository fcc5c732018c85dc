// origin.h — where an access comes from, for the emulator's reports: the
// source line of its subscript, and the indices as the kernel wrote them.
//
// With a sink that takes notes (the emulator's: note(const Origin&, int slot),
// slot 1 being a cp.async copy's source), an array's operator[] takes an Index,
// whose implicit constructor's default argument __builtin_LINE() is evaluated
// where the kernel writes the subscript: `A[row * K + k]` knows its line with
// no extra word in the kernel. Each reference carries its Origin to the sink,
// which is told just before each access. Every other sink takes a plain int
// and carries nothing (NoOrigin, an empty member): those builds are unchanged.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define TS_ORIGIN_HD __host__ __device__ __forceinline__
#else
#define TS_ORIGIN_HD inline
#endif

namespace ts::rec {

// Where an access comes from: the source line of its subscript and the indices
// as the kernel wrote them (global: row is the flat index, col is -1).
struct Origin {
  std::uint32_t line = 0;  // 0: not known
  std::int64_t row = 0, col = -1;
};
struct NoOrigin {};

template <class Sink>
concept SinkTakesNotes = requires(const Origin& o) { Sink::note(o, 0); };

// A subscript and the line it is written on (emulator mode only).
struct Index {
  std::int64_t value;
  std::uint32_t line;
  template <std::integral I>
  Index(I i, std::uint32_t at = __builtin_LINE()) : value(static_cast<std::int64_t>(i)), line(at) {}
};

template <class Sink>
using IndexOf = std::conditional_t<SinkTakesNotes<Sink>, Index, int>;
template <class Sink>
using OriginOf = std::conditional_t<SinkTakesNotes<Sink>, Origin, NoOrigin>;

TS_ORIGIN_HD std::int64_t index_value(int i) { return i; }
inline std::int64_t index_value(const Index& i) { return i.value; }
// The line an Index was written on (0 for a plain int: not known).
TS_ORIGIN_HD std::uint32_t line_of(int) { return 0; }
inline std::uint32_t line_of(const Index& i) { return i.line; }

// The Origin of a global subscript, or nothing for a sink without notes.
template <class Sink, class I>
TS_ORIGIN_HD OriginOf<Sink> global_origin(const I& i) {
  if constexpr (SinkTakesNotes<Sink>) return Origin{i.line, i.value, -1};
  else return {};
}

// Tells the sink where the access it is about to get comes from.
template <class Sink, class O>
TS_ORIGIN_HD void note_origin(const O& origin, int slot = 0) {
  if constexpr (SinkTakesNotes<Sink>) Sink::note(origin, slot);
}

}  // namespace ts::rec
