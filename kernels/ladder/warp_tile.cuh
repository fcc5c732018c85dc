// warp_tile.cuh — one thread's share of a warp tile, shared by the warptiling
// rungs (warptile, double_buffer): the warp owns a WM x WN tile of C, its 32
// lanes a TM x TN patch each, split into 4 x 4 pieces spread over the warp
// tile, so that for every k the lanes read A and B from shared memory as
// float4 with no bank conflicts (a warp's loads of one row touch at most 8
// distinct float4 in one 128-byte line, the rest are broadcasts).
#pragma once

#include <cuda_runtime.h>

namespace ts::ladder {

// ORDER: the order of one k's multiply-adds, which decides which operand the
// register reuse cache holds and so how often two reads meet in one register
// bank: 0 rows of the patch outer, 1 columns outer, 2 rows outer with the
// columns zigzagging, 3 one 4 x 4 piece at a time.
// LANE_MAP: which lane takes which patch. 0: lanes row-major over the
// kLanesM x kLanesN grid. 1: lanes l and l^2 share a row of patches and lanes
// l and l^1 a column, so both the A and the B fragment loads have the
// lane-pair uniformity that lets shared memory return a float4 load in half
// the wavefronts.
template <int WM, int WN, int TM, int TN, int ORDER = 0, int LANE_MAP = 0>
struct WarpTileThread {
  static_assert(TM % 4 == 0 && TN % 4 == 0, "a thread's patch is made of 4 x 4 pieces");
  static constexpr int kLanesM = WM / TM, kLanesN = WN / TN;  // the lanes as a kLanesM x kLanesN grid
  static_assert(kLanesM * kLanesN == 32, "the warp tile is 32 thread patches");
  static_assert(kLanesM <= 8 && kLanesN <= 8, "at most 8 distinct float4 per shared load: one wavefront");

  float acc[TM][TN];
  int lane_m, lane_n;

  static_assert(LANE_MAP == 0 || (kLanesM >= 2 && kLanesN >= 2), "paired lanes need two lanes each way");

  __device__ __forceinline__ explicit WarpTileThread(int lane)
      : lane_m(LANE_MAP == 0 ? lane / kLanesN : (lane & 1) | (lane >> 2) / (kLanesN / 2) << 1),
        lane_n(LANE_MAP == 0 ? lane % kLanesN : (lane >> 1 & 1) | (lane >> 2) % (kLanesN / 2) << 1) {
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
  }

  // Piece p of the patch starts at row p * kLanesM * 4 + lane_m * 4 of the warp tile.
  __device__ __forceinline__ int row_of(int p) const { return p * kLanesM * 4 + lane_m * 4; }
  __device__ __forceinline__ int col_of(int p) const { return p * kLanesN * 4 + lane_n * 4; }

  // acc += A_tile * B_tile over BK values of k. As is A transposed (As[k * lda + m]),
  // Bs is row-major (Bs[k * ldb + n]); both already offset to the warp's corner.
  // The fragments are double-buffered by hand: k+1's are loaded from shared
  // memory while k's multiply-adds issue, so with only two warps per
  // scheduler the shared-memory latency still hides. KK_UNROLL bounds how much
  // of the k loop is unrolled: the whole of it (BK) is fastest until the loop
  // body outgrows the instruction cache.
  template <int BK, int KK_UNROLL = BK>
  __device__ __forceinline__ void multiply(const float* As, int lda, const float* Bs, int ldb) {
    static_assert(BK % 2 == 0 && KK_UNROLL % 2 == 0 && BK % KK_UNROLL == 0, "k is taken two at a time");
    float a0[TM], b0[TN], a1[TM], b1[TN];
    load_fragments(a0, b0, As, lda, Bs, ldb, 0);
#pragma unroll(KK_UNROLL / 2)
    for (int kk = 0; kk < BK; kk += 2) {
      load_fragments(a1, b1, As, lda, Bs, ldb, kk + 1);
      outer_product(a0, b0);
      if (kk + 2 < BK) load_fragments(a0, b0, As, lda, Bs, ldb, kk + 2);
      outer_product(a1, b1);
    }
  }

