// fp32_best.cu — `fp32-best`: the block tiles of fp32_any.cuh that ship, the
// rule that picks a tile and a split of k for each shape, and, where B's rows
// are off 16 bytes, whether the kernel copies B a word at a time or reads a
// padded copy of it. The rule and the figures behind it are in
// docs/ladder-notes.md ("Every shape", run 34).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "kernels/ladder/fp32_any.cuh"
#include "kernels/ladder/fp32_best.h"
#include "kernels/ladder/ladder.h"

namespace ts::ladder {
namespace {

// 128 x 256 x 32, 8 warps of 64 x 64, 16 x 8 per thread, 3 stages, copies in
// runs of 6: the double-buffer rung's shipped configuration, one block per SM.
using Tile128x256 = Fp32AnyConfig<128, 256, 32, 64, 64, 16, 8, 3, 8, 6, 1>;
// 64 x 128 x 32, 4 warps of 32 x 64, 8 x 8 per thread: three blocks per SM,
// so one block's start and end overlap the others' multiply-adds.
using Tile64x128 = Fp32AnyConfig<64, 128, 32, 32, 64, 8, 8, 3, 8, 6, 3>;
// The same tile over k-tiles of 16 in 4 stages (99 KB of shared memory): its
// main loop is half as long (2,222 SASS instructions, 35 KB of code, against
// 4,400 and 70 KB). Where a launch is one round of the SMs it is the faster
// of the two (run 17, H100: 99.6% of cuBLAS at 2048^3 against 93.5%; 98.4%
// unsplit at 1024x4096x4096 against 95.6% split in two) and pays nothing
// measurable after another kernel. Over several rounds the 32-long k-tile
// was ahead by 0.3-0.8 points at long k (4096 and more), behind where the
// rounds are whole (blocks a multiple of the SMs: run 24, 4.6-7.9 points at
// seven such shapes, where every block of a round starts, fills its pipeline
// and ends with every other) and behind or level at shorter k (run 26: 0.1
// to 5.2 points at nine shapes with k from 778 to 1406). The rule runs it
// in place of 128x256 but for long k over partial rounds.
using Tile128x256k16 = Fp32AnyConfig<128, 256, 16, 64, 64, 16, 8, 4, 8, 6, 1>;

// 128 x 64 x 32, 4 warps of 64 x 32, 8 x 8 per thread: the 64x128 tile's
// work and shared memory (three blocks per SM) in the other aspect; the rule
// weighs it with the same model (runs 22 and 25): where its grid fits C or
// the SMs' rounds better it wins (n = 319 runs as 5 x 64 + 63 where
// 128-column tiles compute 384 columns).
using Tile128x64 = Fp32AnyConfig<128, 64, 32, 64, 32, 8, 8, 3, 8, 6, 3>;

// 128 x 128 x 16, 4 warps of 64 x 64, 16 x 8 per thread (the 128x256 tiles'
// warp tile), 4 stages (66 KB): two blocks an SM, so that one block's start
// and end overlap the other's multiply-adds, on half the 128x256 tile's C.
// cuBLAS SGEMM ran a tile of this shape (128x128x8, 4 warps, split-k) at
// 2132x347x3274 (H200, Nsight Compute, docs/ladder-notes.md run 37).
using Tile128x128 = Fp32AnyConfig<128, 128, 16, 64, 64, 16, 8, 4, 8, 6, 2>;
// 64 x 64 x 16, 4 warps of 32 x 32, 8 x 4 per thread, 4 stages (33 KB):
// four blocks an SM (121 to 124 registers a thread allow no more). cuBLAS
// SGEMM ran a 64x64x8 tile of 4 warps at 2372x4365x168 (short k, C large).
// Run 38 (H200, fp32_tune at 31 shapes, call 57): over k-tiles of 16 the
// better of unsplit and stream-k ran ahead of the same tile's over k-tiles
// of 32 (run 37's, gone) at 28 (5041x2227x166 88.8% of cuBLAS SGEMM against
// 81.9), and it splits well where that one did not (2639x168x2743 96.7
// split 2 against 90.0).
using Tile64x64 = Fp32AnyConfig<64, 64, 16, 32, 32, 8, 4, 4, 8, 6, 4>;
// 32 x 128 x 16, 4 warps of 32 x 32 in a row, 8 x 4 per thread, 4 stages
// (41 KB, 94 to 96 registers): five blocks an SM. Where m is a few 32s past
// a multiple of 64 (m = 154 computes 160 rows, not 192; run 38:
// 154x3938x4327 101.1% of cuBLAS SGEMM split 8, where the rule's pick then
// ran 87.6) and at short k (5377x3519x157 98.1 against 83.2). Its twin
// 128 x 32 was behind another tile at every one of run 38's 31 shapes
// (5279x135x6292: 83.3 against 90.6 for 64x64 k16 stream-k).
using Tile32x128 = Fp32AnyConfig<32, 128, 16, 32, 32, 8, 4, 4, 8, 6, 5>;

enum TileIndex { k128x256, k64x128, k128x256k16, k128x64, k128x128, k64x64, k32x128 };
// Where B's rows are off 16 bytes, the 128x256 tile copies words; the
// others shifted float4 (their shared memory the larger). Run 39 (H200,
// fp32_tune: every plan at the 35 shapes of run 38's tables with n % 4 != 0
// and m up to 640, the 128x256 tiles' at 19 more with m up to 3072, against
// run 38's words at the same plans), each plan's time shifted against
// words, median of 179 to 271 plans a tile: 32x128 0.90, 64x128 0.97,
// 128x256 k16 0.99, 128x64 and 64x64 k16 1.00, 128x128 k16 1.04, 128x256
// 1.04. The 128x128 k16 tile copied words too until run 44, which timed it
// shifted at the 108 of 444 drawn shapes with n % 4 != 0 whose pick it is
// (H200): its splits +4.4 points of cuBLAS SGEMM at the mean, 29 of 36
// faster (words in place had run 10 to 20 points behind at m of 200 to 500,
// 491x1307x3618 split 6 82.0% -> 100.8%), its grid level (its B padded past
// m = 640) and stream-k -0.2 (15 of 36 faster).
constexpr Fp32Tile kTiles[] = {
    {"128x256", 128, 256, 32, 1, Tile128x256::kSharedBytes, true, true, 3072},
    {"64x128", 64, 128, 32, 3, Tile64x128::kSharedBytesOf[kBShifted]},
    {"128x256 k16", 128, 256, 16, 1, Tile128x256k16::kSharedBytesOf[kBShifted], false, false, 3072},
    {"128x64", 128, 64, 32, 3, Tile128x64::kSharedBytesOf[kBShifted]},
    {"128x128 k16", 128, 128, 16, 2, Tile128x128::kSharedBytesOf[kBShifted], true, false, 2048},
    {"64x64 k16", 64, 64, 16, 4, Tile64x64::kSharedBytesOf[kBShifted], true, false, 1536},
    {"32x128", 32, 128, 16, 5, Tile32x128::kSharedBytesOf[kBShifted]},
};
// How a tile's kernel copies B where its rows are off 16 bytes: its kTiles
// entry says (launch_fp32_plan pads B off 16 bytes by its address for the
// shifted tiles only), and the kernel is built from the same entry.
constexpr Fp32BCopy off_copy(TileIndex tile) { return kTiles[tile].b_words ? kBWords : kBShifted; }
// The most pieces fp32-best cuts k into (the rule, fp32_best_plan).
constexpr int kMaxSplits = 64;
// The CUDA runtime keeps 1 KB of each block's shared memory for itself.
constexpr int kSharedReservedPerBlock = 1024;

Workspace g_workspace;  // the padded copy of B's memory
Fp32BInPlace g_b_in_place = Fp32BInPlace::kRule;  // fp32_tune may ask for one way at every m
EpochFlags g_flags;     // stream-k's flags, one per tile of C

// kOff: how the tile copies B where its rows are off 16 bytes (kTiles' b_words).
template <class Cfg, Fp32BCopy kOff>
void launch_tile(const float* a, int lda, const float* b, int ldb, float* c, int m, int n, int k, const Fp32Plan& plan,
                 cudaStream_t stream) {
  const bool persistent = plan.stream_k || plan.tail > 1;
  const int k_tiles = ceil_div(k, Cfg::BK);
  const int chunk = ceil_div(k_tiles, persistent ? 1 : std::max(plan.splits, 1)) * Cfg::BK;
  const int z = ceil_div(k, chunk);  // every split has at least one k
  if (z > 1) TS_CUDA_CHECK(cudaMemsetAsync(c, 0, std::size_t(m) * n * sizeof(float), stream));
  const int tiles = ceil_div(m, Cfg::BM) * ceil_div(n, Cfg::BN);
  const dim3 grid(tiles, 1, z);
  // B's rows on 16 bytes: float4 copies; else kOff's (words, or shifted float4). C's
  // rows all on 16 bytes: float4 stores. Else, on the 128x256 tiles and the
  // 128x64 tile's splits, through shared memory as aligned float4; on the
  // tiles of three blocks an SM unsplit, and 64x128's splits, each row as
  // wide as it allows. Run 35 (H200, the same shapes by both ways): through
  // shared memory the 128x256 tiles gained 0.6 to 1.6 points of cuBLAS SGEMM
  // unsplit (2048x2047x2048, 4096x4095x4096, 8192x8191x1024) and 10.7 split
  // (382x1499x2451, its adds four atomics a float4 before), 128x64's splits
  // 0.7 to 3.6 (n of 155 to 167); the tiles of three blocks an SM lost 0.4 to
  // 5.7 unsplit at short k (its two barriers and pass through shared memory
  // cost more than its wider stores save, where three blocks share the SM)
  // and 0.8 and 1.7 on 64x128's splits. The 128x128 tile (the one of two
  // blocks an SM) stores through shared memory too, but not by stream-k or
  // the tail split: its row-by-row store took 17% of the kernel's stall
  // samples at 2138x3897x302 (Nsight Compute, run 42), waiting on the
  // stores' registers, and at all 340 of 30,000 freshly drawn shapes with
  // n % 4 != 0 whose pick was its grid or a split of it, shared memory ran
  // +2.45 points of cuBLAS SGEMM ahead at the mean (grid +4.5, 90 faster and
  // 16 slower; splits +1.4, up to 6 behind at small m and n past 3,000),
  // under 95% at 178 against 220; by stream-k it was behind at 11 of 12
  // shapes, by 1.9 at the mean (run 42, H200).
  const bool b_off = ldb % 4 != 0 || !aligned16(b);  // kBShifted: B itself on 16 bytes (launch_fp32_plan)
  const int c_store = n % 4 == 0 && aligned16(c) ? kStoreVec
                      : Cfg::MIN_BLOCKS == 1 || (z > 1 && Cfg::BN == 64) || (Cfg::MIN_BLOCKS == 2 && !persistent)
                          ? kStoreStaged
                          : kStoreRows;
  const int shared_bytes = Cfg::kSharedBytesOf[b_off ? kOff : kBFloat4];
  // The kernel for B's rows: on 16 bytes, or off them (shifted: one built for each ldb % 4).
  const auto pick = [&](auto stream_k_kernel) {
    constexpr bool kSk = decltype(stream_k_kernel)::value;
    if (!b_off) return fp32_any<Cfg, kBFloat4, kSk>;
    if constexpr (kOff == kBWords) {
      return fp32_any<Cfg, kBWords, kSk>;
    } else {
      if (ldb % 4 == 1) return fp32_any<Cfg, kBShifted, kSk, 1>;
      if (ldb % 4 == 2) return fp32_any<Cfg, kBShifted, kSk, 2>;
      if (ldb % 4 == 3) return fp32_any<Cfg, kBShifted, kSk, 3>;
      throw std::logic_error("fp32-best: shifted copies of B need its rows off 16 bytes and B itself on 16");
    }
  };
  Fp32StreamK sk;
  if (persistent) {
    const auto kernel = pick(std::true_type{});
    // Its pieces wait for each other: never more blocks than are resident at once.
    const int resident = resident_clusters(reinterpret_cast<const void*>(kernel), Cfg::kThreads, shared_bytes);
    sk.schedule = plan.tail > 1 ? ws::tail_schedule(tiles, k_tiles, resident, plan.tail)
                                : ws::stream_k_schedule(tiles, k_tiles, resident);
    if (sk.schedule.sk_units > 0) {  // else the tiles fill whole rounds: a block a tile, as below
      const EpochFlags::Use flags = g_flags.get(tiles, stream);
      sk.flags = flags.flags;
      sk.epoch = flags.epoch;
      launch_checked(kernel, dim3(sk.schedule.clusters), Cfg::kThreads, shared_bytes, stream, a, lda, b, ldb, c, n, m,
                     n, k, chunk, c_store, sk);
      return;
    }
  }
  const auto kernel = pick(std::false_type{});
  launch_checked(kernel, grid, Cfg::kThreads, shared_bytes, stream, a, lda, b, ldb, c, n, m, n, k, chunk, c_store, sk);
}

}  // namespace

std::span<const Fp32Tile> fp32_tiles() { return kTiles; }

std::vector<Fp32Plan> fp32_plans() {
  std::vector<Fp32Plan> all;
  for (int tile = 0; tile < int(std::size(kTiles)); ++tile) {
    for (int splits = 1; splits <= kMaxSplits; ++splits) all.push_back({tile, splits});
    all.push_back({tile, 1, true});
    for (const int tail : ws::kTailPieces) all.push_back({tile, 1, false, tail});
  }
  return all;
}

std::string fp32_plan_name(const Fp32Plan& plan) {
  std::string name(kTiles[plan.tile].name);
  if (plan.stream_k) name += " stream-k";
  else if (plan.tail > 1) name += " tail " + std::to_string(plan.tail);
  else if (plan.splits > 1) name += " split " + std::to_string(plan.splits);
  return name;
}

Fp32Gpu hopper_gpu(int sm_count) { return {sm_count, 227 * 1024, 228 * 1024}; }

Fp32Gpu current_fp32_gpu() {
  int device = 0;
  Fp32Gpu g;
  TS_CUDA_CHECK(cudaGetDevice(&device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&g.sm_count, cudaDevAttrMultiProcessorCount, device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&g.shared_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&g.shared_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  return g;
}

int fp32_blocks_per_sm(const Fp32Tile& tile, const Fp32Gpu& gpu) {
  if (tile.shared_bytes > gpu.shared_per_block) return 0;
  return std::min(tile.blocks_per_sm, gpu.shared_per_sm / (tile.shared_bytes + kSharedReservedPerBlock));
}

namespace {

// Whether the kernel reads B in place (B's rows off 16 bytes and m up to the
// tile's bound, kTiles' b_in_place_m; else B is padded first). Run 34's four
// measured points set 3,072 for the tiles of one block an SM and 640 for the
// others; run 44 (H200, fp32_tune under the rule's pick, B in place and padded
// at every m, 120 fresh shapes with n % 4 != 0 past those bounds) raised the
// 128x128 tile's (two blocks an SM; its copies shifted, no longer words) to
// 2,048: in place ahead by +6.3, +1.1 and +0.4 points of cuBLAS SGEMM at the
// mean at m up to 1,024, 1,536 and 2,048 (2, 11 and 11 shapes), level past it
// (+0.4 and -0.6 at two sets of 12 and 7); and the 64x64 tile's (four) to
// 1,536: +3.1 and +1.1 at m up to 1,024 and 1,536, +0.1 and -0.6 past it. The
// 32x128 tile's in place ran 3 to 4.5 points behind at every m from 641 to
// 2,560, the 128x256 k16 tile's past 3,072 level (-0.3, 24 shapes).
bool b_in_place(const Fp32Tile& tile, int m, bool b_whole) { return !b_whole && m <= tile.b_in_place_m; }

// A tile of several blocks an SM: what a round of j of them (j = 1 .. its
// blocks an SM) costs per k-tile of 32, in k-tiles of the 128x256 tile,
// a block's start and end in k-tiles, and the scale of its stream-k's shared part.
struct Rounds {
  double cost[6];
  double start_end;
  double sk_scale;
};
Rounds rounds_of(const Fp32Tile& t, const Fp32Model& model) {
  if (t.blocks_per_sm == 2) return {{0, model.two_round1, model.two_round2}, model.start_end_two, model.sk_scale_two};
  if (t.blocks_per_sm == 4)
    return {{0, model.four_round1, model.four_round2, model.four_round3, model.four_round4}, model.start_end_four,
            model.sk_scale_four};
  if (t.blocks_per_sm == 5)
    return {{0, model.five_round1, model.five_round2, model.five_round3, model.five_round4, model.five_round5},
            model.start_end_five, model.sk_scale_five};
  return {{0, model.round1, model.round2, model.round3}, model.start_end_three, 1};
}

// B read in place where its rows are off 16 bytes (n % 4 != 0 stands for
// that: the rule sees no address) costs the tiles of 64 and 32 rows more.
// Until run 38 they copied words, two and four times B's words per
// multiply-add of the 128-row tiles (run 38: words_64 1.10, words_32 1.25);
// from run 39 they copy shifted float4 and pay in their fragment loads, as
// the 128x64 and 128x256 k16 tiles do less: both 1.09, fitted to run 38's
// tables with run 39's at the 54 shapes they time with n % 4 != 0 and m up
// to 3072 (fp32_rule_fit, a grid of the two: the pick under 95% at 47 of 200
// timed picks, 50 with run 38's values; with call 68's tables of the shifts
// built for each ldb % 4, 45 and 48). Charged at m up to 640, where those
// tiles read B in place when they were fitted; the 64x64 tile reads it in
// place up to 1,536 since run 44 (b_in_place), uncharged there as the
// padded copy it replaces was (charged, the pick moved from it to the
// 32x128 tile padded at 276 of 15,105 drawn shapes with n % 4 != 0, a
// change nothing measured).
double words_cost(const Fp32Tile& t, int m, int n, const Fp32Model& model) {
  if (t.block_m > 64 || n % 4 == 0 || m > 640) return 1;
  return t.block_m == 64 ? model.words_64 : model.words_32;
}

}  // namespace

double fp32_plan_cost(const Fp32Plan& plan, int m, int n, int k, const Fp32Gpu& gpu, const Fp32Model& model) {
  const Fp32Tile& t = kTiles[plan.tile];
  const int per_round = fp32_blocks_per_sm(t, gpu);
  // Not modelled: the tail split (run 41: within 2 points of the best other
  // plan at 34 shapes, never far ahead), which the rule does not weigh.
  if (per_round == 0 || plan.tail > 1) return std::numeric_limits<double>::infinity();
  const int s = plan.stream_k ? 1 : plan.splits;
  // A block's k-tiles, in units of 32 k; at short k (under 24 of them) the
  // k16 tile's own, halved (k = 139 is 4.5 of them there, 5 on the 32-long
  // tile), and its start and end ~1 k-tile, not 2 (below).
  double k_tiles = ceil_div(ceil_div(k, 32), s);
  const bool short_k16 = t.block_k == 16 && k_tiles < 24;
  if (short_k16) k_tiles = ceil_div(ceil_div(k, 16), s) / 2.0;
  const int units = ceil_div(m, t.block_m) * ceil_div(n, t.block_n);
  const int resident = gpu.sm_count * per_round;
  const int sk_units = plan.stream_k ? ws::stream_k_units(units, resident) : 0;
  if (sk_units > 0) {
    // Stream-k: every SM busy to the end. Whole rounds of tiles, then an
    // equal share of the rest's k-tiles a block, each piece of it (one more
    // than the tiles it spans, at most) paying a tile's start and end; the
    // cut tiles' later pieces added atomically (about a tile a block).
    const Rounds r = rounds_of(t, model);
    const double start_end = t.blocks_per_sm == 1 ? (short_k16 ? model.start_end_k16_short : model.start_end)
                                                  : r.start_end;
    const int whole_rounds = (units - sk_units) / resident;
    const double share = double(sk_units) * k_tiles / resident;
    const double pieces = std::ceil(share / k_tiles) + 1;
    // The whole rounds cost what the tile's rounds cost without stream-k
    // (times sk_whole); the scales of stream-k apply to the shared part
    // (run 38: one scale for both had the 128x128 tile's stream-k picked
    // over the 128x256 tile at 4096^3 and 8192^3, 3 points behind it).
    double whole = whole_rounds * (k_tiles + start_end);
    double shared = share + pieces * start_end * model.sk_piece;
    if (t.blocks_per_sm == 1) {
      shared += t.block_k == 32 ? model.cold_code_k32 : model.cold_code_k16;
    } else {
      const double per_k_tile = r.cost[per_round] * words_cost(t, m, n, model);
      whole *= per_k_tile;
      shared *= per_k_tile;
    }
    return model.sk_whole * whole + model.sk_scale * r.sk_scale * shared +
           model.split_adds * (double(std::min(sk_units, resident)) * t.block_m * t.block_n / (1 << 20));
  }
  // Blocks on the busiest SM.
  const int per_sm = ceil_div(units * s, gpu.sm_count);
  double cost;
  if (t.blocks_per_sm == 1) {
    // One block at a time per SM; each pays ~2 k-tiles of start and end
    // (first fit as 1 at k = 1024 and 4096; run 31's short k, 7 to 20
    // k-tiles, where the 64x128 tile's overlapping blocks hide theirs: 2, which
    // moved 4111x2969x207 from 70.6% to 81.3% of cuBLAS, 2079x3814x434 from
    // 75.0% to 88.5%).
    // And the 32-long k-tile once per launch ~1.8 more (~10 us on an H100),
    // where another kernel ran before it, as in an application and as the
    // benchmark times it (run 16, fp32_tune at 2048^3: 0.3586 ms after itself,
    // 0.3673 after cuBLAS or after the 64x128 kernel); its k16 twin, with half
    // the loop code, ~0.4 (run 17: 0.3 us at 2048^3, 2 us at 1024^3 split 4).
    // Run 35 (H200, fp32_tune): at short k the k16 tile's start and end is
    // ~1 k-tile: with 2 the rule ran the 64x128 tile at 4111x2969x207 (77.8%
    // of cuBLAS SGEMM), 6413x973x234 (76.2), 2079x3814x434 (88.7) where the
    // k16 tile ran 89.9, 82.3 and 94.1%; with 1 it still picks 64x128 at each
    // of seven short-k shapes where that was ahead (2549x5087x438: 94.6
    // against 81.2). Longer k keeps the model of runs 24 and 26.
    const double start_end = short_k16 ? model.start_end_k16_short : model.start_end;
    cost = per_sm * (k_tiles + start_end) + (t.block_k == 32 ? model.cold_code_k32 : model.cold_code_k16);
  } else {
    // 64 x 128 blocks, up to three at a time (Hopper; fewer where an SM's
    // shared memory holds fewer): a full round of three takes 0.78 of a
    // 128x256 k-tile per k-tile, a round of two (8 warps) 0.53, of one (4
    // warps) 0.45. Start and end ~1.3 k-tiles. Likewise the 128x128 tile's
    // two blocks an SM, the 64x64 tile's four (run 37) and the 32x128
    // tile's five (run 38).
    const Rounds r = rounds_of(t, model);
    cost = (per_sm / per_round * r.cost[per_round] + r.cost[per_sm % per_round]) * (k_tiles + r.start_end);
    cost *= words_cost(t, m, n, model);
  }
  // Each extra split zeroes C and adds its share of it atomically, mostly
  // overlapped with other blocks' work: ~0.15 units per 1024 x 1024 of C.
  // Where C passes 1024 x 1024 cells and a split's k is short, the adds are
  // not hidden: ~0.5 more per 1024 x 1024 past them, times 1 - (k of a
  // split) / 1000. Run 41 (H200, fp32_tune): at such shapes the 128x128
  // tile's splits ran 5 to 10 points of cuBLAS SGEMM behind its stream-k
  // (1920x5632x640 split 2 88.9%, stream-k 99.1; 4140x3564x876 89.8 against
  // 98.5) where the model had them level; at long k the splits keep up
  // (3840x4864x5760 split 3 103.0, stream-k 101.0), hence the factor of k.
  // The 0.5 from a scan on the tables of runs 38 to 41; the factor of k
  // from call 79, where the term without it changed 82 picks, to no gain
  // (mean +0.1 and -0.2 points on two sets). With it, at the 37 of 3,000
  // freshly drawn shapes whose pick it changes (call 80, none fitted to):
  // faster at 23, slower at 10, mean +1.4 points.
  const double c_cells = double(m) * n / (1 << 20);
  const double short_split = std::max(0.0, 1 - double(k) / s / model.split_adds_k);
  return cost +
         (s - 1) * (model.split_adds * c_cells + model.split_adds_past_1m * short_split * std::max(0.0, c_cells - 1));
}

Fp32Plan fp32_best_plan(int m, int n, int k, const Fp32Gpu& gpu, const Fp32Model& model) {
  // Measured, not modelled (runs 17, 24, 26 and 35): the 128x256 tile runs
  // over k-tiles of 16 in one round or whole rounds of the SMs, and over
  // partial rounds where a block's k is under 4096 (128 k-tiles of 32); the
  // 32-long k-tile keeps long k over partial rounds (0.5-0.8 points ahead at
  // 4096^3, 8192^3 and 8192x1024x8192). Until run 35 it also kept short k
  // (under 24 k-tiles), where it cost 4 to 8 points at each of nine shapes
  // on an H200 (4111x2969x207: 81.3% of cuBLAS SGEMM against 89.9% over
  // k-tiles of 16). On a GPU whose blocks cannot hold the 32-long k-tile's 3
  // stages (149 KB; the k16 tile's 4 stages take 99 KB: sm_86, sm_89,
  // sm_120) the k16 tile runs everywhere.
  const bool k32_fits = fp32_blocks_per_sm(kTiles[k128x256], gpu) > 0;
  const auto as_run = [&](Fp32Plan plan) {
    const int blocks = ceil_div(m, kTiles[k128x256].block_m) * ceil_div(n, kTiles[k128x256].block_n) * plan.splits;
    const bool whole_rounds = blocks <= gpu.sm_count || blocks % gpu.sm_count == 0;
    const int k_tiles = ceil_div(k, 32) / plan.splits;  // a block's, of 32
    if (plan.tile == k128x256 && (whole_rounds || k_tiles < 128 || !k32_fits)) plan.tile = k128x256k16;
    return plan;
  };
  Fp32Plan best = as_run({k128x256, 1});  // where no 128x256 tile fits, its cost is infinite: any other wins
  double best_cost = fp32_plan_cost(best, m, n, k, gpu, model);
  const auto weigh = [&](const Fp32Plan& plan) {
    const double cost = fp32_plan_cost(plan, m, n, k, gpu, model);
    if (cost < best_cost * 0.98) {  // another plan must win clearly: the model is rough
      best = plan;
      best_cost = cost;
    }
  };
  const int k_tiles = ceil_div(k, 32);
  for (int tile = 0; tile < int(std::size(kTiles)); ++tile) {
    if (!kTiles[tile].ruled) continue;
    const int blocks = ceil_div(m, kTiles[tile].block_m) * ceil_div(n, kTiles[tile].block_n);
    const int per_round = gpu.sm_count * std::max(fp32_blocks_per_sm(kTiles[tile], gpu), 1);
    // At least 4 k-tiles per split. The 128x256 tile splits only to fill one
    // round of the SMs (splitting its grids of several rounds never paid in
    // run 11); the 64x128 tile also where its last round would be a sliver
    // (run 19: 2560^3 98.1% of cuBLAS split in four, against 84.4% for the
    // 128x256 tile unsplit; every pick this changed measured faster).
    const bool splits_past_one_round = kTiles[tile].blocks_per_sm > 1;
    // Past 8 splits only where 8 leave part of one round of the SMs idle (C
    // of a few tiles, k long: 128x128x65536 ran 11% of cuBLAS at 8 splits,
    // docs/ladder-notes.md run 31), and then up to one round.
    const int max_splits = blocks * 8 < per_round ? std::min(kMaxSplits, std::max(8, per_round / blocks)) : 8;
    for (int s = 1;
         s <= max_splits &&
         (s == 1 || (k_tiles / s >= 4 && (splits_past_one_round || blocks * (s - 1) < per_round * model.rounds_256)));
         ++s) {
      weigh(as_run({tile, s}));
    }
  }
  // Stream-k: the 128x256 tile over k-tiles of 16, where its tiles are
  // fewer than the SMs (every SM then shares the k-tiles of all of them).
  // Run 36 (H200, fp32_tune at 47 shapes, every tile's stream-k beside
  // splits of 2 to 8): it was the fastest plan where such a grid had long k
  // (507x3223x5453 107.4% of cuBLAS SGEMM against 99.3% for the best split,
  // 1517x478x5345 101.8 against 95.1, 1536x768x5504 97.0 against 91.7), and
  // behind the best split at short k and on grids of several rounds (4096^3
  // 96.2 against 100.1). The three-block tiles' stream-k was behind their
  // best split at 45 of the 47 shapes, the 32-long k-tile's behind its k16
  // twin at 44 (4096^3: 78.0).
  {
    const Fp32Tile& t = kTiles[k128x256k16];
    const int units = ceil_div(m, t.block_m) * ceil_div(n, t.block_n);
    if (fp32_blocks_per_sm(t, gpu) > 0 && units < gpu.sm_count) weigh({k128x256k16, 1, true});
  }
  // Stream-k of the tiles of two, four and five blocks an SM, wherever
  // their tiles do not fill whole rounds. Run 37 (H200, fp32_tune at 40 shapes):
  // the 128x128 tile's was the fastest plan at most shapes with a side
  // under 600 and k long (3656x588x1892 102.3% of cuBLAS SGEMM against 94.4
  // for the best plan of the other tiles, 4340x369x4329 97.0 against 92.3,
  // 210x4613x2171 94.7 against 88.6), the 64x64 tile's at some short ones
  // (5960x190x1545 98.3 against 84.9, 5431x430x981 98.9 against 92.2).
  // Not the 128x128 tile's in place of the 128x256 tile's grid where that
  // tile's blocks fill their last round of the SMs to 90% or more and k is
  // long (64 k-tiles of 32 or more): there it ran 3.2 points behind at each
  // of three such shapes (run 38: 1024x4096x4096 96.3% of cuBLAS SGEMM
  // against 99.5% for 128x256 k16, 4096x1024x4096 96.5 against 99.7,
  // 8192x1024x8192 97.6 against 100.8), where the model had it ahead, and
  // level on average at 41 such shapes drawn (run 41, call 82: 17 slower,
  // by up to 3.7 points, 2048x2048x2944 96.9 against 100.6; 18 faster).
  // Until run 41 it was left out there against any plan, which cost up to
  // 11 points where the pick was another (call 82: 2784x1376x6156, 64x64
  // k16 stream-k 98.0, 128x128 k16 stream-k 109.2). At the 44 of 6,000
  // freshly drawn shapes whose pick that change moves (call 83, none fitted
  // to): faster at 36, slower at 1 (by 0.7), mean +4.8 points; under 95% of
  // cuBLAS SGEMM at 6 before, 1 after.
  const int blocks_256 = ceil_div(m, kTiles[k128x256].block_m) * ceil_div(n, kTiles[k128x256].block_n);
  const int last_round_256 = (blocks_256 - 1) % gpu.sm_count + 1;
  const bool rounds_256_full = k_tiles >= 64 && last_round_256 * 10 >= gpu.sm_count * 9;
  const bool grid_256 = (best.tile == k128x256 || best.tile == k128x256k16) && !best.stream_k && best.splits == 1;
  for (const int tile : {k128x128, k64x64, k32x128}) {
    const Fp32Tile& t = kTiles[tile];
    const int units = ceil_div(m, t.block_m) * ceil_div(n, t.block_n);
    const int per_sm = fp32_blocks_per_sm(t, gpu);
    if (tile == k128x128 && rounds_256_full && grid_256) continue;
    if (per_sm > 0 && ws::stream_k_units(units, gpu.sm_count * per_sm) > 0) weigh({tile, 1, true});
  }
  return best;
}

void launch_fp32_plan(const Fp32Plan& plan, const float* a, const float* b, float* c, int m, int n, int k,
                      cudaStream_t stream) {
  // A is read where it lies, by word copies, its rows on 32-byte sectors or
  // not: run 23 measured a padded copy of A 1.4 to 19 points slower than the
  // sectors it saves, most where C is narrow (the copy moves all of A for few
  // columns of work). B by float4 copies where its rows are on 16 bytes;
  // else in place (word copies, or shifted float4 where B itself is on 16
  // bytes: kTiles' b_words), or from a padded copy of B. Until run 34 it was
  // always the copy, and C's rows off 16 bytes were stored word by word (a
  // split's adds 4 atomics a float4); with both, shapes with n % 4 != 0 ran
  // at 85.5% of cuBLAS SGEMM (median of 53 drawn shapes, H200) against
  // 101.9% for n % 4 == 0 (147 shapes). Now each row of C goes as wide as
  // its address allows, or the tile through shared memory as aligned float4
  // on the tiles where that measured ahead (launch_tile). Reading B in place
  // costs the kernel (fp32_any.cuh: words in L1, or shifted fragment loads);
  // the copy costs a launch and B's bytes twice, against work that grows
  // with m: run 34 (H200) had words ahead at m = 171, 382, 429 (by 5 to 15
  // points) and 2048 (128x256 k16, +1.8), the copy ahead at m = 2948, 3795,
  // 4634 (three-block tiles, by 6 to 10) and 4096 (128x256, +0.5). Run 39
  // had the copy ahead of shifted float4 at m = 909 to 4300 too (five
  // shapes, the best plan 0 to 8 points), so the bounds stayed; run 44
  // raised those of the 128x128 and 64x64 tiles (b_in_place).
  const int lda = k;
  const bool b_whole = n % 4 == 0 && aligned16(b);
  // B's rows off 16 bytes: read in place (in words, or shifted where B itself is on 16), or from a padded copy.
  const bool in_place = !b_whole && (kTiles[plan.tile].b_words || aligned16(b)) &&
                        (g_b_in_place == Fp32BInPlace::kRule ? b_in_place(kTiles[plan.tile], m, b_whole)
                                                             : g_b_in_place == Fp32BInPlace::kAlways);
  int ldb = n;
  if (!b_whole && !in_place) {
    ldb = (n + 3) / 4 * 4;
    float* pb = g_workspace.get(std::size_t(k) * ldb);  // cudaMalloc: 256-byte aligned
    const PadJob job{b, k, n, pb, ldb};
    pad_rows_async(&job, 1, stream);
    b = pb;
  }
  switch (plan.tile) {
    case k128x256: launch_tile<Tile128x256, off_copy(k128x256)>(a, lda, b, ldb, c, m, n, k, plan, stream); break;
    case k64x128: launch_tile<Tile64x128, off_copy(k64x128)>(a, lda, b, ldb, c, m, n, k, plan, stream); break;
    case k128x64: launch_tile<Tile128x64, off_copy(k128x64)>(a, lda, b, ldb, c, m, n, k, plan, stream); break;
    case k128x128: launch_tile<Tile128x128, off_copy(k128x128)>(a, lda, b, ldb, c, m, n, k, plan, stream); break;
    case k64x64: launch_tile<Tile64x64, off_copy(k64x64)>(a, lda, b, ldb, c, m, n, k, plan, stream); break;
    case k32x128: launch_tile<Tile32x128, off_copy(k32x128)>(a, lda, b, ldb, c, m, n, k, plan, stream); break;
    default: launch_tile<Tile128x256k16, off_copy(k128x256k16)>(a, lda, b, ldb, c, m, n, k, plan, stream); break;
  }
}

void set_fp32_b_in_place(Fp32BInPlace when) { g_b_in_place = when; }

void launch_fp32_best(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_fp32_plan(fp32_best_plan(m, n, k, current_fp32_gpu()), a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
