// mma.h — the warp-level tensor-core product of ladder rung 6,
// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32, in every mode.
//
// A kernel writes, in every mode,
//   FragA a;  FragB b;  FragC c = {};  // per lane: 4, 2 and 4 registers
//   load_matrix_a(a, As, row, col);    // the 16 x 8 piece of As at (row, col), rounded to TF32
//   load_matrix_b(b, Bs, row, col);    // the 8 x 8 piece of Bs (k x n) at (row, col), rounded
//   mma_tf32(c, a, b);                 // c += a * b: the warp's 16 x 8 tile of C
// All 32 lanes of the warp take part. The fragment layouts (PTX ISA, "Matrix
// Fragments for mma.m16n8k8", .tf32), with group = lane / 4, quad = lane % 4:
//   a0 (group, quad)  a1 (group + 8, quad)  a2 (group, quad + 4)  a3 (group + 8, quad + 4)
//   b0 (quad, group)  b1 (quad + 4, group)                      [b: row = k, col = n]
//   c0 (group, 2 quad)  c1 (group, 2 quad + 1)  c2, c3 the same in row group + 8
// TF32 rounding is the rung's: to nearest, ties away from zero (cvt.rna),
// computed on the bits (to_tf32 below).
//
// The plain build (mode_plain.cuh) loads A with one ldmatrix.x4 and B with two
// 4-byte loads, as rung 6 always did. In the recorded modes every element a
// lane holds is one shared load of that lane, flagged as a fragment element
// (event.h): A as one 16-byte access of four elements a0..a3, B as two 4-byte
// ones, so the analysis counts what the hardware issues. The instrumented GPU
// kernel runs the real mma.sync; the emulator meets the warp's 32 lanes at it
// and computes the product from these layouts (kernels/emu/warp_mma.h).
#pragma once

#include <cstdint>
#if !defined(__CUDACC_RTC__)  // NVRTC has no <cstring>; its device code takes the __CUDA_ARCH__ branches
#include <cstring>
#endif

#include "trace/event.h"
#include "kernels/api/origin.h"

#if defined(__CUDACC__)
#define TS_MMA_HD __host__ __device__ __forceinline__
#define TS_MMA_DEVICE __device__ __forceinline__  // its Sink call depends on no template argument
#else
#define TS_MMA_HD inline
#define TS_MMA_DEVICE inline
#endif

namespace ts::mma {

inline constexpr int kWarpLanes = 32;

// Where a lane's fragment register sits in its matrix (A: 16 x 8, B: 8 x 8
// as k x n, C: 16 x 8).
struct Coord {
  int row, col;
};
TS_MMA_HD constexpr Coord a_coord(int lane, int slot) {
  return {lane / 4 + 8 * (slot % 2), lane % 4 + 4 * (slot / 2)};
}
TS_MMA_HD constexpr Coord b_coord(int lane, int slot) { return {lane % 4 + 4 * slot, lane / 4}; }
TS_MMA_HD constexpr Coord c_coord(int lane, int slot) {
  return {lane / 4 + 8 * (slot / 2), 2 * (lane % 4) + slot % 2};
}

TS_MMA_HD std::uint32_t float_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}
TS_MMA_HD float bits_float(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
#endif
}

// FP32 -> TF32, to nearest with ties away from zero (what cvt.rna.tf32.f32
// computes for finite values, but ptxas expands that into ~9 instructions on
// sm_90, which made the TF32 kernels instruction-bound): add half a TF32 unit
// in the last place to the magnitude bits, then clear the 13 bits TF32 drops.
TS_MMA_HD constexpr std::uint32_t to_tf32(std::uint32_t bits) { return (bits + 0x1000u) & 0xFFFFE000u; }

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
// The instruction itself, for every CUDA build (the plain and instrumented
// kernels, the counting build, the benchmark-only rungs): d += a * b over the
// warp's 32 lanes. Needs sm_80; the recorders refuse older GPUs before
// launching, and the ladder is built for sm_80 and newer only.
__device__ __forceinline__ void mma_sync_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap();
#else
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}
#endif

}  // namespace ts::mma