  __device__ __forceinline__ void load_fragments(float (&a)[TM], float (&b)[TN], const float* As, int lda,
                                                 const float* Bs, int ldb, int kk) const {
#pragma unroll
    for (int p = 0; p < TM / 4; ++p)
      *reinterpret_cast<float4*>(&a[4 * p]) = *reinterpret_cast<const float4*>(&As[kk * lda + row_of(p)]);
#pragma unroll
    for (int p = 0; p < TN / 4; ++p)
      *reinterpret_cast<float4*>(&b[4 * p]) = *reinterpret_cast<const float4*>(&Bs[kk * ldb + col_of(p)]);
  }

  // The same, but B's row kk read from `shift` (0 to 3) words past Bs + kk *
  // ldb (its rows off 16 bytes: fp32_any's kBShifted; the row itself on 16
  // bytes, with 4 floats to spare): a float4 at shift 0, two pairs at 2, else
  // (kWide) the two float4 it straddles, picked from, or a word, a pair and a
  // word (4 registers fewer a piece). A warp's loads of one row touch at most
  // 8 distinct pieces, 4 words apart: no bank conflicts. Meant for a shift
  // known at compile time (its branches fold away).
  template <bool kWide>
  __device__ __forceinline__ void load_fragments_shifted(float (&a)[TM], float (&b)[TN], const float* As, int lda,
                                                         const float* Bs, int ldb, int kk, int shift) const {
#pragma unroll
    for (int p = 0; p < TM / 4; ++p)
      *reinterpret_cast<float4*>(&a[4 * p]) = *reinterpret_cast<const float4*>(&As[kk * lda + row_of(p)]);
#pragma unroll
    for (int p = 0; p < TN / 4; ++p) {
      const float* const src = Bs + kk * ldb + col_of(p);  // on 16 bytes
      float* const dst = &b[4 * p];
      if (shift == 0) {
        *reinterpret_cast<float4*>(dst) = *reinterpret_cast<const float4*>(src);
      } else if (shift == 2) {
        *reinterpret_cast<float2*>(dst) = *reinterpret_cast<const float2*>(src + 2);
        *reinterpret_cast<float2*>(dst + 2) = *reinterpret_cast<const float2*>(src + 4);
      } else if (kWide) {
        const float4 lo = *reinterpret_cast<const float4*>(src), hi = *reinterpret_cast<const float4*>(src + 4);
        if (shift == 1) {
          dst[0] = lo.y, dst[1] = lo.z, dst[2] = lo.w, dst[3] = hi.x;
        } else {
          dst[0] = lo.w, dst[1] = hi.x, dst[2] = hi.y, dst[3] = hi.z;
        }
      } else {
        dst[0] = src[shift];
        *reinterpret_cast<float2*>(dst + 1) = *reinterpret_cast<const float2*>(src + shift + 1);
        dst[3] = src[shift + 3];
      }
    }
  }

  __device__ __forceinline__ void outer_product(const float (&a)[TM], const float (&b)[TN]) {
    if constexpr (ORDER == 1) {
#pragma unroll
      for (int j = 0; j < TN; ++j)
#pragma unroll
        for (int i = 0; i < TM; ++i) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    } else if constexpr (ORDER == 2) {
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int jj = 0; jj < TN; ++jj) {
          const int j = (i % 2) ? TN - 1 - jj : jj;  // the row's first b is the previous row's last: reused
          acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
    } else if constexpr (ORDER == 3) {
#pragma unroll
      for (int pi = 0; pi < TM; pi += 4)
#pragma unroll
        for (int pj = 0; pj < TN; pj += 4)
#pragma unroll
          for (int i = pi; i < pi + 4; ++i)
#pragma unroll
            for (int j = pj; j < pj + 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    } else {
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  }

  // Writes the patch as float4, skipping what falls outside M x N (N is a multiple of 4).
  __device__ __forceinline__ void store(float* C, int M, int N, int warp_row0, int warp_col0) const {
#pragma unroll
    for (int pm = 0; pm < TM / 4; ++pm)
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int row = warp_row0 + row_of(pm) + i;
        if (row >= M) continue;
#pragma unroll
        for (int pn = 0; pn < TN / 4; ++pn) {
          const int col = warp_col0 + col_of(pn);
          const float* v = &acc[4 * pm + i][4 * pn];
          if (col < N) *reinterpret_cast<float4*>(&C[row * N + col]) = make_float4(v[0], v[1], v[2], v[3]);
        }
      }
  }
};

}  // namespace ts::ladder
