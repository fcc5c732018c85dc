// double_buffer.cuh — ladder rung 5, the kernel template: warptiling (rung 4)
// fed by a multi-stage cp.async pipeline, with as few instructions as possible
// beside the multiply-adds (on Hopper each FFMA takes a whole issue slot of its
// scheduler, so every other instruction costs one). A is stored transposed
// (one 4-byte cp.async per element) so the warp tile reads it as float4; B is
// copied 16 bytes at a time. Blocks are ordered in groups of GROUP_M block
// rows for L2 reuse. Needs K and N multiples of 4 (16-byte rows); any M.
//  - copies: each thread's sources are pointers that advance one k-tile per
//    tile issued, with no bounds test in the loop. Rows of A past M and
//    columns of B past N are clamped to the last valid one instead of
//    zero-filled: they only reach cells of C that are never stored. Only a
//    k-tile that runs past K takes a slower path that zero-fills.
//  - one barrier per k-tile, before its last k, so the next tile's first
//    fragments are read from shared memory while the last k's multiply-adds
//    issue (no bubble at the tile boundary).
//  - SPREAD = G > 0: STAGES - 1 tiles in flight; the stage freed at the
//    previous barrier is refilled G copies at a time every few k between the
//    multiply-adds, so the copy queue never fills and nothing waits for a
//    copy to read its address registers. (ptxas puts three dummy shared
//    loads before each run of cp.async on sm_90: runs of one copy would cost
//    three loads each.) SPREAD = 0: all STAGES stages hold tiles in flight,
//    and the stage just read is refilled right after the barrier, all its
//    copies at once (run 6 of docs/ladder-notes.md; 4-7% slower).
//
// The configuration that ships is chosen in double_buffer.cu by measurement;
// the template stays open for the tuning program.
#pragma once

#include <type_traits>

#include "kernels/ladder/ladder_device.cuh"
#include "kernels/ladder/warp_tile.cuh"

