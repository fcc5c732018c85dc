// On a real GPU (label gpu): every plan fp32-best can pick (each block tile,
// with and without a split of k, stream-k and the tail split) computes
// C = A * B against a double-precision reference, its output poisoned first, at
// aligned shapes and at ragged ones (A's rows read off 32-byte sectors; B's
// rows off 16 bytes, by n or by B's address, read in place where m is small
// (words on the 128x256 tile, shifted float4 on the others,
// where B itself is on 16 bytes, down to rows of 1 to 3 floats and splits that
// end in B's last 3 rows) and from a padded copy where it is not; C's rows at
// every alignment, by n or by C's address, stored as float4, pairs or words),
// and writes nothing around C; and the rule picks its tiles and splits as runs
// 16-26 measured (docs/ladder-notes.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "trace/model/reference.h"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/ladder/fp32_best.h"

namespace ts::ladder {
namespace {

struct Case {
  Fp32Plan plan;
  int m, n, k;
  int b_offset = 0, c_offset = 0;  // floats past a 256-byte aligned allocation where B, C start
};

std::vector<Case> all_cases() {
  // Aligned (k a multiple of 8, n of 4: rows on sectors, B as float4), ragged
  // everywhere, n aligned with k not, a single row and column, k shorter than
  // one k-tile, and splits of a few k-tiles. n % 4 is 1 (C's rows at all four
  // alignments), 2 (two) or 3; B or C off 16 bytes by its address alone (B a
  // word past with n % 4 == 0: words, or a padded copy on the tiles that
  // shift; C a word past: every row on an odd word; both two past: every row
  // of C in pairs).
  const Case shapes[] = {
      {{}, 260, 516, 200}, {{}, 130, 132, 68}, {{}, 37, 29, 45}, {{}, 131, 133, 301}, {{}, 1, 4, 4}, {{}, 3, 1, 7},
      {{}, 70, 258, 75}, {{}, 45, 131, 90},                                          // n % 4 == 2, 3
      // Rows of 2 and 3 floats; split 3: a split but the last ends in B's last 3 rows.
      {{}, 40, 2, 34}, {{}, 21, 3, 33},
      {{}, 130, 132, 68, 1, 0}, {{}, 130, 132, 68, 0, 1}, {{}, 67, 260, 77, 2, 2},  // B, C, both off 16 bytes
      // m past the bound of reading B in place of the tiles of three and five
      // blocks an SM (their B padded; the others' read in place), and of every tile.
      {{}, 700, 131, 70}, {{}, 700, 132, 70, 1, 1}, {{}, 3100, 45, 37, 3, 0},
  };
  std::vector<Case> cases;
  for (int tile = 0; tile < int(fp32_tiles().size()); ++tile)
    for (const Fp32Plan plan : {Fp32Plan{tile, 1}, Fp32Plan{tile, 3}, Fp32Plan{tile, 1, true}})
      for (Case c : shapes) {
        c.plan = plan;
        cases.push_back(c);
      }
  // Past 8 splits (C of a few tiles, k long): 48 pieces of 4 or 5 k-tiles, ragged; n % 4 == 0 and 3.
  for (int tile = 0; tile < int(fp32_tiles().size()); ++tile)
    for (const int n : {132, 131}) cases.push_back({Fp32Plan{tile, 48}, 130, n, 6800});
  // Stream-k over several rounds of every tile (on an H100 or H200): whole
  // tiles after the shared ones, runs cut inside tiles, k of one k-tile and
  // of several; C's rows off 16 bytes, B a word past.
  for (int tile = 0; tile < int(fp32_tiles().size()); ++tile) {
    cases.push_back({Fp32Plan{tile, 1, true}, 3000, 4099, 37});
    cases.push_back({Fp32Plan{tile, 1, true}, 2100, 4100, 300, 1, 0});
  }
  // The tail split (on an H100 or H200, 132 SMs): a grid of whole rounds of
  // the resident blocks and a last round of about a fifth of them, its tiles
  // cut into 3 pieces, or as many as fit (16 asked: 3 or 4); ragged, B and C
  // off 16 bytes. And a grid of fewer tiles than the resident blocks, k of 3
  // to 5 k-tiles, so that the pieces are one or two k-tiles.
  for (int tile = 0; tile < int(fp32_tiles().size()); ++tile) {
    const Fp32Tile& t = fp32_tiles()[tile];
    const int resident = 132 * t.blocks_per_sm, rows = 12, cols = (resident + resident / 5) / rows + 1;
    for (const int tail : {3, 16}) {
      cases.push_back({Fp32Plan{tile, 1, false, tail}, t.block_m * rows - 5, t.block_n * cols - 3, 97});
      cases.push_back({Fp32Plan{tile, 1, false, tail}, t.block_m * rows, t.block_n * cols, 160, 1, 1});
      cases.push_back({Fp32Plan{tile, 1, false, tail}, t.block_m * 4 - 1, t.block_n * 8 - 2, 70});
    }
  }
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  std::string name = fp32_plan_name(c.plan);
  for (char& ch : name)
    if (ch == ' ' || ch == '-') ch = '_';
  name += "_" + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k);
  if (c.b_offset) name += "_b" + std::to_string(c.b_offset);
  if (c.c_offset) name += "_c" + std::to_string(c.c_offset);
  return name;
}

class Fp32Best : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const gpu::DeviceStatus st = gpu::probe();
    ASSERT_TRUE(st.available) << st.reason;
    const Fp32Tile& tile = fp32_tiles()[GetParam().plan.tile];
    if (fp32_blocks_per_sm(tile, current_fp32_gpu()) == 0)
      GTEST_SKIP() << tile.name << " needs " << tile.shared_bytes << " bytes of shared memory a block; this GPU allows "
                   << current_fp32_gpu().shared_per_block;
  }
};

