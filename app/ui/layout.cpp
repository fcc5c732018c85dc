// layout.cpp — columns, stacks and grids of windows in whole pixels.
#include "app/ui/layout.h"

#include <algorithm>
#include <cmath>

namespace ts::ui {
namespace {

// Whole pixels: neighbours share an edge and never overlap by a fraction.
Rect snap(float x0, float y0, float x1, float y1) {
  x0 = std::round(x0), y0 = std::round(y0), x1 = std::round(x1), y1 = std::round(y1);
  return {x0, y0, std::max(0.0f, x1 - x0), std::max(0.0f, y1 - y0)};
}

// A window shorter than this shows little more than its title bar.
float min_panel_height(float font) { return 4.0f * font; }
// Three lines of notices (more scroll inside the strip).
float notices_height(float font) { return 3.0f * std::round(font * 1.3f) + 18.0f; }

Rect take_top(Rect& area, float h) {
  h = std::clamp(std::round(h), 0.0f, area.h);
  const Rect top{area.x, area.y, area.w, h};
  area.y += h;
  area.h -= h;
  return top;
}

Rect take_bottom(Rect& area, float h) {
  h = std::clamp(std::round(h), 0.0f, area.h);
  area.h -= h;
  return {area.x, area.y + area.h, area.w, h};
}

Rect take_left(Rect& area, float w) {
  w = std::clamp(std::round(w), 0.0f, area.w);
  const Rect left{area.x, area.y, w, area.h};
  area.x += w;
  area.w -= w;
  return left;
}

// Fills `area` with the items: one column stacked by weight when each gets at
// least min_h and is not a sliver (at least a quarter as tall as wide), else
// a grid whose cells are as large as possible (a little wider than tall,
// like the panels' contents).
void fill(const Rect& area, const std::vector<int>& ids, const std::vector<LayoutItem>& items, float min_h,
          std::vector<Rect>& out) {
  const int n = static_cast<int>(ids.size());
  if (n == 0 || area.empty()) return;
  if (area.h / n >= std::max(min_h, area.w / 4)) {
    float total = 0;
    for (int id : ids) total += std::max(0.05f, items[id].weight);
    float acc = 0;
    for (int id : ids) {
      const float y0 = area.y + area.h * acc / total;
      acc += std::max(0.05f, items[id].weight);
      out[id] = snap(area.x, y0, area.right(), area.y + area.h * acc / total);
    }
    return;
  }
  int best_cols = 1;
  float best = -1;
  for (int cols = 1; cols <= n; ++cols) {
    const int rows = (n + cols - 1) / cols;
    const float score = std::min(area.w / cols / 1.5f, area.h / rows);
    if (score > best) best = score, best_cols = cols;
  }
  const int rows = (n + best_cols - 1) / best_cols;
  for (int i = 0; i < n; ++i) {
    const int r = i / best_cols, c = i % best_cols;
    out[ids[i]] = snap(area.x + area.w * c / best_cols, area.y + area.h * r / rows, area.x + area.w * (c + 1) / best_cols,
                       area.y + area.h * (r + 1) / rows);
  }
}

float fixed_height(const LayoutItem& item, float width) { return item.height_for_width ? item.height_for_width(width) : 0; }

// A column: `top` items of fixed height first, then the rest filling what is
// left above the notices strip (when the column keeps it).
void column(Rect area, const std::vector<int>& top, const std::vector<int>& rest, const std::vector<LayoutItem>& items,
            float font, Rect* notices, std::vector<Rect>& out) {
  if (notices) *notices = take_bottom(area, notices_height(font));
  for (int id : top) out[id] = take_top(area, fixed_height(items[id], area.w));
  fill(area, rest, items, min_panel_height(font), out);
}

}  // namespace

LayoutResult compute_layout(const Rect& work, const std::vector<LayoutItem>& items, bool presentation, float font) {
  LayoutResult result;
  result.panels.assign(items.size(), Rect{});
  std::vector<int> left, center, bottom, right, tools;
  for (int i = 0; i < static_cast<int>(items.size()); ++i) {
    switch (items[i].slot) {
      case PanelSlot::Left: left.push_back(i); break;
      case PanelSlot::Center: center.push_back(i); break;
      case PanelSlot::Bottom: bottom.push_back(i); break;
      case PanelSlot::Right: right.push_back(i); break;
      case PanelSlot::Float: tools.push_back(i); break;
    }
  }
  Rect area = work;
  auto& out = result.panels;

  if (presentation) {
    // The matrices: a square as tall as the window (they are about square),
    // leaving the side column at least 30% of the width and 14 letters.
    if (!center.empty()) {
      const float side_min = std::max(0.3f * work.w, 14.0f * font);
      const Rect m = take_left(area, std::min(work.w - side_min, std::max(work.h, 0.5f * work.w)));
      fill(m, center, items, 0, out);
    }
    std::vector<int> rest = right;  // the step explanation first, then whatever else was asked for
    rest.insert(rest.end(), left.begin(), left.end());
    rest.insert(rest.end(), tools.begin(), tools.end());
    column(area, bottom, rest, items, font, &result.notices, out);
    return result;
  }

  const float k = font / 16.0f;
  const bool middle = !center.empty() || !bottom.empty() || !tools.empty();
  Rect left_col = left.empty() ? Rect{} : take_left(area, std::min(0.3f * work.w, 300.0f * k));
  Rect right_col{};
  if (!right.empty() || !middle) {
    const float w = middle ? std::min(0.35f * work.w, 390.0f * k) : area.w;
    right_col = {area.right() - std::round(w), area.y, std::round(w), area.h};
    area.w -= right_col.w;
  }
  if (!middle && right.empty() && !left.empty()) left_col.w += area.w;  // nothing else: Controls take it all
  // The column that keeps the notices: the right one, else the centre, else the left.
  Rect* notices = &result.notices;
  if (right_col.w > 0) {
    column(right_col, {}, right, items, font, notices, out);
    notices = nullptr;
  }
  if (middle) {
    Rect c = area;
    if (notices) {
      result.notices = take_bottom(c, notices_height(font));
      notices = nullptr;
    }
    if (!tools.empty()) {
      const Rect t = take_bottom(c, center.empty() ? c.h : std::round(0.42f * c.h));
      fill(t, tools, items, min_panel_height(font), out);
    }
    // The transport under the matrices, the matrices above it.
    for (auto it = bottom.rbegin(); it != bottom.rend(); ++it) out[*it] = take_bottom(c, fixed_height(items[*it], c.w));
    fill(c, center, items, 0, out);
  }
  if (left_col.w > 0) column(left_col, {}, left, items, font, notices, out);
  return result;
}

}  // namespace ts::ui
