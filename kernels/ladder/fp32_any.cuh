// fp32_any.cuh — the FP32 kernel template behind `fp32-best`: the double-buffer
// rung's warptiled cp.async pipeline (copies spread between the multiply-adds,
// docs/ladder-notes.md runs 6-8) made to take any shape and any split of k.
//  - any M, N, K, with row strides of their own (lda, ldb, ldc): A is copied
//    one word at a time (stored transposed), so its rows need no alignment
//    (but rows that start on 32-byte sectors cost half the sectors). B is
//    copied as float4 where its rows are on 16 bytes (ldb a multiple of 4, B
//    16-byte aligned, kBFloat4); else one word at a time (kBWords: each warp
//    copies 32 consecutive words of a row, 128 bytes), into the same shared
//    layout, or (kBShifted, B 16-byte aligned) as the aligned float4 around
//    each row, one more a row, into rows of BN + 4 in shared memory, each
//    k's fragments then read from the 0 to 3 words its row starts past 16
//    bytes. The host picks per tile (fp32_best.cu).
//    C is stored as float4 from the registers where its rows are on 16
//    bytes; else per row as wide as its address allows (store_patch), or
//    through shared memory, each row shifted to its own offset so that it
//    still goes out as aligned float4 (store_staged), as the host picks.
//    Rows and columns past the edge are clamped to the last valid one (they
//    reach only cells of C that are never stored); only the last k-tile, if
//    partial, zero-fills.
//  - one fully unrolled loop body (the k-tiles whose successor is whole, with
//    copies spread), and a small two-k loop for the last STAGES - 1 tiles.
//  - split-K: block z of the grid sums k in [z * k_chunk, (z + 1) * k_chunk)
//    and adds its tile into C with atomics (C zeroed before the launch), so a
//    grid too small to fill the SMs can be multiplied by the number of splits.
//  - stream-k (Fp32StreamK): a persistent grid shares the tiles of the last
//    rounds out by k-tile, so that every block ends at about the same time
//    where the tiles do not fill whole rounds of the SMs; or, the tail split,
//    cuts only the tiles of the last round, each into the same pieces of k.
// The configurations that ship and the rule that picks one per shape are in
// fp32_best.cu.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/ladder/ladder_device.cuh"
#include "kernels/ladder/warp_tile.cuh"
#include "kernels/ladder/work_schedule.h"

namespace ts::ladder {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int STAGES_, int GROUP_M_, int SPREAD_,
          int MIN_BLOCKS_>
struct Fp32AnyConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int STAGES = STAGES_, GROUP_M = GROUP_M_, SPREAD = SPREAD_, MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr int kThreads = 32 * (BM / WM) * (BN / WN);
  static constexpr int kLda = BM + 4;  // padded: a warp's transposed copies (8 k x 4 rows) hit 32 banks
  static constexpr int kAFloats = BK * kLda, kStageFloats = kAFloats + BK * BN;
  static constexpr int kSharedBytes = STAGES * kStageFloats * 4;
  // [Fp32BCopy]: a row of B in shared memory, a stage and the stages' bytes.
  static constexpr int kBPitch[3] = {BN, BN, BN + 4};
  static constexpr int kStageFloatsOf[3] = {kStageFloats, kStageFloats, kAFloats + BK * (BN + 4)};
  static constexpr int kSharedBytesOf[3] = {kSharedBytes, kSharedBytes, STAGES * kStageFloatsOf[2] * 4};
  // A: runs of 8 k of kARows rows per pass. B: float4 over kBRows k per pass
  // (kBShifted: and thread t < BK the last float4 of row t), or (kBWords)
  // words over kBWordRows k per pass, a warp's 32 words in one row.
  static constexpr int kARows = kThreads / 8, kAPasses = BM / kARows, kAHalves = BK / 8;
  static constexpr int kBChunks = BN / 4, kBRows = kThreads / kBChunks, kBPasses = BK / kBRows;
  static constexpr int kBWordRows = kThreads / BN, kBWordPasses = BK / kBWordRows;
  static constexpr int kACopies = kAHalves * kAPasses;
  // A thread's copies of one k-tile, and the runs of SPREAD they are issued in: [Fp32BCopy].
  static constexpr int kCopies[3] = {kACopies + kBPasses, kACopies + kBWordPasses, kACopies + kBPasses + 1};
  static constexpr int kCopyRuns[3] = {(kCopies[0] + SPREAD - 1) / SPREAD, (kCopies[1] + SPREAD - 1) / SPREAD,
                                       (kCopies[2] + SPREAD - 1) / SPREAD};
  static_assert(BM % WM == 0 && BN % WN == 0, "warps tile the block");
  static_assert(BK % 8 == 0 && BM % kARows == 0, "threads copy whole runs of 8 k of A");
  static_assert(kThreads % kBChunks == 0 && BK % kBRows == 0, "threads copy whole rows of B");
  static_assert(BN % 32 == 0 && kThreads % BN == 0 && BK % kBWordRows == 0, "warps copy whole rows of B in words");
  static_assert(kThreads >= BK, "a thread a row for the last float4 of each row of B, shifted");
  static_assert(STAGES >= 3 && SPREAD > 0, "spread copies land one k-tile later: at least 3 stages");
  static_assert(kCopyRuns[0] <= BK - 1 && kCopyRuns[1] <= BK - 1 && kCopyRuns[2] <= BK - 1,
                "one run of copies per k at most");
};