TEST_P(Fp32Best, PlanMatchesDoublePrecision) {
  const Case c = GetParam();
  std::mt19937 rng(std::hash<std::string>{}(case_name({GetParam(), 0})));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(std::size_t(c.m) * c.k), b(std::size_t(c.k) * c.n), out(std::size_t(c.m) * c.n);
  for (float& v : a) v = dist(rng);
  for (float& v : b) v = dist(rng);
  // C lies between guards of kGuard cells (and its offset), poisoned with the rest: nothing may touch them.
  constexpr int kGuard = 4;
  const std::size_t c_cells = kGuard + c.c_offset + out.size() + kGuard;
  gpu::DeviceBuffer da, db, dc;
  float* dev_b = db.get<float>(c.b_offset + b.size()) + c.b_offset;
  float* dev_c = dc.get<float>(c_cells) + kGuard + c.c_offset;
  TS_CUDA_CHECK(cudaMemcpy(da.get<float>(a.size()), a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(dev_b, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  // NaN: unwritten cells show (split plans zero C first).
  TS_CUDA_CHECK(cudaMemset(dc.get<float>(c_cells), 0xFF, c_cells * 4));
  launch_fp32_plan(c.plan, da.get<float>(a.size()), dev_b, dev_c, c.m, c.n, c.k, nullptr);
  TS_CUDA_CHECK_LAUNCH();
  std::vector<float> all(c_cells);
  TS_CUDA_CHECK(cudaMemcpy(all.data(), dc.get<float>(c_cells), c_cells * 4, cudaMemcpyDeviceToHost));
  const std::size_t first = kGuard + c.c_offset;
  for (std::size_t i = 0; i < c_cells; ++i) {
    if (i >= first && i < first + out.size()) continue;
    std::uint32_t bits;
    std::memcpy(&bits, &all[i], 4);
    ASSERT_EQ(bits, 0xFFFFFFFFu) << "cell " << std::ptrdiff_t(i - first) << " around C written";
  }
  std::copy(all.begin() + first, all.begin() + first + out.size(), out.begin());
  for (std::size_t i = 0; i < out.size(); ++i)
    ASSERT_TRUE(std::isfinite(out[i])) << "cell (" << i / c.n << ", " << i % c.n << ") not written";
  EXPECT_LT(relative_error(out, reference_matmul(a, b, c.m, c.n, c.k)), 1e-5);
}

INSTANTIATE_TEST_SUITE_P(EveryPlan, Fp32Best, ::testing::ValuesIn(all_cases()), case_name);

TEST(Fp32BestRule, SplitsWhereTheGridLeavesSMsIdle) {
  const Fp32Gpu h100 = hopper_gpu(132);
  const Fp32Plan big = fp32_best_plan(4096, 4096, 4096, h100);
  EXPECT_EQ(big.splits, 1) << fp32_plan_name(big);
  const Fp32Plan small = fp32_best_plan(1024, 1024, 1024, h100);
  const Fp32Plan short_k = fp32_best_plan(1024, 1024, 64, h100);
  EXPECT_EQ(short_k.splits, 1) << "two k-tiles are not worth splitting: " << fp32_plan_name(short_k);
  // Run 17: one round of 128 x 256 blocks runs over k-tiles of 16, unsplit
  // (98.4% of cuBLAS at 1024x4096x4096 against 95.6% split in two; 99.6% at
  // 2048^3 against 93.5%); several rounds keep k-tiles of 32 only at long k
  // (run 26: k16 ahead or level at nine shapes with k under 1500).
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(1024, 4096, 4096, h100)), "128x256 k16") << "one round over a long k";
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(4096, 1024, 4096, h100)), "128x256 k16");
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(2048, 2048, 2048, h100)), "128x256 k16");
  EXPECT_EQ(fp32_plan_name(big), "128x256");
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(8192, 8192, 1024, h100)), "128x256 k16") << "short k";
  // Run 31's start and end cost (2 k-tiles a block) moved this short k to the
  // 64x128 tile, as run 26 measured it (92.4% of cuBLAS against 87.8%); since
  // run 38 the 128x256 tile over k-tiles of 16, the best of eleven plans timed
  // there (call 59: 95.6% against 93.8% for 64x128).
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(3726, 6425, 778, h100)), "128x256 k16") << "short k";
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(8192, 1024, 8192, h100)), "128x256") << "long k, 1.94 rounds";
  // Run 35 (H200): at short k the k16 tile where its grid fits the SMs
  // better: 4111x2969x207 (3 whole rounds) 91.0% of cuBLAS against 81.3% on
  // 64x128, 6426x1181x377 94.4 against 89.6. (The model misses at
  // 2048x3328x403: the k16 tile 92.9%, 64x128 99.2%.)
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(4111, 2969, 207, h100)), "128x256 k16") << "short k";
  // (Since run 37's refit, 6426x1181x377 runs the 64x64 tile, 3.3 points
  // behind the k16 tile there in call 55: 90.5% against 93.8%.)
  EXPECT_NE(fp32_plan_name(fp32_best_plan(6426, 1181, 377, h100)), "64x128") << "short k";
  // 2549x5087x438: 64x128 94.6% against the k16 tile's 81.2% (run 35); run
  // 37 weighs the 128x128 tile's stream-k there (not timed at this shape;
  // 93.3 against 64x128's 95.0 at 3281x2935x493).
  EXPECT_NE(fp32_plan_name(fp32_best_plan(2549, 5087, 438, h100)), "128x256 k16") << "short k";
  // B copied in words (n % 4 != 0, m small): a tile of 128 rows copies half
  // of the 64-row tiles' words per multiply-add (run 35, 511x3883x610: 128x64
  // 77.8% against 64x128's 74.7%). Run 38 picks the 128x128 tile split in two
  // there (call 60: 76.5% against 78.7% for 128x64), where the 64x64 tile over
  // k-tiles of 16 ran 83.3% (call 59): the model misses it. So does run 39's
  // (64x64 k16 shifted 81.3% in call 66, 128x64 75.2%).
  EXPECT_EQ(fp32_tiles()[fp32_best_plan(511, 3883, 610, h100).tile].block_m, 128);
  // Run 16 (timed after another kernel, the L2 overwritten): at 1024^3 the 64 x 128
  // tile split in two (112.7% of cuBLAS) beats the 128 x 256 split in four (93.6%;
  // run 17: 110.1% over k-tiles of 16). Since run 38 the 64x64 tile over k-tiles
  // of 16, unsplit (256 blocks on 132 SMs), 2.7 points behind it (call 60:
  // 112.7% against 115.4%).
  EXPECT_EQ(fp32_plan_name(small), "64x64 k16");
  // The 32-long k-tile only ever runs long k (128 k-tiles of 32 a block or
  // more) over rounds of which the last is partial: run 24, 4.6-7.9 points
  // behind the k16 tile where the blocks are a multiple of the SMs
  // (4224x4096x4096, 528 blocks: 98.5% of cuBLAS against 103.1%), 0.5 ahead
  // at 4096^3 (512 blocks, 3.88 rounds); run 35, 4-8 points behind at short
  // k (under 24 k-tiles: 4111x2969x207 81.3% against 89.9%).
  for (int m = 256; m <= 8192; m += 384)
    for (int n = 256; n <= 8192; n += 640)
      for (int k : {256, 2048, 8192}) {
        const Fp32Plan p = fp32_best_plan(m, n, k, h100);
        const int blocks = (m + 127) / 128 * ((n + 255) / 256) * p.splits;
        if (fp32_plan_name(p).rfind("128x256", 0) == 0 && fp32_plan_name(p).find("k16") == std::string::npos) {
          const int k_tiles = (k + 31) / 32 / p.splits;
          EXPECT_TRUE(blocks > h100.sm_count && blocks % h100.sm_count != 0 && k_tiles >= 128)
              << m << "x" << n << "x" << k;
        }
      }
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(4224, 4096, 4096, h100)), "128x256 k16") << "4 whole rounds";
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(3072, 2816, 2816, h100)), "128x256 k16") << "2 whole rounds";
  for (const auto& s : {std::array<int, 3>{8192, 8192, 1024}, {4097, 4097, 4097}, {3001, 4097, 2999}})
    EXPECT_EQ(fp32_best_plan(s[0], s[1], s[2], h100).splits, 1) << "rounds that fill the SMs: nothing to gain";
  // Run 19: the 64 x 128 tile splits past one round where its last round
  // would be a sliver: 2560^3 (800 blocks on 396 slots) split in four, 98.1%
  // of cuBLAS, where the 128 x 256 tile in 1.5 rounds was at 84.4%.
  // Run 37 (H200): stream-k of the 128x128 tile (two blocks an SM) runs
  // ahead of both: 2560^3 104.3% against 98.4% for 64x128 split 4, 3328^3
  // 106.8 against 102.7 for 64x128 split 2.
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(2560, 2560, 2560, h100)), "128x128 k16 stream-k");
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(3328, 3328, 3328, h100)), "128x128 k16 stream-k");
  // Runs 22 and 25: the 128x64 tile, weighed by the 64x128 tile's model,
  // where its grid fits C (n = 319: 320 columns against 384) or the rounds
  // (5558x1687x4440: 1188 blocks, 3 whole rounds of 396) better; at nine
  // such picks of run 25 it ran 2.4-5.3 points ahead of the pick before, the
  // best plan measured at seven and within 1.3 points of it at two.
  // Run 38 moved all six (call 60, the pick of run 37 against the first fit
  // of run 38; call 59, eleven plans a shape): 4156x319x3156 and
  // 3708x799x1942 to the 64x64 tile's stream-k (109.2% against 107.2, 99.9
  // against 97.8), 2865x4418x4528 and 4224x324x6400 to the 128x128 tile's
  // (95.2, level; 94.6 against 88.3), and two to its splits, behind the
  // 128x64 tile (5558x1687x4440 96.3 against 99.2, 6463x4771x4894 99.5
  // against 101.6).
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(4156, 319, 3156, h100)), "64x64 k16 stream-k");
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(3708, 799, 1942, h100)), "64x64 k16 stream-k");
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(5558, 1687, 4440, h100)), "128x128 k16 split 3");
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(6463, 4771, 4894, h100)), "128x128 k16 split 2");
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(2865, 4418, 4528, h100)), "128x128 k16 stream-k");
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(4224, 324, 6400, h100)), "128x128 k16 stream-k");
  // Run 31: C of a few tiles with k long split past 8, up to one round of
  // the SMs, and no further; run 37 ran the 64x64 tile's stream-k there
  // (128x128x65536: 106.6% of cuBLAS SGEMM against 75.4% for 64x128 split
  // 64), run 38 its k16 twin split 64 (call 60: 113.1%).
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(128, 128, 65536, h100)), "64x64 k16 split 64");
  for (const auto& s : {std::array<int, 3>{384, 256, 16384}, {256, 512, 32768}}) {
    const Fp32Plan p = fp32_best_plan(s[0], s[1], s[2], h100);
    EXPECT_TRUE(p.stream_k || p.splits > 8) << fp32_plan_name(p) << " at " << s[0] << "x" << s[1] << "x" << s[2];
    EXPECT_LE(p.splits, 64) << fp32_plan_name(p);
  }
  EXPECT_LE(fp32_best_plan(1024, 1024, 8192, h100).splits, 8) << "a round of tiles already: the measured range";
  for (const int e : {128, 1000, 2048, 3001, 8192}) {
    const Fp32Plan p = fp32_best_plan(e, e, e, h100);
    ASSERT_GE(p.tile, 0);
    ASSERT_LT(p.tile, int(fp32_tiles().size()));
    EXPECT_GE(p.splits, 1);
  }
}