namespace ts::rec {

// The lane of the calling thread in its warp (threads numbered x fastest).
template <class Tid, class Dim>
TS_MMA_HD int lane_of(const Tid& tid, const Dim& dim) {
  return static_cast<int>(((tid.z * dim.y + tid.y) * dim.x + tid.x) % mma::kWarpLanes);
}

// tile[r][c] is a SharedRef (base, index, id): one recorded fragment element.
// line: the kernel's line that loads the fragment (0: not known), for the
// element's event; the subscript here would carry this file's.
template <class Sink, class Tile>
TS_MMA_HD std::uint32_t load_fragment_element(const Tile& tile, int r, int c, Width width, bool continues,
                                              std::uint32_t line) {
  const auto ref = tile[r][c];
  if constexpr (SinkTakesNotes<Sink>) {  // the element for the checks, on the kernel's line
    Origin o = ref.origin;
    o.line = line;
    Sink::note(o, 0);
  }
  return mma::to_tf32(mma::float_bits(Sink::load_fragment(ref.id, ref.base, ref.index, width, continues)));
}

// A sink that counts requests rather than recording events (the GPU's counting
// build, kernels/cuda/mode_counted.cuh) takes an A fragment as the plain build
// issues it: one ldmatrix.x4, lane l's 16-byte row at row l % 16, columns
// 4 (l / 16) .. + 3 of the fragment, the rows the trace analysis rebuilds from
// the lanes' elements (app/core/analysis/warp_requests.cpp).
template <class Sink>
concept SinkCountsLdmatrix = requires(const float* base) { Sink::ldmatrix_row(ArrayId::As, base, 0u); };

template <class Sink, class Tile>
TS_MMA_HD void load_fragment_a(std::uint32_t (&a)[4], const Tile& tile, int row, int col, int lane,
                               std::uint32_t line = 0) {
  if constexpr (SinkCountsLdmatrix<Sink>) {
    const auto ref = tile[row + lane % 16][col + lane / 16 * 4];
    Sink::ldmatrix_row(ref.id, ref.base, ref.index);
  }
  for (int s = 0; s < 4; ++s) {
    const mma::Coord at = mma::a_coord(lane, s);
    a[s] = load_fragment_element<Sink>(tile, row + at.row, col + at.col, Width::B16, s != 0, line);
  }
}

template <class Sink, class Tile>
TS_MMA_HD void load_fragment_b(std::uint32_t (&b)[2], const Tile& tile, int row, int col, int lane,
                               std::uint32_t line = 0) {
  for (int s = 0; s < 2; ++s) {
    const mma::Coord at = mma::b_coord(lane, s);
    b[s] = load_fragment_element<Sink>(tile, row + at.row, col + at.col, Width::B4, s != 0, line);
  }
}

}  // namespace ts::rec

// The kernel-facing names, for a recorded mode's namespace (its Sink and its
// threadIdx / blockDim): FragA, FragB, FragC, load_matrix_a/b, mma_tf32. With
// a sink that takes notes (the emulator) row is an Index, which knows the
// kernel's line of the call (origin.h): the fragment's events carry that line.
#define TS_REC_MMA_API(SINK)                                                                               \
  using FragA = std::uint32_t[4];                                                                          \
  using FragB = std::uint32_t[2];                                                                          \
  using FragC = float[4];                                                                                  \
  template <class Tile>                                                                                    \
  TS_MMA_HD void load_matrix_a(FragA& a, const Tile& tile, ::ts::rec::IndexOf<SINK> row, int col) {        \
    ::ts::rec::load_fragment_a<SINK>(a, tile, static_cast<int>(::ts::rec::index_value(row)), col,          \
                                     ::ts::rec::lane_of(threadIdx, blockDim), ::ts::rec::line_of(row));    \
  }                                                                                                        \
  template <class Tile>                                                                                    \
  TS_MMA_HD void load_matrix_b(FragB& b, const Tile& tile, ::ts::rec::IndexOf<SINK> row, int col) {        \
    ::ts::rec::load_fragment_b<SINK>(b, tile, static_cast<int>(::ts::rec::index_value(row)), col,          \
                                     ::ts::rec::lane_of(threadIdx, blockDim), ::ts::rec::line_of(row));    \
  }                                                                                                        \
  TS_MMA_DEVICE void mma_tf32(FragC& c, const FragA& a, const FragB& b) { SINK::mma_tf32(c, a, b); }
