// Sectors and lines of one warp-level global access, worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "app/core/analysis/coalescing.h"

namespace ts {
namespace {

std::vector<std::uint64_t> floats_from(std::uint64_t base, std::uint64_t stride_bytes, int lanes = 32) {
  std::vector<std::uint64_t> a;
  for (int l = 0; l < lanes; ++l) a.push_back(base + l * stride_bytes);
  return a;
}

TEST(Coalescing, ThirtyTwoConsecutiveFloatsAreFourSectorsOneLine) {
  const GlobalFootprint f = global_footprint(floats_from(0x10000, 4));
  EXPECT_EQ(f.lanes, 32u);
  EXPECT_EQ(f.words, 32u);
  EXPECT_EQ(f.sectors, 4u);
  EXPECT_EQ(f.lines, 1u);
  EXPECT_EQ(f.ideal_sectors(), 4u);
}

TEST(Coalescing, ThirtyTwoFloatsARowApartAreThirtyTwoSectors) {
  // Rows of 64 floats: lane l reads A[l][0], 256 bytes after lane l - 1.
  const GlobalFootprint f = global_footprint(floats_from(0x10000, 64 * 4));
  EXPECT_EQ(f.sectors, 32u);
  EXPECT_EQ(f.lines, 32u);
  EXPECT_EQ(f.ideal_sectors(), 4u);  // 128 bytes of data in 1024 bytes of sectors
}

TEST(Coalescing, MisalignedRunsSpillIntoAnotherSectorAndLine) {
  // 128 bytes starting one float into a line: bytes 4..131 touch sectors 0..4.
  const GlobalFootprint by_one = global_footprint(floats_from(0x10004, 4));
  EXPECT_EQ(by_one.sectors, 5u);
  EXPECT_EQ(by_one.lines, 2u);
  // Starting half a line in: sectors 2..5, still four, but two lines.
  const GlobalFootprint by_half = global_footprint(floats_from(0x10040, 4));
  EXPECT_EQ(by_half.sectors, 4u);
  EXPECT_EQ(by_half.lines, 2u);
}

TEST(Coalescing, EveryLaneOnOneFloatIsOneSector) {
  const GlobalFootprint f = global_footprint(std::vector<std::uint64_t>(32, 0x2000 + 12));
  EXPECT_EQ(f.words, 1u);
  EXPECT_EQ(f.sectors, 1u);
  EXPECT_EQ(f.lines, 1u);
}

TEST(Coalescing, StrideOfTwoFloatsTouchesEightSectors) {
  const GlobalFootprint f = global_footprint(floats_from(0, 8));
  EXPECT_EQ(f.sectors, 8u);
  EXPECT_EQ(f.lines, 2u);
  EXPECT_EQ(f.ideal_sectors(), 4u);
}

TEST(Coalescing, LaneOrderDoesNotMatterAndInactiveLanesCostNothing) {
  std::vector<std::uint64_t> a = floats_from(0x1000, 4, 16);  // half the warp: 64 bytes, 2 sectors
  std::reverse(a.begin(), a.end());
  const GlobalFootprint f = global_footprint(a);
  EXPECT_EQ(f.lanes, 16u);
  EXPECT_EQ(f.sectors, 2u);
  EXPECT_EQ(global_footprint({}).sectors, 0u);
}

TEST(Coalescing, TouchedSectorsForTheWarpView) {
  const std::vector<std::uint64_t> s = touched_sectors(floats_from(0x100, 4));
  EXPECT_EQ(s, (std::vector<std::uint64_t>{8, 9, 10, 11}));
}

}  // namespace
}  // namespace ts