// How a block stores its tile of C (fp32_any's c_store): float4 straight from
// the registers (C's rows all on 16 bytes), per row as wide as its address
// allows (store_patch), or through shared memory as aligned float4
// (store_staged).
enum Fp32CStore { kStoreVec = 0, kStoreRows = 1, kStoreStaged = 2 };

// dst[0, W) = v[0, W), or (add) += atomically, as one access of W words (dst aligned to W words).
template <int W>
__device__ __forceinline__ void put_words(float* dst, const float* v, bool add) {
  if constexpr (W == 4) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (add) atomicAdd(reinterpret_cast<float4*>(dst), make_float4(v[0], v[1], v[2], v[3]));
#else
    if (add)
      for (int j = 0; j < 4; ++j) atomicAdd(dst + j, v[j]);
#endif
    else *reinterpret_cast<float4*>(dst) = make_float4(v[0], v[1], v[2], v[3]);
  } else if constexpr (W == 2) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (add) atomicAdd(reinterpret_cast<float2*>(dst), make_float2(v[0], v[1]));
#else
    if (add)
      for (int j = 0; j < 2; ++j) atomicAdd(dst + j, v[j]);
#endif
    else *reinterpret_cast<float2*>(dst) = make_float2(v[0], v[1]);
  } else {
    static_assert(W == 1, "float4, float2 or a word");
    if (add) atomicAdd(dst, v[0]);
    else *dst = v[0];
  }
}

