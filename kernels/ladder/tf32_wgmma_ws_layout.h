// tf32_wgmma_ws_layout.h — where tf32-wgmma-ws (tf32_wgmma_ws.cuh) keeps its
// tiles in shared memory, which words of B each consumer thread loads into
// its wgmma fragments, and which cell of C each accumulator is. Plain
// constexpr index arithmetic, compiled by nvcc for the kernel and by g++ for
// tests/kernels/tf32_wgmma_ws_test.cpp, whose host model multiplies through
// these same functions without a GPU.
//
// The kernel computes C^T = B^T * A^T (as tf32_wgmma.cuh does): TF32 wgmma
// reads shared memory only K-major, and B (k x n, row-major) is N-major. So
// the wgmma "A" operand (64 x 8, in registers) is 64 columns of C by 8 k,
// loaded word by word from B's tile, and the wgmma "B" operand (8 x BM, read
// by the tensor cores through a matrix descriptor) is A's tile, K-major as it
// stands. D comes out as C^T: D row = column n of C, D column = row m.
#pragma once

#include <cstdint>

#include "kernels/ladder/work_schedule.h"

namespace ts::ladder::ws {

inline constexpr int kRowBytes = 128;             // one row of a TMA box: 32 floats, the 128-byte swizzle width
inline constexpr int kBoxCols = 32;               // floats per box row
inline constexpr int kBBoxBytes = 32 * kRowBytes; // a box of B: 32 rows of k x 32 columns of n

// ---- the shared-memory carve-up of one CTA ----
//
// What the hardware asks of it: a 128-byte-swizzled TMA destination and the
// start of a wgmma descriptor's swizzle pattern sit on 1024 bytes (the
// descriptor's base offset is left 0, and the swizzle XORs address bits 4-6
// with bits 7-9); an mbarrier on 8 bytes; a TMA box is at most 256 rows; one
// phase of an mbarrier counts fewer than 2^20 transaction bytes; a CTA has at
// most 227 KB. The offsets below are computed so that every tile, box and
// multicast slice starts on 1024 bytes whatever the configuration (rounded
// up, never assumed), and ws_plan_problem names what no rounding can fix; the
// kernel's configuration static_asserts that it is empty, and
// tests/kernels/tf32_wgmma_ws_layout_test.cpp re-derives every offset of every
// compiled variant.
inline constexpr int kSwizzleAlign = 1024, kBarrierAlign = 8, kMaxBoxRows = 256;
inline constexpr int kMaxSharedBytes = 227 * 1024, kMaxTxBytes = (1 << 20) - 1;
// An SM's shared memory, and what the driver keeps of it for each resident CTA.
inline constexpr int kSmSharedBytes = 228 * 1024, kReservedPerCta = 1024;

TS_WS_HD constexpr int round_up(int x, int to) { return (x + to - 1) / to * to; }

struct SharedPlan {
  int bm, bn, stages, cluster_m, cluster_n;
  int ctas_per_sm = 1;  // CTAs the configuration means to keep resident on one SM