// GPUs with less shared memory than Hopper's: an RTX 4090-like sm_89 (128
// SMs, 99 KB a block, 100 KB an SM) cannot hold the 32-long 128x256 tile (149
// KB) and holds one 64x128 or 128x64 block (75 KB) per SM; an A100-like sm_80
// (108 SMs, 163 KB a block, 164 KB an SM) holds the 128x256 tile and two of either.
// Run 36 (H200): stream-k of the 128x256 k16 tile, where its tiles are
// fewer than the SMs and the model weighs it ahead; the rule's picks that
// measured ahead of the plan picked before, and shapes where it stays out.
TEST(Fp32BestRule, StreamKWhereFewerTilesThanSMs) {
  const Fp32Gpu h200 = hopper_gpu(132);
  for (const auto& s : std::vector<std::array<int, 3>>{{507, 3223, 5453},   // 107.4% of cuBLAS SGEMM against 98.1
                                                       {200, 6854, 6667},   // 110.2 against 93.3
                                                       {618, 4085, 2900}}) { // 105.1 against 93.8
    const Fp32Plan p = fp32_best_plan(s[0], s[1], s[2], h200);
    EXPECT_EQ(fp32_plan_name(p), "128x256 k16 stream-k") << s[0] << "x" << s[1] << "x" << s[2];
  }
  // Run 37: the 128x128 tile's stream-k where the 128x256 tile's was picked
  // before, ahead of it (638x5259x977 98.7 against 96.3, 498x4967x2536 104.0
  // against 88.9, 458x5402x4722 106.0 against 82.6). Run 38's refit has the
  // 128x256 tile's back at 638x5259x977, 2.4 points behind by run 37's
  // figures; it is not asserted.
  for (const auto& s : std::vector<std::array<int, 3>>{{498, 4967, 2536}, {458, 5402, 4722}})
    EXPECT_EQ(fp32_plan_name(fp32_best_plan(s[0], s[1], s[2], h200)), "128x128 k16 stream-k")
        << s[0] << "x" << s[1] << "x" << s[2];
  for (const auto& s : std::vector<std::array<int, 3>>{{4096, 4096, 4096},  // 512 tiles: several rounds
                                                       {1281, 2272, 454},   // 99 tiles, short k: 64x128 101.2 vs 96.6
                                                       {1024, 1024, 1024}}) // 32 tiles of 32 k-tiles: split 2, 115.3 vs 106.9
    EXPECT_FALSE(fp32_best_plan(s[0], s[1], s[2], h200).stream_k) << s[0] << "x" << s[1] << "x" << s[2];
}

