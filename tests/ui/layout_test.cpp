// The default window layout's rules, at the window sizes the app must fit
// (a projector's 1280 x 720 up to 1920 x 1080): every window inside, none
// over another or over the notices strip, and the matrices the largest.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/ui/layout.h"

namespace ts::ui {
namespace {

// The app's panels: Controls, Matrices, Replay (rows of buttons), the four
// inspection panels, and the six tool windows.
std::vector<LayoutItem> app_items(bool tools, float replay_height) {
  std::vector<LayoutItem> items{{PanelSlot::Left, 1.0f, {}},
                                {PanelSlot::Center, 1.0f, {}},
                                {PanelSlot::Bottom, 1.0f, [=](float) { return replay_height; }},
                                {PanelSlot::Right, 1.4f, {}},
                                {PanelSlot::Right, 1.0f, {}},
                                {PanelSlot::Right, 1.0f, {}},
                                {PanelSlot::Right, 0.9f, {}}};
  if (tools)
    for (int i = 0; i < 6; ++i) items.push_back({PanelSlot::Float, 1.0f, {}});
  return items;
}

struct Size {
  float w, h;
};
constexpr Size kSizes[] = {{1280, 720}, {1600, 1000}, {1920, 1080}};

void expect_tiled(const Rect& work, const LayoutResult& r, const std::string& what) {
  SCOPED_TRACE(what);
  std::vector<Rect> all = r.panels;
  all.push_back(r.notices);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_FALSE(all[i].empty()) << "window " << i;
    EXPECT_TRUE(all[i].inside(work)) << "window " << i << " at " << all[i].x << "," << all[i].y << " " << all[i].w
                                     << "x" << all[i].h;
    for (std::size_t j = i + 1; j < all.size(); ++j) EXPECT_FALSE(all[i].overlaps(all[j])) << i << " and " << j;
  }
}

TEST(Layout, EveryWindowInsideAndNoneOverAnotherAtEverySizeAndMode) {
  for (const Size& s : kSizes)
    for (bool presentation : {false, true})
      for (bool tools : {false, true}) {
        const Rect work{0, 25, s.w, s.h - 25};
        const float font = presentation ? 30.0f : 16.0f;
        const LayoutResult r = compute_layout(work, app_items(tools, 3 * font + 40), presentation, font);
        expect_tiled(work, r,
                     std::to_string(int(s.w)) + "x" + std::to_string(int(s.h)) + (presentation ? " presentation" : "") +
                         (tools ? " with every tool window" : ""));
      }
}

TEST(Layout, PresentationModeGivesTheMatricesASquareAsTallAsTheWindow) {
  for (const Size& s : kSizes)
    for (bool tools : {false, true}) {
      const Rect work{0, 28, s.w, s.h - 28};
      const LayoutResult r = compute_layout(work, app_items(tools, 200), true, 30.0f);
      const Rect& m = r.panels[1];
      EXPECT_EQ(m.h, work.h);
      EXPECT_GE(m.w, work.h * 0.99f);
      // A square of that size is over 40% of the window (the on-screen rule).
      EXPECT_GE(std::min(m.w, m.h) * std::min(m.w, m.h), 0.4f * s.w * s.h * 1.1f) << s.w << "x" << s.h;
    }
}

TEST(Layout, TheReplayTransportGetsTheHeightItsRowsNeed) {
  const Rect work{0, 20, 1280, 700};
  const LayoutResult normal = compute_layout(work, app_items(false, 97), false, 16.0f);
  EXPECT_EQ(normal.panels[2].h, 97);
  EXPECT_EQ(normal.panels[2].y, normal.panels[1].bottom());  // right under the matrices
  EXPECT_EQ(normal.panels[2].x, normal.panels[1].x);
  const LayoutResult big = compute_layout(work, app_items(false, 210), true, 30.0f);
  EXPECT_EQ(big.panels[2].h, 210);
  EXPECT_EQ(big.panels[2].x, big.panels[1].right());  // beside the matrices
}

TEST(Layout, ManyPanelsInANarrowColumnFormAGridNotSlivers) {
  const Rect work{0, 0, 1280, 700};
  const LayoutResult r = compute_layout(work, app_items(true, 200), true, 30.0f);
  for (std::size_t i = 3; i < r.panels.size(); ++i) EXPECT_GE(r.panels[i].h, 3 * 30.0f) << i;
}

TEST(Layout, ToolWindowsUnderWideMatricesFormAGridNotStrips) {
  const LayoutResult r = compute_layout({0, 20, 1920, 1060}, app_items(true, 90), false, 16.0f);
  for (std::size_t i = 7; i < r.panels.size(); ++i) EXPECT_GE(r.panels[i].h * 4, r.panels[i].w) << i;
}

TEST(Layout, ANewSizeGivesANewLayout) {
  const auto items = app_items(false, 90);
  const LayoutResult a = compute_layout({0, 20, 1280, 700}, items, false, 16.0f);
  const LayoutResult b = compute_layout({0, 20, 1920, 1060}, items, false, 16.0f);
  EXPECT_GT(b.panels[1].w, a.panels[1].w);
  EXPECT_GT(b.panels[1].h, a.panels[1].h);
}

}  // namespace
}  // namespace ts::ui