// Writes (or, for a split of k, atomically adds) one thread's patch of C,
// skipping what falls outside M x N. Every piece of a row starts on a
// multiple of 4 columns, so the row's address decides how wide each piece
// goes, a split's atomic adds alike: float4 on 16 bytes, pairs on 8 (also a
// piece that N's edge cuts), else words. (Not a word, a pair at word 1 and a
// word: that pair's registers cannot also be a float4's, and ptxas gave the
// 128x256 kernels 38-41 more registers for it, and two word kernels spills.)
// kVec (from the host: N and ldc multiples of 4, C 16-byte aligned): every
// piece float4, no test of the row's address. The per-row choice, run for
// these too, cost 0.2 to 1.4 points of cuBLAS at six aligned shapes
// (fp32_tune, H200); the kernel calls one instantiation or the other, so
// the float4 kernels' SASS is what it was up to the stores.
template <bool kVec, class Patch>
__device__ __forceinline__ void store_patch(const Patch& patch, float* C, int ldc, int M, int N, int row0, int col0,
                                            bool add) {
  constexpr int kTM = sizeof(patch.acc) / sizeof(patch.acc[0]), kTN = sizeof(patch.acc[0]) / sizeof(float);
#pragma unroll
  for (int pm = 0; pm < kTM / 4; ++pm)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int row = row0 + patch.row_of(pm) + i;
      if (row >= M) continue;
      float* const c_row = C + row * ldc;
      const unsigned offset = reinterpret_cast<std::uintptr_t>(c_row) % 16;  // 0, 4, 8 or 12 bytes
#pragma unroll
      for (int pn = 0; pn < kTN / 4; ++pn) {
        const int col = col0 + patch.col_of(pn), left = N - col;  // the piece's columns inside N: 4 or fewer
        if (left <= 0) continue;
        const float* v = &patch.acc[4 * pm + i][4 * pn];
        float* dst = c_row + col;
        if (kVec || (offset == 0 && left >= 4)) {
          put_words<4>(dst, v, add);
        } else if (offset % 8 == 0) {  // pairs at 0 and 2
          if (left >= 2) put_words<2>(dst, v, add);
          else put_words<1>(dst, v, add);
          if (left >= 4) put_words<2>(dst + 2, v + 2, add);
          else if (left == 3) put_words<1>(dst + 2, v + 2, add);
        } else {
#pragma unroll
          for (int j = 0; j < 4; ++j)
            if (j < left) put_words<1>(dst + j, v + j, add);
        }
      }
    }
}

// C's rows off 16 bytes, the other way: the block's tile of C goes through
// shared memory (its pipeline's stages, free once the last k-tile is read),
// each row shifted there by its own offset from 16 bytes in C, so that the
// block then writes every row as float4 aligned in C (a split's adds as
// float4 atomics), words only at a row's two ends and N's edge. It costs two
// barriers and a pass through shared memory; the host picks it per launch
// (kStoreStaged, fp32_best.cu) where it measured ahead of store_patch.
// Rows go through in passes of as many as the shared memory holds (all of
// them but on the 128x256 tile over k-tiles of 16: two passes). Called by
// every thread of the block, after the last copy has landed and the last
// fragments are read. (The compiler merges each plain float4 here with the
// fallback of words into four word stores; written as single PTX stores
// they ran no faster. What the pass costs is its instructions: 15.4 M
// executed after the main loop at 4973x6450x151, against 3.4 M for float4
// from the registers at 4973x6452x151; run 43, H200.)
template <class Cfg, class Patch>
__device__ __forceinline__ void store_staged(const Patch& patch, float* stage, float* C, int ldc, int M, int N,
                                             int row0, int col0, int warp_row, int warp_col, bool add) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN;
  constexpr int kPitch = BN + 4;  // a row and the up to 3 words it is shifted by; float4 reads stay aligned
  constexpr int kRows = Cfg::kSharedBytes / (kPitch * 4) < BM ? Cfg::kSharedBytes / (kPitch * 4) : BM;
  constexpr int kChunks = BN / 4 + 1;  // a row's aligned float4 in C: one more than BN / 4 where it is shifted
  static_assert(kRows > 0, "a row of C's tile fits the stages");
  constexpr int kTM = sizeof(patch.acc) / sizeof(patch.acc[0]), kTN = sizeof(patch.acc[0]) / sizeof(float);
  // Row r of the block's tile: words its first column lies past 16 bytes in C.
  const auto shift = [&](int r) {
    return int(reinterpret_cast<std::uintptr_t>(C + std::size_t(row0 + r) * ldc + col0) % 16 / 4);
  };