namespace ts::ladder {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int STAGES_, int GROUP_M_, int ORDER_ = 0,
          int LANE_MAP_ = 0, int SPREAD_ = 0>
struct DoubleBufferConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int STAGES = STAGES_, GROUP_M = GROUP_M_, ORDER = ORDER_, LANE_MAP = LANE_MAP_, SPREAD = SPREAD_;
  static constexpr int kWarpsN = BN / WN, kThreads = 32 * (BM / WM) * kWarpsN;
  // A's rows padded by 4 words: a warp's transposed 4-byte copies (8 k x 4 rows) land in 32 banks.
  static constexpr int kLda = BM + 4;
  static constexpr int kAFloats = BK * kLda, kStageFloats = kAFloats + BK * BN;
  static constexpr int kSharedBytes = STAGES * kStageFloats * 4;
  // Copies: A as runs of 8 k of kARows rows per pass, B as float4 over kBRows k per pass.
  static constexpr int kARows = kThreads / 8, kAPasses = BM / kARows, kAHalves = BK / 8;
  static constexpr int kBChunks = BN / 4, kBRows = kThreads / kBChunks, kBPasses = BK / kBRows;
  static constexpr int kACopies = kAHalves * kAPasses, kCopies = kACopies + kBPasses;
  static constexpr int kCopyRuns = SPREAD ? (kCopies + SPREAD - 1) / SPREAD : 0;
  static_assert(BM % WM == 0 && BN % WN == 0, "warps tile the block");
  static_assert(BK % 8 == 0 && BM % kARows == 0, "threads copy whole runs of 8 k of A");
  static_assert(kThreads % kBChunks == 0 && BK % kBRows == 0, "threads copy whole rows of B");
  static_assert(STAGES >= 2 + (SPREAD > 0), "spread copies land one k-tile later: at least 3 stages");
  static_assert(kCopyRuns <= BK - 1, "one run of copies per k at most");
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    double_buffer(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, kLda = Cfg::kLda, S = Cfg::STAGES;
  constexpr int kStageBytes = Cfg::kStageFloats * 4;
  extern __shared__ __align__(16) float shared[];
  int block_row, block_col;
  swizzled_block<Cfg::GROUP_M>(ceil_div(M, BM), ceil_div(N, BN), block_row, block_col);
  const int row0 = block_row * BM, col0 = block_col * BN;
  const int t = threadIdx.x;
  const int warp = t / 32, warp_m = warp / Cfg::kWarpsN, warp_n = warp % Cfg::kWarpsN;

  // This thread copies A rows ar + p * kARows at k ac + 8 h, and B's float4 at
  // k br + q * kBRows, column bc. Clamped rows and columns stay in bounds. The
  // pointers advance one k-tile for every tile issued.
  const int ar = t / 8, ac = t % 8;
  const int br = t / Cfg::kBChunks, bc = t % Cfg::kBChunks * 4;
  const float* a_src[Cfg::kAPasses];
#pragma unroll
  for (int p = 0; p < Cfg::kAPasses; ++p) a_src[p] = A + min(row0 + ar + p * Cfg::kARows, M - 1) * K + ac;
  const float* b_src[Cfg::kBPasses];
#pragma unroll
  for (int q = 0; q < Cfg::kBPasses; ++q) b_src[q] = B + (br + q * Cfg::kBRows) * N + min(col0 + bc, N - 4);
  const std::uint32_t a_dst = shared_address(shared + ac * kLda + ar);
  const std::uint32_t b_dst = shared_address(shared + Cfg::kAFloats + br * BN + bc);
  int k_next = 0;  // the k where the next tile issued starts
  const auto advance = [&] {
    k_next += BK;
#pragma unroll
    for (int p = 0; p < Cfg::kAPasses; ++p) a_src[p] += BK;
#pragma unroll
    for (int q = 0; q < Cfg::kBPasses; ++q) b_src[q] += BK * N;
  };
  // Copy c of the next tile into the stage at a_sh / b_sh (no bounds test).
  const auto copy = [&](int c, std::uint32_t a_sh, std::uint32_t b_sh) {
    if (c < Cfg::kACopies) {
      const int h = c / Cfg::kAPasses, p = c % Cfg::kAPasses;
      cp_async_4(a_sh + (8 * h * kLda + p * Cfg::kARows) * 4, a_src[p] + 8 * h);
    } else {
      const int q = c - Cfg::kACopies;
      cp_async_16(b_sh + q * Cfg::kBRows * BN * 4, b_src[q]);
    }
  };
  // The next tile, all its copies, into `stage`; past K zero-filled, nothing issued wholly past K.
  const auto load_tile = [&](int stage) {
    const std::uint32_t a_sh = a_dst + stage * kStageBytes, b_sh = b_dst + stage * kStageBytes;
    if (k_next + BK <= K) {
#pragma unroll
      for (int c = 0; c < Cfg::kCopies; ++c) copy(c, a_sh, b_sh);
    } else if (k_next < K) {
#pragma unroll
      for (int h = 0; h < Cfg::kAHalves; ++h) {
        const bool in = k_next + ac + 8 * h < K;
#pragma unroll
        for (int p = 0; p < Cfg::kAPasses; ++p)
          cp_async_4(shared + (ac + 8 * h) * kLda + ar + p * Cfg::kARows + stage * Cfg::kStageFloats,
                     in ? a_src[p] + 8 * h : A, in);
      }
#pragma unroll
      for (int q = 0; q < Cfg::kBPasses; ++q) {
        const bool in = k_next + br + q * Cfg::kBRows < K;
        cp_async_16(shared + Cfg::kAFloats + (br + q * Cfg::kBRows) * BN + bc + stage * Cfg::kStageFloats,
                    in ? b_src[q] : B, in);
      }
    }
    advance();
  };

  WarpTileThread<Cfg::WM, Cfg::WN, Cfg::TM, Cfg::TN, Cfg::ORDER, Cfg::LANE_MAP> patch(t % 32);
  const float* const as_warp = shared + warp_m * Cfg::WM;
  const float* const bs_warp = shared + Cfg::kAFloats + warp_n * Cfg::WN;
  float a[2][Cfg::TM], b[2][Cfg::TN];
  const int tiles = ceil_div(K, BK);
  constexpr int kInFlight = S - (Cfg::SPREAD > 0);  // tiles issued ahead of the one computed

#pragma unroll
  for (int s = 0; s < kInFlight; ++s) {
    load_tile(s);
    cp_async_commit();  // an empty group where there are fewer tiles: the waits count groups
  }
  cp_async_wait<kInFlight - 1>();
  __syncthreads();
  patch.load_fragments(a[0], b[0], as_warp, kLda, bs_warp, BN, 0);
  int stage = 0;

  // One k-tile from `stage`. SPREAD_COPIES: the whole next tile is in bounds,
  // its copies go between the multiply-adds into the stage freed at the last barrier.
  const auto compute_tile = [&](auto spread_copies) {
    constexpr bool kSpread = decltype(spread_copies)::value;
    const float* as = as_warp + stage * Cfg::kStageFloats;
    const float* bs = bs_warp + stage * Cfg::kStageFloats;
    const int fill = stage == 0 ? S - 1 : stage - 1;
    const std::uint32_t a_sh = a_dst + fill * kStageBytes, b_sh = b_dst + fill * kStageBytes;
    if constexpr (Cfg::SPREAD > 0 && !kSpread) load_tile(fill);
#pragma unroll
    for (int kk = 0; kk < BK - 1; ++kk) {
      patch.load_fragments(a[(kk + 1) % 2], b[(kk + 1) % 2], as, kLda, bs, BN, kk + 1);
      if constexpr (kSpread) {
#pragma unroll
        for (int c = 0; c < Cfg::kCopies; ++c)
          if (c / Cfg::SPREAD * (BK - 1) / Cfg::kCopyRuns == kk) copy(c, a_sh, b_sh);
      }
      patch.outer_product(a[kk % 2], b[kk % 2]);
    }
    if constexpr (kSpread) advance();
    if constexpr (Cfg::SPREAD > 0) cp_async_commit();
    // The next tile has landed for everyone, and everyone has read this stage.
    cp_async_wait<S - 2>();
    __syncthreads();
    if constexpr (Cfg::SPREAD == 0) {
      load_tile(stage);  // refill what was just read
      cp_async_commit();
    }
    stage = stage + 1 == S ? 0 : stage + 1;
    // The next tile's first fragments (past the last tile: a stale stage, read and unused).
    patch.load_fragments(a[BK % 2], b[BK % 2], as_warp + stage * Cfg::kStageFloats, kLda,
                         bs_warp + stage * Cfg::kStageFloats, BN, 0);
    patch.outer_product(a[(BK - 1) % 2], b[(BK - 1) % 2]);
  };

  int tile = 0;
  if constexpr (Cfg::SPREAD > 0) {
    // Tile t + S - 1 is issued while t is computed: spread while it is a whole tile.
    const int spread_tiles = min(tiles, K / BK - (S - 1));
    for (; tile < spread_tiles; ++tile) compute_tile(std::true_type{});
  }
  for (; tile < tiles; ++tile) compute_tile(std::false_type{});
  cp_async_wait<0>();  // no copy may outlive the block
  patch.store(C, M, N, row0 + warp_m * Cfg::WM, col0 + warp_n * Cfg::WN);
}

template <class Cfg>
void launch_double_buffer_config(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const int blocks = ceil_div(m, Cfg::BM) * ceil_div(n, Cfg::BN);
  launch_checked(double_buffer<Cfg>, dim3(blocks), Cfg::kThreads, Cfg::kSharedBytes, stream, a, b, c, m, n, k);
}

}  // namespace ts::ladder
