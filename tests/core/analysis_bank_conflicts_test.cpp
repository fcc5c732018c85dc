// n-way conflicts and wavefronts of one warp-level shared access, worked out by hand.
#include <gtest/gtest.h>

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

TEST(BankConflicts, BankViewListsTheLanesOfEachBank) {
  const std::vector<std::uint64_t> offsets = words_from(0, 16, 4);  // words 0, 16, 32, 48
  const std::vector<std::uint32_t> lanes = {0, 1, 2, 3};
  const BankLanes v = bank_lanes(offsets, lanes);
  EXPECT_EQ(v.lanes[0], (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(v.lanes[16], (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(v.distinct_words[0], 2u);
  EXPECT_EQ(v.distinct_words[1], 0u);
  EXPECT_EQ(bank_of(33 * 4), 1u);
}

}  // namespace
}  // namespace ts