#pragma unroll 1
  for (int r_lo = 0; r_lo < BM; r_lo += kRows) {
    __syncthreads();  // the stages' last readers (or the previous pass's) are done
#pragma unroll
    for (int pm = 0; pm < kTM / 4; ++pm)
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int r = warp_row + patch.row_of(pm) + i;
        if (r < r_lo || r >= r_lo + kRows || row0 + r >= M) continue;
        float* const dst = stage + (r - r_lo) * kPitch + shift(r) + warp_col;
#pragma unroll
        for (int pn = 0; pn < kTN / 4; ++pn)
#pragma unroll
          for (int j = 0; j < 4; ++j) dst[patch.col_of(pn) + j] = patch.acc[4 * pm + i][4 * pn + j];
      }
    __syncthreads();
    const int rows = min(kRows, min(BM - r_lo, M - row0 - r_lo));
#pragma unroll 1
    for (int idx = threadIdx.x; idx < rows * kChunks; idx += Cfg::kThreads) {
      const int rr = idx / kChunks, chunk = idx % kChunks, r = r_lo + rr;
      const int first = 4 * chunk - shift(r);  // the chunk's first column in the tile (-3 to BN)
      float v[4];
      *reinterpret_cast<float4*>(v) = *reinterpret_cast<const float4*>(stage + rr * kPitch + 4 * chunk);
      float* const dst = C + std::size_t(row0 + r) * ldc + col0 + first;
      const int end = min(BN, N - col0);  // the tile's columns inside N
      if (first >= 0 && first + 4 <= end) {
        put_words<4>(dst, v, add);
      } else {
#pragma unroll
        for (int q = 0; q < 4; ++q)
          if (first + q >= 0 && first + q < end) put_words<1>(dst + q, v + q, add);
      }
    }
  }
}

// Stream-k and the tail split (kStreamK): the grid is persistent (no more
// blocks than are resident at once, gridDim.x the schedule's clusters),
// block b walking its pieces of `schedule` (ws::PieceWalk): stream-k's run
// of k-tiles over the first sk_units tiles of C, then whole tiles; or the
// tail split's whole tiles, then one piece of a tile of the last round.
// Where a tile is cut, the piece that ends at the tile's last k-tile (its
// block's first piece under stream-k, so done first; under the tail split
// one of the pieces that run at once) stores its sums and raises the tile's
// flag; the other pieces wait for the flag and add theirs atomically. No
// zeroed C, and no piece waits for a block that waits. Without kStreamK: a
// block a tile (blockIdx.x), k split by blockIdx.z into k_chunk (its pieces
// added into a zeroed C).
struct Fp32StreamK {
  ws::WorkSchedule schedule;  // units: tiles of C; k_tiles: of BK a tile
  unsigned* flags = nullptr;  // a flag per tile (EpochFlags)
  unsigned epoch = 0;
};

// How fp32_any copies B: float4 (its rows on 16 bytes), or where they are
// not, words or shifted float4 (below).
enum Fp32BCopy { kBFloat4 = 0, kBWords = 1, kBShifted = 2 };

