// layout.h — the default arrangement of the app's windows, computed from the
// window's size (again whenever it changes): no window outside the screen,
// none over another, the matrices the largest. Pure geometry, no ImGui, so
// the rules are unit-tested (tests/ui/layout_test.cpp) as well as checked on
// screen by the window tests.
//
// Normal mode: Controls on the left; the matrices in the centre with the
// Replay transport under them and any tool windows (Occupancy, SM timeline,
// ...) in a grid below; the inspection panels stacked on the right.
// Presentation mode (a projector): the matrices take a square as tall as the
// window on the left; the Replay controls, the step explanation and whatever
// else was asked for share the column beside them.
// Either way a strip at the bottom of the last column is kept for notices,
// so they never cover a panel.
#pragma once

#include <functional>
#include <vector>

#include "app/ui/panel.h"

namespace ts::ui {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  bool empty() const { return w <= 0 || h <= 0; }
  // True when the interiors intersect (rectangles that only touch do not).
  bool overlaps(const Rect& o) const { return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom(); }
  bool inside(const Rect& o) const { return x >= o.x && y >= o.y && right() <= o.right() && bottom() <= o.bottom(); }
};

struct LayoutItem {
  PanelSlot slot = PanelSlot::Float;
  float weight = 1.0f;
  // When set, the window is exactly this tall for a given width (the Replay
  // transport: as many rows as its buttons need); else it shares what is left.
  std::function<float(float width)> height_for_width;
};

struct LayoutResult {
  std::vector<Rect> panels;  // one per item, in item order
  Rect notices;              // the strip kept for notices
};

// `work` is the window below the menu bar; `font_px` the body font's size
// (widths and minimum heights grow with the text).
LayoutResult compute_layout(const Rect& work, const std::vector<LayoutItem>& items, bool presentation, float font_px);

}  // namespace ts::ui
