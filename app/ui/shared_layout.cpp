// shared_layout.cpp — the Shared memory panel's arrangement search.
#include "app/ui/shared_layout.h"

#include <algorithm>
#include <cmath>

#include "app/ui/grid_scale.h"

namespace ts::ui {
namespace {

// Label sizes tried, as fractions of the font: below 0.65 of a 16 px font a
// label is hard to read on a projector.
constexpr float kLabelScales[] = {1.0f, 0.8f, 0.65f};
constexpr float kGainToSwitch = 1.05f;

struct Box {
  float w = 0, h = 0;
};

struct Arrangement {
  bool arrays_side_by_side = true;
  bool stages_side_by_side[2] = {false, false};
};

// The pixels each grid takes at `scale`, its label's room included: a grid is
// at least as wide as its label, and a grid under another has a band above it.
struct Sizer {
  std::span<const SharedArrayShape> arrays;
  float font = 16, label_scale = 1;

  float band() const { return kLabelBandFonts * font * label_scale; }
  float side_gap() const { return kSideGapFonts * font; }
  Box grid(const SharedArrayShape& a, float scale) const {
    return {std::max(a.cols * scale, a.label_px * label_scale), a.rows * scale};
  }
  // n boxes in a row or a column.
  Box join(Box total, Box next, bool side_by_side, bool first) const {
    if (first) return next;
    if (side_by_side) return {total.w + side_gap() + next.w, std::max(total.h, next.h)};
    return {std::max(total.w, next.w), total.h + band() + next.h};
  }
  Box array(const SharedArrayShape& a, bool stages_side_by_side, float scale) const {
    Box b;
    for (std::uint32_t s = 0; s < a.stages; ++s) b = join(b, grid(a, scale), stages_side_by_side, s == 0);
    return b;
  }
  Box all(const Arrangement& arr, float scale) const {
    Box b;
    for (std::size_t i = 0; i < arrays.size(); ++i)
      b = join(b, array(arrays[i], arr.stages_side_by_side[i], scale), arr.arrays_side_by_side, i == 0);
    return b;
  }
};

// The largest scale at which the arrangement fits the room; 0 if none does.
float largest_scale(const Sizer& sizer, const Arrangement& arr, float room_w, float room_h) {
  auto fits = [&](float s) {
    const Box b = sizer.all(arr, s);
    return b.w <= room_w && b.h <= room_h;
  };
  if (!fits(kMinGridScale)) return 0.0f;
  if (fits(kMaxGridScale)) return kMaxGridScale;
  float lo = kMinGridScale, hi = kMaxGridScale;  // fits(lo), !fits(hi): bisect in log space
  for (int i = 0; i < 40; ++i) {
    const float mid = std::sqrt(lo * hi);
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

SharedPlacement place_shared_arrays(std::span<const SharedArrayShape> arrays, float room_w, float room_h,
                                    float font_px) {
  arrays = arrays.first(std::min<std::size_t>(arrays.size(), 2));
  // Every combination, the layout drawn before this search (As beside Bs,
  // buffers stacked) first: it wins ties.
  std::vector<Arrangement> candidates;
  for (bool side : {true, false})
    for (bool s0 : {false, true})
      for (bool s1 : {false, true}) {
        if ((s0 && (arrays.empty() || arrays[0].stages < 2)) || (s1 && (arrays.size() < 2 || arrays[1].stages < 2)))
          continue;
        candidates.push_back({side, {s0, s1}});
      }
  Sizer best_sizer{arrays, font_px, kLabelScales[2]};
  Arrangement best = candidates.front();
  float best_scale = 0, best_score = 0;
  for (float label_scale : kLabelScales) {
    const Sizer sizer{arrays, font_px, label_scale};
    for (const Arrangement& arr : candidates) {
      const float s = largest_scale(sizer, arr, room_w, room_h);
      // Smaller labels only when the cells grow more than the labels shrink;
      // a later arrangement only for a visible gain (mixing rows and columns
      // of buffers for 2% reads worse than the plain grid it replaces).
      if (s * label_scale > best_score * kGainToSwitch) {
        best_score = s * label_scale;
        best_scale = s;
        best = arr;
        best_sizer = sizer;
      }
    }
  }
  // Nothing fits (a window too small): the first arrangement, as small as the canvas goes.
  const float scale = best_scale > 0 ? best_scale : kMinGridScale;

  SharedPlacement p;
  p.scale = scale;
  p.label_scale = best_sizer.label_scale;
  p.arrays_side_by_side = best.arrays_side_by_side;
  // Positions in pixels at `scale`, then in cells.
  float ax = 0, ay = 0;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const SharedArrayShape& a = arrays[i];
    const bool row = best.stages_side_by_side[i];
    p.stages_side_by_side.push_back(row);
    std::vector<SharedPlacement::Origin> origins;
    float x = ax, y = ay;
    const Box g = best_sizer.grid(a, scale);
    for (std::uint32_t s = 0; s < a.stages; ++s) {
      origins.push_back({x / scale, y / scale});
      if (row) x += g.w + best_sizer.side_gap();
      else y += g.h + best_sizer.band();
    }
    p.origins.push_back(std::move(origins));
    const Box b = best_sizer.array(a, row, scale);
    if (best.arrays_side_by_side) ax += b.w + best_sizer.side_gap();
    else ay += b.h + best_sizer.band();
  }
  const Box all = best_sizer.all(best, scale);
  p.world_w = all.w / scale;
  p.world_h = all.h / scale;
  return p;
}

}  // namespace ts::ui
