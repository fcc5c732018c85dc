// Strings from a file, shown: control characters escaped for a terminal,
// long strings elided for the screen.
#include <gtest/gtest.h>

#include "app/core/display_text.h"

namespace ts {
namespace {

TEST(DisplayText, ControlCharactersAreEscaped) {
  EXPECT_EQ(escape_control("naive\x1b[2J\x07"), "naive\\x1B[2J\\x07");
  EXPECT_EQ(escape_control("a\nb\x7f"), "a\\x0Ab\\x7F");
  EXPECT_EQ(escape_control("NVIDIA H100 80GB HBM3"), "NVIDIA H100 80GB HBM3");
}

TEST(DisplayText, LongStringsAreElided) {
  EXPECT_EQ(elided("short", 80), "short");
  const std::string long_name(20000, 'W');
  const std::string e = elided(long_name, 64);
  EXPECT_LE(e.size(), 64u);
  EXPECT_NE(e.find("..."), std::string::npos);
  // UTF-8 sequences stay whole: every byte of "é" (C3 A9) kept or dropped together.
  std::string accents;
  for (int i = 0; i < 100; ++i) accents += "\xC3\xA9";
  const std::string a = elided(accents, 21);
  EXPECT_LE(a.size(), 21u);
  const std::size_t dots = a.find("...");
  ASSERT_NE(dots, std::string::npos);
  EXPECT_EQ(dots % 2, 0u);
  EXPECT_EQ((a.size() - dots - 3) % 2, 0u);
}

}  // namespace
}  // namespace ts
