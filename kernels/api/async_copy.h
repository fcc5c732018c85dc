// async_copy.h — cp.async global -> shared copies with commit/wait groups, in
// the recorded modes (the instrumented CUDA kernel and the CPU emulator).
//
// A kernel writes, in every mode,
//   cp_async16(Bs[r][c], B[i]);   // 16 bytes, global -> shared, no register
//   cp_async4(As[r][c], A[i]);    // 4 bytes
//   cp_async16_zero(Bs[r][c]);    // a ragged edge: 16 bytes of zeros (padding)
//   cp_async16_or_zero(Bs[r][c], B[in ? i : 0], in);  // one or the other, as one
//                                 // instruction in the plain build (cp.async's zero fill)
//   cp_async4_or_zero(As[c][r], A[in ? i : 0], in);   // the same, 4 bytes
//   cp_async_commit();            // the copies so far form one group
//   cp_async_wait<1>();           // all but the newest group have landed
// The plain build (mode_plain.cuh) issues the PTX instructions. Here each copy
// is a global load and a shared store of its width, both flagged async, in the
// epoch that issued them. The emulator keeps the data in flight until the wait
// that covers it: reading a word before then is a reported error.
#pragma once

#include "trace/event.h"
#include "kernels/api/origin.h"

#if defined(__CUDACC__)
#define TS_ASYNC_HD __host__ __device__ __forceinline__
#define TS_ASYNC_DEVICE __device__ __forceinline__  // its Sink call depends on no template argument
#else
#define TS_ASYNC_HD inline
#define TS_ASYNC_DEVICE inline
#endif

namespace ts::rec {

template <class Sink, class Dst, class Src>
TS_ASYNC_HD void copy_async(const Dst& dst, const Src& src, Width w) {
  note_origin<Sink>(dst.origin);
  note_origin<Sink>(src.origin, 1);
  Sink::copy_async(dst.id, dst.base, dst.index, src.id, src.base, src.index, w);
}

template <class Sink, class Dst>
TS_ASYNC_HD void zero_async(const Dst& dst, Width w) {
  note_origin<Sink>(dst.origin);
  Sink::copy_async(dst.id, dst.base, dst.index, dst.id, nullptr, 0, w);
}

}  // namespace ts::rec

// The kernel-facing names, for a recorded mode's namespace and its Sink.
#define TS_REC_ASYNC_COPY_API(SINK)                                                        \
  template <class Dst, class Src>                                                          \
  TS_ASYNC_HD void cp_async4(const Dst& dst, const Src& src) {                             \
    ::ts::rec::copy_async<SINK>(dst, src, ::ts::Width::B4);                                \
  }                                                                                        \
  template <class Dst, class Src>                                                          \
  TS_ASYNC_HD void cp_async16(const Dst& dst, const Src& src) {                            \
    ::ts::rec::copy_async<SINK>(dst, src, ::ts::Width::B16);                               \
  }                                                                                        \
  template <class Dst>                                                                     \
  TS_ASYNC_HD void cp_async4_zero(const Dst& dst) {                                        \
    ::ts::rec::zero_async<SINK>(dst, ::ts::Width::B4);                                     \
  }                                                                                        \
  template <class Dst>                                                                     \
  TS_ASYNC_HD void cp_async16_zero(const Dst& dst) {                                       \
    ::ts::rec::zero_async<SINK>(dst, ::ts::Width::B16);                                    \
  }                                                                                        \
  template <class Dst, class Src>                                                          \
  TS_ASYNC_HD void cp_async4_or_zero(const Dst& dst, const Src& src, bool in_bounds) {     \
    if (in_bounds) ::ts::rec::copy_async<SINK>(dst, src, ::ts::Width::B4);                 \
    else ::ts::rec::zero_async<SINK>(dst, ::ts::Width::B4);                                \
  }                                                                                        \
  template <class Dst, class Src>                                                          \
  TS_ASYNC_HD void cp_async16_or_zero(const Dst& dst, const Src& src, bool in_bounds) {    \
    if (in_bounds) ::ts::rec::copy_async<SINK>(dst, src, ::ts::Width::B16);                \
    else ::ts::rec::zero_async<SINK>(dst, ::ts::Width::B16);                               \
  }                                                                                        \
  TS_ASYNC_DEVICE void cp_async_commit() { SINK::commit_async(); }                         \
  template <int PENDING>                                                                   \
  TS_ASYNC_DEVICE void cp_async_wait() {                                                   \
    SINK::wait_async(PENDING);                                                             \
  }