// kBWords: B's rows are off 16 bytes (ldb not a multiple of 4, or B not
// 16-byte aligned), so B is copied one word at a time; ldb may be any >= N.
// Word copies (4-byte cp.async, through L1) cost the kernel: forced on
// aligned shapes (fp32_tune, H200) ~3 points of cuBLAS on the 128x256 tiles
// and ~13 on 64x128 and 128x64; the 32x128 tile unsplit took 2.6 times as
// long at 158x1438x5376 as at 160x1440x5376 (run 39).
// kBShifted: B's rows are off 16 bytes (ldb not a multiple of 4; any ldb >=
// N), B itself on 16, so row r of a k-tile is copied as the aligned float4
// from its start rounded down to 16 bytes, shift(r) = 0 to 3 words early,
// and read back from shift(r) on: its copies are float4 as on aligned
// shapes, and the fragment loads of the rows off 16 bytes cost more (which
// tiles of larger patches a thread bear better). k-tiles start at multiples
// of BK (a multiple of 4), so shift(r) = r * ldb mod 4 whatever the tile,
// and the kernel is built for each ldb mod 4 (kLdb4): where k is known at
// compile time (the unrolled loop) so is its row's shift, and its load is a
// float4, two pairs, or two float4 picked from (run 39: 1 to 6% faster than
// with the shift known at run time and loads of pairs or words). A thread's
// float4 that would start past column N - 1 copies the row's last one again
// (columns past N are never stored); the tiles that hold any of B's last 3
// rows go the checked way, where a float4 that would pass B's end is copied
// word by word.
template <class Cfg, int kBMode, bool kStreamK, int kLdb4 = 0>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::MIN_BLOCKS)
    fp32_any(const float* __restrict__ A, int lda, const float* __restrict__ B, int ldb, float* __restrict__ C, int ldc,
             int M, int N, int K, int k_chunk, int c_store, Fp32StreamK sk) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, kLda = Cfg::kLda, S = Cfg::STAGES;
  constexpr bool kWords = kBMode == kBWords, kShifted = kBMode == kBShifted;
  static_assert(kShifted == (kLdb4 >= 1 && kLdb4 <= 3), "shifted: built for ldb % 4 of 1, 2 or 3");
  constexpr int kStageFloats = Cfg::kStageFloatsOf[kBMode], kStageBytes = kStageFloats * 4;
  constexpr int kBPitch = Cfg::kBPitch[kBMode];
  constexpr int kCopies = Cfg::kCopies[kBMode], kCopyRuns = Cfg::kCopyRuns[kBMode];
  // B's copies a thread issues per k-tile (kShifted: the last, row t's last float4), the k between two of them,
  // and its source pointers (one for words).
  constexpr int kBPasses = kWords ? Cfg::kBWordPasses : Cfg::kBPasses, kBCopies = kBPasses + (kShifted ? 1 : 0);
  constexpr int kBRows = kWords ? Cfg::kBWordRows : Cfg::kBRows, kBPointers = kWords ? 1 : kBCopies;
  extern __shared__ __align__(16) float shared[];
  const int tiles_m = ceil_div(M, BM), tiles_n = ceil_div(N, BN);
  const int t = threadIdx.x, warp = t / 32;
  const int warp_m = warp / (BN / Cfg::WN), warp_n = warp % (BN / Cfg::WN);
  // kShifted: the words row r of a k-tile starts past 16 bytes (by r % 4), and B's end.
  constexpr int kShift1 = kLdb4, kShift2 = 2 * kLdb4 & 3, kShift3 = 3 * kLdb4 & 3;
  const auto shift = [](int r) { return r % 4 == 0 ? 0 : r % 4 == 1 ? kShift1 : r % 4 == 2 ? kShift2 : kShift3; };
  const float* const b_end = B + std::size_t(K - 1) * ldb + N;

  // One piece of work: the tile of C at (block_row, block_col), stream-k's
  // `unit` (its flag), its k from k0, klen long (> 0); its sums stored into
  // C, or (add) added atomically once (wait) the tile's flag is raised;
  // (raise) the flag raised once they are stored.
  const auto run = [&](int unit, int block_row, int block_col, int k0, int klen, bool add, bool wait, bool raise) {
    const int row0 = block_row * BM, col0 = block_col * BN;

    // This thread copies A rows ar + p * kARows at k ac + 8 h, and B's chunk
    // (or word) at k br + q * kBRows (q = kBPasses: kShifted's last chunk of
    // row t), column bc; its source pointers advance one k-tile per tile
    // issued. Words: q's row is kBRows * ldb past b_src[0].
    const int ar = t / 8, ac = t % 8;
    const int br = kWords ? t / BN : t / Cfg::kBChunks, bc = kWords ? t % BN : t % Cfg::kBChunks * 4;
    const float* a_src[Cfg::kAPasses];
#pragma unroll
    for (int p = 0; p < Cfg::kAPasses; ++p) a_src[p] = A + min(row0 + ar + p * Cfg::kARows, M - 1) * lda + k0 + ac;
    const float* b_src[kBPointers];
    if constexpr (kWords) {
      b_src[0] = B + (k0 + br) * ldb + min(col0 + bc, N - 1);
    } else {
#pragma unroll
      for (int q = 0; q < kBCopies; ++q) {
        const int r = q < kBPasses ? br + q * kBRows : t;  // the row in the tile
        if constexpr (kShifted) {
          // The row's float4 from its start rounded down; none past the one that holds column N - 1.
          const int col = q < kBPasses ? col0 + bc : col0 + BN;
          b_src[q] = B + (k0 + r) * ldb - shift(r) + min(col, (N - 1 + shift(r)) / 4 * 4);
        } else {
          b_src[q] = B + (k0 + r) * ldb + min(col0 + bc, ldb - 4);
        }
      }
    }
    const auto b_source = [&](int q) {
      if constexpr (kWords) return b_src[0] + q * kBRows * ldb;
      else return b_src[q];
    };
    const std::uint32_t a_dst = shared_address(shared + ac * kLda + ar);
    // Where B's copy q of this thread lands in stage 0, and (kShifted) the last float4 of row t.
    const auto b_offset = [&](int q) { return q < kBPasses ? (br + q * kBRows) * kBPitch + bc : t * kBPitch + BN; };
    const std::uint32_t b_dst = shared_address(shared + Cfg::kAFloats + br * kBPitch + bc);
    const int b_last = kShifted ? ((t - br) * kBPitch + BN - bc) * 4 : 0;  // bytes past b_dst
    int k_next = 0;  // the k (within the split) where the next tile issued starts
    // The k the tiles copied whole end at: shifted, a row's last float4 reads
    // at most 3 words past its column N - 1, so the tiles that hold any of
    // B's last 3 rows go the checked way (whatever ldb, down to 1).
    const int whole_len = kShifted ? min(klen, K - 3 - k0) : klen;
    const auto advance = [&] {
      k_next += BK;
#pragma unroll
      for (int p = 0; p < Cfg::kAPasses; ++p) a_src[p] += BK;
#pragma unroll
      for (int q = 0; q < kBPointers; ++q) b_src[q] += BK * ldb;
    };

    // Copy c of a whole tile into the stage at a_sh / b_sh (no bounds test).
    const auto copy = [&](int c, std::uint32_t a_sh, std::uint32_t b_sh) {
      if (c < Cfg::kACopies) {
        const int h = c / Cfg::kAPasses, p = c % Cfg::kAPasses;
        cp_async_4(a_sh + (8 * h * kLda + p * Cfg::kARows) * 4, a_src[p] + 8 * h);
      } else {
        const int q = c - Cfg::kACopies;
        if constexpr (kWords) cp_async_4(b_sh + q * kBRows * BN * 4, b_source(q));
        else if (q < kBPasses) cp_async_16(b_sh + q * kBRows * kBPitch * 4, b_src[q]);
        else if (t < BK) cp_async_16(b_sh + b_last, b_src[q]);
      }
    };
    // The next tile into `stage`: whole, or zero-filled past the split's k, or nothing wholly past it.
    const auto load_tile = [&](int stage) {
      const std::uint32_t a_sh = a_dst + stage * kStageBytes, b_sh = b_dst + stage * kStageBytes;
      if (k_next + BK <= whole_len) {
#pragma unroll
        for (int c = 0; c < kCopies; ++c) copy(c, a_sh, b_sh);
      } else if (k_next < klen) {
        float* const base = shared + stage * kStageFloats;
#pragma unroll
        for (int h = 0; h < Cfg::kAHalves; ++h) {
          const bool in = k_next + ac + 8 * h < klen;
#pragma unroll
          for (int p = 0; p < Cfg::kAPasses; ++p)
            cp_async_4(base + (ac + 8 * h) * kLda + ar + p * Cfg::kARows, in ? a_src[p] + 8 * h : A, in);
        }
#pragma unroll
        for (int q = 0; q < kBCopies; ++q) {
          if (q == kBPasses && t >= BK) continue;
          const bool in = k_next + (q < kBPasses ? br + q * kBRows : t) < klen;
          float* const dst = base + Cfg::kAFloats + b_offset(q);
          if constexpr (kWords) {
            cp_async_4(dst, in ? b_source(q) : B, in);
          } else if constexpr (kShifted) {  // B's last float4 may pass its end: the words before it one by one
            const std::ptrdiff_t left = in ? b_end - b_src[q] : 4;
            if (left >= 4) {
              cp_async_16(dst, in ? b_src[q] : B, in);
            } else {
#pragma unroll
              for (int w = 0; w < 4; ++w) cp_async_4(dst + w, w < left ? b_src[q] + w : B, w < left);
            }
          } else {
            cp_async_16(dst, in ? b_src[q] : B, in);
          }
        }
      }
      advance();
    };

    WarpTileThread<Cfg::WM, Cfg::WN, Cfg::TM, Cfg::TN, 0, 1> patch(t % 32);
    const float* const as_warp = shared + warp_m * Cfg::WM;
    const float* const bs_warp = shared + Cfg::kAFloats + warp_n * Cfg::WN;
    float a[2][Cfg::TM], b[2][Cfg::TN];
    // k's fragments (kk within the tile); shifted, B's row kk read from
    // shift(kk) on (a constant where kk is: the fully unrolled loop); rows 1
    // or 3 words past 16 bytes as the two float4 around them, but on the
    // tile of five blocks an SM (96 registers): with them ptxas spilled 12
    // to 20 bytes in three of its six shifted kernels, without them in two
    // (ldb % 4 of 2 and 3, not stream-k: 20 and 12 bytes; run 39 measured
    // them faster than with the shift known at run time all the same).
    constexpr bool kWideShifts = Cfg::MIN_BLOCKS < 5;
    const auto fragments = [&](float(&fa)[Cfg::TM], float(&fb)[Cfg::TN], const float* as, const float* bs, int kk) {
      if constexpr (kShifted)
        patch.template load_fragments_shifted<kWideShifts>(fa, fb, as, kLda, bs, kBPitch, kk, shift(kk));
      else
        patch.load_fragments(fa, fb, as, kLda, bs, BN, kk);
    };

#pragma unroll
    for (int s = 0; s < S - 1; ++s) {
      load_tile(s);
      cp_async_commit();  // an empty group where there are fewer tiles: the waits count groups
    }
    cp_async_wait<S - 2>();
    __syncthreads();
    fragments(a[0], b[0], as_warp, bs_warp, 0);
    int stage = 0;

    // One k-tile from `stage`, while tile + S - 1 goes into the stage freed at
    // the last barrier: spread between the multiply-adds when it is a whole tile.
    const auto compute_tile = [&](auto spread_copies) {
      constexpr bool kSpread = decltype(spread_copies)::value;
      const float* as = as_warp + stage * kStageFloats;
      const float* bs = bs_warp + stage * kStageFloats;
      const int fill = stage == 0 ? S - 1 : stage - 1;
      const std::uint32_t a_sh = a_dst + fill * kStageBytes, b_sh = b_dst + fill * kStageBytes;
      if constexpr (!kSpread) load_tile(fill);
      if constexpr (!kSpread) {
        // The last k-tiles (nothing to spread) as a loop of two k at a time, not
        // a second fully unrolled body: that one's code, fetched cold by every
        // block, cost 3-20% (docs/ladder-notes.md, run 11).
        static_assert(BK % 2 == 0, "two k at a time");
#pragma unroll 1
        for (int kk = 0; kk < BK - 2; kk += 2) {  // a[0] holds k = kk on entry
          fragments(a[1], b[1], as, bs, kk + 1);
          patch.outer_product(a[0], b[0]);
          fragments(a[0], b[0], as, bs, kk + 2);
          patch.outer_product(a[1], b[1]);
        }
        fragments(a[1], b[1], as, bs, BK - 1);
        patch.outer_product(a[0], b[0]);
      } else {
#pragma unroll
        for (int kk = 0; kk < BK - 1; ++kk) {
          fragments(a[(kk + 1) % 2], b[(kk + 1) % 2], as, bs, kk + 1);
#pragma unroll
          for (int c = 0; c < kCopies; ++c)
            if (c / Cfg::SPREAD * (BK - 1) / kCopyRuns == kk) copy(c, a_sh, b_sh);
          patch.outer_product(a[kk % 2], b[kk % 2]);
        }
      }
      if constexpr (kSpread) advance();
      cp_async_commit();
      cp_async_wait<S - 2>();  // the next tile has landed for everyone, and everyone has read this stage
      __syncthreads();
      stage = stage + 1 == S ? 0 : stage + 1;
      // The next tile's first fragments (past the last tile: a stale stage, read and unused).
      fragments(a[BK % 2], b[BK % 2], as_warp + stage * kStageFloats, bs_warp + stage * kStageFloats, 0);
      patch.outer_product(a[(BK - 1) % 2], b[(BK - 1) % 2]);
    };

    const int tiles = ceil_div(klen, BK);
    const int spread_tiles = min(tiles, whole_len / BK - (S - 1));
    int tile = 0;
    for (; tile < spread_tiles; ++tile) compute_tile(std::true_type{});
    for (; tile < tiles; ++tile) compute_tile(std::false_type{});
    cp_async_wait<0>();  // no copy may outlive the block
    if (wait) {  // the tile's first sums are in C
      if (t == 0)
        while (load_acquire(sk.flags + unit) != sk.epoch) {
        }
      __syncthreads();
    }
    const int c_row0 = row0 + warp_m * Cfg::WM, c_col0 = col0 + warp_n * Cfg::WN;
    if (c_store == kStoreVec) store_patch<true>(patch, C, ldc, M, N, c_row0, c_col0, add);
    else if (c_store == kStoreRows) store_patch<false>(patch, C, ldc, M, N, c_row0, c_col0, add);
    else store_staged<Cfg>(patch, shared, C, ldc, M, N, row0, col0, warp_m * Cfg::WM, warp_n * Cfg::WN, add);
    if (raise) {
      __threadfence();
      __syncthreads();
      if (t == 0) store_release(sk.flags + unit, sk.epoch);
    }
  };

  // A block a tile (and a split of k), or the block's pieces of stream-k's
  // schedule, one at a time. Two instantiations, not one loop for both: the
  // loop around the whole body cost the kernels without stream-k 0.5 to 12%
  // (fp32_tune, H200, the same plans by both binaries: 2048^3 over k-tiles
  // of 16 split 2 0.356 -> 0.383 ms), and 6 to 26 more registers
  // (docs/ladder-notes.md, run 36).
  if constexpr (!kStreamK) {
    int block_row, block_col;
    swizzled_block<Cfg::GROUP_M>(tiles_m, tiles_n, block_row, block_col);
    const int k0 = blockIdx.z * k_chunk;
    run(0, block_row, block_col, k0, min(k_chunk, K - k0), gridDim.z > 1, false, false);
  } else {
    ws::PieceWalk walk(sk.schedule, blockIdx.x);
    const int k_tiles = sk.schedule.k_tiles;
    int unit, kb, ke;
    for (int piece = 0; walk.next(unit, kb, ke); ++piece) {
      if (piece > 0) __syncthreads();  // the last piece's readers of shared memory are done
      const bool cut = kb > 0 || ke < k_tiles, raise = cut && ke == k_tiles;
      int block_row, block_col;
      ws::unit_position(unit, tiles_m, tiles_n, Cfg::GROUP_M, block_row, block_col);
      run(unit, block_row, block_col, kb * BK, min(ke * BK, K) - kb * BK, cut && !raise, cut && !raise, raise);
    }
  }
}

}  // namespace ts::ladder