// Run 41 (H200, fp32_tune): where the 128x256 tile's last round is 90% full
// or more and k long, the 128x128 tile's stream-k stays out only against
// that tile's grid (run 38: 3.2 points behind it at 1024x4096x4096); in
// place of another pick it ran ahead (3072x1152x3712 99.1% of cuBLAS SGEMM
// against 89.1 for the 64x64 tile's stream-k, 1920x1920x3328 109.0 against
// 97.6). And a split of C of millions of cells at short k costs its adds:
// 4140x3564x876 and 2560x5888x1152 run the 128x128 tile's stream-k (98.4
// and 99.6 against 89.7 and 94.6 split in two).
TEST(Fp32BestRule, StreamKOfThe128x128TileBesideAFullGridAndAtShortK) {
  const Fp32Gpu h200 = hopper_gpu(132);
  EXPECT_EQ(fp32_plan_name(fp32_best_plan(1024, 4096, 4096, h200)), "128x256 k16");
  for (const auto& s : std::vector<std::array<int, 3>>{
           {3072, 1152, 3712}, {1920, 1920, 3328}, {4140, 3564, 876}, {2560, 5888, 1152}})
    EXPECT_EQ(fp32_plan_name(fp32_best_plan(s[0], s[1], s[2], h200)), "128x128 k16 stream-k")
        << s[0] << "x" << s[1] << "x" << s[2];
}