  // A's tile (bm rows of 32 floats), then B's bn / 32 boxes of 32 x 32.
  TS_WS_HD constexpr int a_bytes() const { return bm * kRowBytes; }
  TS_WS_HD constexpr int b_boxes() const { return bn / kBoxCols; }
  TS_WS_HD constexpr int b_bytes() const { return b_boxes() * kBBoxBytes; }
  // The bytes one stage's TMA copies complete (the full barrier's expect_tx).
  TS_WS_HD constexpr int tx_bytes() const { return a_bytes() + b_bytes(); }
  // With cluster_n, each CTA loads a_slice_rows of A's rows into every CTA
  // of the cluster; with cluster_m, b_boxes_per_slice of B's boxes.
  TS_WS_HD constexpr int a_slice_rows() const { return bm / cluster_n; }
  TS_WS_HD constexpr int b_boxes_per_slice() const { return b_boxes() / cluster_m; }
  TS_WS_HD constexpr int a_slice_stride() const { return round_up(a_slice_rows() * kRowBytes, kSwizzleAlign); }
  TS_WS_HD constexpr int a_region() const { return round_up(cluster_n * a_slice_stride(), kSwizzleAlign); }
  TS_WS_HD constexpr int stage_bytes() const { return a_region() + round_up(b_bytes(), kSwizzleAlign); }
  // Offsets from the 1024-aligned base of the dynamic shared memory.
  TS_WS_HD constexpr int a_offset(int stage) const { return stage * stage_bytes(); }
  TS_WS_HD constexpr int a_slice_offset(int stage, int rank) const { return a_offset(stage) + rank * a_slice_stride(); }
  TS_WS_HD constexpr int b_offset(int stage) const { return a_offset(stage) + a_region(); }
  TS_WS_HD constexpr int b_box_offset(int stage, int box) const { return b_offset(stage) + box * kBBoxBytes; }
  TS_WS_HD constexpr int full_barrier(int stage) const {
    return round_up(stages * stage_bytes(), kBarrierAlign) + kBarrierAlign * stage;
  }
  TS_WS_HD constexpr int empty_barrier(int stage) const { return full_barrier(stages) + kBarrierAlign * stage; }
  TS_WS_HD constexpr int used_bytes() const { return empty_barrier(stages); }
  // What the launch asks for: the base is rounded up to 1024 inside it.
  TS_WS_HD constexpr int dynamic_bytes() const { return used_bytes() + kSwizzleAlign; }
};

// What makes `plan` impossible, or nullptr: the rules the offsets above
// cannot meet by rounding.
TS_WS_HD constexpr const char* ws_plan_problem(const SharedPlan& p) {
  if (p.bm <= 0 || p.bn <= 0 || p.stages < 2) return "tile sizes must be positive and the ring at least 2 stages";
  if (p.cluster_m < 1 || p.cluster_n < 1) return "cluster sizes must be at least 1";
  if (p.bn % kBoxCols != 0) return "BN must be whole 32-column boxes of B";
  if (p.bm % p.cluster_n != 0) return "A's rows must split evenly over the cluster along n";
  if (p.b_boxes() % p.cluster_m != 0) return "B's boxes must split evenly over the cluster along m";
  if (p.a_slice_rows() % 8 != 0)
    return "a multicast slice of A must be whole 8-row swizzle atoms (the descriptor reads the slices as one tile)";
  if (p.a_region() != p.a_bytes())
    return "the slices of A must lie back to back: the descriptor reads A's tile as one (SBO 1024 bytes)";
  if (p.a_slice_rows() > kMaxBoxRows) return "a TMA box of A has more than 256 rows";
  if (p.tx_bytes() > kMaxTxBytes) return "one stage completes more transaction bytes than an mbarrier phase counts";
  if (p.dynamic_bytes() > kMaxSharedBytes) return "the ring and its barriers need more than the 227 KB a CTA may have";
  if (p.ctas_per_sm * (p.dynamic_bytes() + kReservedPerCta) > kSmSharedBytes)
    return "the CTAs meant to share an SM need more than its 228 KB of shared memory";
  return nullptr;
}

// Byte offset of element (row, col) of a box of 128-byte rows that TMA wrote
// with CU_TENSOR_MAP_SWIZZLE_128B to shared memory aligned to 1024 bytes:
// 16-byte chunk c of row r lands at chunk c ^ (r % 8). This is the layout the
// wgmma descriptor's 128-byte swizzle mode (and tf32_wgmma.cuh) reads.
TS_WS_HD constexpr std::uint32_t swizzled_offset(int row, int col) {
  return std::uint32_t(row * kRowBytes + (((col >> 2) ^ (row & 7)) << 4) + (col & 3) * 4);
}

// The column (0..63) of a consumer's 64-column group of C that row `row`
// (0..63) of the wgmma A operand stands for. Any one-to-one map will do (the
// epilogue uses the same one); this one makes every fragment load below free
// of bank conflicts: in one load the 32 lanes (g = lane / 4, q = lane % 4)
// read k = q (+4) and n = 16 (g / 4) + (g % 4) (+ a warp constant), so the
// swizzled chunk ((n / 4) ^ k) takes 8 values and n % 4 four: 32 banks.
//   row = 16 w + 8 h + g  ->  n = 32 (w / 2) + 16 (g / 4) + 8 (w % 2) + 4 h + g % 4
TS_WS_HD constexpr int n_of_row(int row) {
  const int w = row >> 4, h = (row >> 3) & 1, g = row & 7;
  return 32 * (w >> 1) + 16 * (g >> 2) + 8 * (w & 1) + 4 * h + (g & 3);
}

// The wgmma m64n*k8 TF32 A fragment (PTX ISA, "Register fragments and shared
// memory matrix layouts" for wgmma .tf32): register r of lane l in warp w of
// the warpgroup holds row 16 w + l / 4 + 8 (r % 2), k = l % 4 + 4 (r / 2).
TS_WS_HD constexpr int frag_row(int warp, int lane, int reg) { return 16 * warp + (lane >> 2) + 8 * (reg & 1); }
TS_WS_HD constexpr int frag_k(int lane, int reg) { return (lane & 3) + 4 * (reg >> 1); }

// Byte offset, from the start of a stage's B tile (BN / 32 boxes of 32 x 32),
// of the word register `reg` of k-slice `slice` (k = 8 slice .. 8 slice + 7)
// holds for this thread's 64-column group `group` (0 .. BN / 64 - 1).
TS_WS_HD constexpr std::uint32_t b_fragment_offset(int group, int warp, int lane, int reg, int slice) {
  const int n = 64 * group + n_of_row(frag_row(warp, lane, reg));
  const int k = 8 * slice + frag_k(lane, reg);
  return std::uint32_t((n / kBoxCols) * kBBoxBytes + swizzled_offset(k, n % kBoxCols));
}

// The wgmma accumulator layout (f32 D of m64nN): accumulator i of lane l in
// warp w holds D row 16 w + l / 4 + 8 ((i / 2) % 2), D column
// 8 (i / 4) + 2 (l % 4) + i % 2. As cells of C's block tile:
TS_WS_HD constexpr int acc_m(int lane, int i) { return 8 * (i >> 2) + 2 * (lane & 3) + (i & 1); }
TS_WS_HD constexpr int acc_n(int group, int warp, int lane, int i) {
  return 64 * group + n_of_row(16 * warp + (lane >> 2) + 8 * ((i >> 1) & 1));
}

}  // namespace ts::ladder::ws
