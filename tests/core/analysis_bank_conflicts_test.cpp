// n-way conflicts and wavefronts of one warp-level shared access, worked out by hand.
#include <gtest/gtest.h>

#include <bit>
#include <vector>

#include "app/core/analysis/bank_conflicts.h"

namespace ts {
namespace {

std::vector<std::uint64_t> words_from(std::uint64_t first_word, std::uint64_t stride_words, int lanes = 32) {
  std::vector<std::uint64_t> a;
  for (int l = 0; l < lanes; ++l) a.push_back((first_word + l * stride_words) * 4);
  return a;
}

TEST(BankConflicts, ConsecutiveWordsHitEveryBankOnce) {
  const BankAccess b = shared_bank_access(words_from(0, 1));
  EXPECT_EQ(b.ways, 1u);
  EXPECT_EQ(b.wavefronts(), 1u);
  EXPECT_EQ(b.conflicts(), 0u);
  EXPECT_EQ(b.broadcast_lanes, 0u);
}

TEST(BankConflicts, ThirtyTwoLanesOnOneBankDifferentWordsAreThirtyTwoWay) {
  // Column 5 of a 32 x 32 tile: every word is in bank 5.
  const BankAccess b = shared_bank_access(words_from(5, 32));
  EXPECT_EQ(b.distinct_words, 32u);
  EXPECT_EQ(b.ways, 32u);
  EXPECT_EQ(b.wavefronts(), 32u);
  EXPECT_EQ(b.conflicts(), 31u);
}

TEST(BankConflicts, OnePaddingWordPerRowRemovesTheConflict) {
  // Column 5 of a 32 x 33 tile: stride 33 words walks through all banks.
  const BankAccess b = shared_bank_access(words_from(5, 33));
  EXPECT_EQ(b.ways, 1u);
  EXPECT_EQ(b.conflicts(), 0u);
}

TEST(BankConflicts, SameWordIsABroadcastNotAConflict) {
  const BankAccess b = shared_bank_access(std::vector<std::uint64_t>(32, 7 * 4));
  EXPECT_EQ(b.distinct_words, 1u);
  EXPECT_EQ(b.ways, 1u);
  EXPECT_EQ(b.conflicts(), 0u);
  EXPECT_EQ(b.broadcast_lanes, 32u);
}

TEST(BankConflicts, StrideTwoIsTwoWay) {
  const BankAccess b = shared_bank_access(words_from(0, 2));
  EXPECT_EQ(b.ways, 2u);
  EXPECT_EQ(b.conflicts(), 1u);
}

TEST(BankConflicts, BroadcastAndConflictTogether) {
  // Lanes 0..15 read word 0, lanes 16..31 read words 32, 64, ..., all bank 0:
  // bank 0 delivers 17 distinct words, so 17 wavefronts.
  std::vector<std::uint64_t> a(16, 0);
  for (int l = 1; l <= 16; ++l) a.push_back(l * 32 * 4);
  const BankAccess b = shared_bank_access(a);
  EXPECT_EQ(b.distinct_words, 17u);
  EXPECT_EQ(b.ways, 17u);
  EXPECT_EQ(b.broadcast_lanes, 16u);
}

TEST(BankConflicts, TwoHalfWarpsReadingTheSameRowBroadcast) {
  // tiled, TILE = 16: a warp is two rows of 16 threads; Bs[k][tx] gives both
  // halves the same 16 words.
  std::vector<std::uint64_t> a = words_from(3 * 16, 1, 16);
  const std::vector<std::uint64_t> again = a;
  a.insert(a.end(), again.begin(), again.end());
  const BankAccess b = shared_bank_access(a);
  EXPECT_EQ(b.ways, 1u);
  EXPECT_EQ(b.broadcast_lanes, 32u);
}

TEST(BankConflicts, NoLanesNoWavefronts) {
  const BankAccess b = shared_bank_access({});
  EXPECT_EQ(b.wavefronts(), 0u);
  EXPECT_EQ(b.conflicts(), 0u);
}

TEST(BankConflicts, BankViewServesEachBanksWordsInAddressOrder) {
  const std::vector<std::uint64_t> offsets = words_from(0, 16, 4);  // words 0, 16, 32, 48
  const std::vector<std::uint32_t> lanes = {0, 1, 2, 3};
  const std::vector<BankWavefront> w = bank_wavefronts(offsets, 4, lanes);
  ASSERT_EQ(w.size(), 2u);  // banks 0 and 16 deliver two words each
  EXPECT_FALSE(w[0].conflict);
  EXPECT_TRUE(w[1].conflict);
  EXPECT_EQ(w[0].word[0], 0);
  EXPECT_EQ(w[1].word[0], 32);
  EXPECT_EQ(w[0].lanes[0], 1u << 0);
  EXPECT_EQ(w[1].lanes[0], 1u << 2);
  EXPECT_EQ(w[0].word[16], 16);
  EXPECT_EQ(w[1].lanes[16], 1u << 3);
  EXPECT_EQ(w[0].word[1], -1);
  EXPECT_EQ(bank_of(33 * 4), 1u);
}

TEST(BankConflicts, BankViewHasAsManyWavefrontsAsTheCount) {
  // Random accesses of every width, lanes and op: the view's rows are the
  // model's wavefronts, a phase's first row no conflict, every lane's words
  // delivered once.
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 33);
  };
  for (int round = 0; round < 2000; ++round) {
    const std::uint32_t bytes = 4u << (next() % 3);
    const Op op = next() % 4 == 0 ? Op::Store : Op::Load;
    const std::uint32_t spread = 1 + next() % 64;  // distinct slots to draw from: small means broadcasts and pairs
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint32_t> lanes;
    for (std::uint32_t l = 0; l < 32; ++l) {
      if (next() % 8 == 0) continue;  // inactive
      const std::uint32_t slot = next() % 3 == 0 && !offsets.empty() ? static_cast<std::uint32_t>(offsets.back() / bytes)
                                                                     : next() % spread * (1 + next() % 3);
      offsets.push_back(static_cast<std::uint64_t>(slot) * bytes);
      lanes.push_back(l);
    }
    const BankAccess b = shared_bank_access(offsets, bytes, lanes, op);
    const std::vector<BankWavefront> w = bank_wavefronts(offsets, bytes, lanes, op);
    ASSERT_EQ(w.size(), b.wavefronts()) << round;
    std::uint32_t conflicts = 0, delivered = 0;
    for (const BankWavefront& row : w) {
      conflicts += row.conflict;
      for (std::uint32_t bank = 0; bank < kBanks; ++bank) {
        if (row.word[bank] >= 0) {
          EXPECT_EQ(static_cast<std::uint64_t>(row.word[bank]) % kBanks, bank);
        }
        delivered += static_cast<std::uint32_t>(std::popcount(row.lanes[bank]));
      }
    }
    EXPECT_EQ(conflicts, b.conflicts()) << round;
    EXPECT_EQ(delivered, offsets.size() * (bytes / 4)) << round;  // each lane's every word, once
  }
}