TEST(Fp32BestRule, PicksOnlyTilesTheGpuHolds) {
  const Fp32Gpu ada{128, 99 * 1024, 100 * 1024}, ampere{108, 163 * 1024, 164 * 1024};
  const std::span<const Fp32Tile> tiles = fp32_tiles();
  EXPECT_EQ(fp32_blocks_per_sm(tiles[0], ada), 0);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[1], ada), 1);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[2], ada), 1);  // 128x256 k16: 99 KB
  EXPECT_EQ(fp32_blocks_per_sm(tiles[0], ampere), 1);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[1], ampere), 2);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[1], hopper_gpu(132)), 3);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[3], ada), 1);  // 128x64: 75 KB, as 64x128
  EXPECT_EQ(fp32_blocks_per_sm(tiles[3], ampere), 2);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[3], hopper_gpu(132)), 3);
  // 128x128 k16 (66 KB): one on Ada, two on Ampere and Hopper. 64x64 k16
  // (33 KB): two on Ada, four (its registers allow no more) on Ampere and Hopper.
  // 32x128 (41 KB): two on Ada, three on Ampere, five on Hopper.
  EXPECT_EQ(fp32_blocks_per_sm(tiles[4], ada), 1);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[4], ampere), 2);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[4], hopper_gpu(132)), 2);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[5], ada), 2);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[5], ampere), 4);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[5], hopper_gpu(132)), 4);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[6], ada), 2);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[6], ampere), 3);
  EXPECT_EQ(fp32_blocks_per_sm(tiles[6], hopper_gpu(132)), 5);
  EXPECT_TRUE(std::isinf(fp32_plan_cost({0, 1}, 4096, 4096, 4096, ada)));
  for (const Fp32Gpu& gpu : {ada, ampere, hopper_gpu(132), hopper_gpu(114)})
    for (const auto& s : {std::array<int, 3>{4096, 4096, 4096}, {8192, 8192, 8192}, {2048, 2048, 2048}, {1024, 1024, 1024},
                          {2560, 2560, 2560}, {3001, 4097, 2999}, {8192, 1024, 8192}, {128, 128, 128},
                          {4156, 319, 3156}, {128, 128, 65536}, {3656, 588, 1892}, {6011, 1101, 355}}) {
      const Fp32Plan p = fp32_best_plan(s[0], s[1], s[2], gpu);
      EXPECT_GT(fp32_blocks_per_sm(tiles[p.tile], gpu), 0) << fp32_plan_name(p) << " at " << s[0] << "x" << s[1] << "x" << s[2];
      EXPECT_TRUE(std::isfinite(fp32_plan_cost(p, s[0], s[1], s[2], gpu)));
    }
  // Where the 32-long tile does not fit, the 128x256 tile runs over k-tiles of 16 at every size.
  EXPECT_NE(fp32_plan_name(fp32_best_plan(8192, 8192, 8192, ada)).find("k16"), std::string::npos)
      << fp32_plan_name(fp32_best_plan(8192, 8192, 8192, ada));
}

}  // namespace
}  // namespace ts::ladder