// cp.async copies whose lanes read several 128-byte lines of global memory
// (bank_conflicts.h; measured on an H100: tests/core/shipped_gpu_results_test.cpp).
TEST(BankConflicts, ACopyTakesAWavefrontPerFurtherSourceLine) {
  std::vector<std::uint64_t> src;
  std::vector<std::uint32_t> lanes;
  // double-buffer's copies of A: lane l reads row l / 8 of A (rows 16 KiB apart), 4 rows a warp.
  for (std::uint32_t l = 0; l < 32; ++l) src.push_back(4096 * 4 * (l / 8) + 4 * (l % 8)), lanes.push_back(l);
  EXPECT_EQ(copy_line_wavefronts(src, lanes, 4), 3u);
  // 8-byte copies go by half-warps: 2 rows in each.
  EXPECT_EQ(copy_line_wavefronts(src, lanes, 8), 2u);
  // 16-byte copies: no rule.
  EXPECT_EQ(copy_line_wavefronts(src, lanes, 16), 0u);
  // One line, or no lanes: nothing more.
  EXPECT_EQ(copy_line_wavefronts(words_from(0, 1), {}, 4), 0u);
  EXPECT_EQ(copy_line_wavefronts({}, {}, 4), 0u);
  // Zero fills read nothing: the lanes of rows 1 and 3 are absent, two lines remain.
  std::vector<std::uint64_t> some;
  std::vector<std::uint32_t> some_lanes;
  for (std::uint32_t l = 0; l < 32; ++l)
    if ((l / 8) % 2 == 0) some.push_back(src[l]), some_lanes.push_back(l);
  EXPECT_EQ(copy_line_wavefronts(some, some_lanes, 4), 1u);
  // Each lane its own line: 31 more for 4 bytes, 15 per half-warp for 8.
  std::vector<std::uint64_t> apart;
  for (std::uint32_t l = 0; l < 32; ++l) apart.push_back(128 * l + 4 * l);
  EXPECT_EQ(copy_line_wavefronts(apart, lanes, 4), 31u);
  EXPECT_EQ(copy_line_wavefronts(apart, lanes, 8), 30u);
}

}  // namespace
}  // namespace ts
