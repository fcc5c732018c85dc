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
  std::uint32_t per_row = 1;               // arrays per row
  std::vector<bool> stages_side_by_side;  // per array
};

// Arrays whose buffers may be laid out both ways: the first few pipelines
// (each doubles the candidates); the others keep theirs stacked.
constexpr std::size_t kFlippableArrays = 3;

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
  // Rows of per_row arrays side by side, the rows stacked.
  Box all(const Arrangement& arr, float scale) const {
    Box b;
    for (std::size_t r0 = 0; r0 < arrays.size(); r0 += arr.per_row) {
      Box row;
      for (std::size_t i = r0; i < std::min(arrays.size(), r0 + arr.per_row); ++i)
        row = join(row, array(arrays[i], arr.stages_side_by_side[i], scale), true, i == r0);
      b = join(b, row, false, r0 == 0);
    }
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
  // Every combination, the layout drawn before this search (all arrays in
  // one row, buffers stacked) first: it wins ties.
  std::vector<std::size_t> flippable;
  for (std::size_t i = 0; i < arrays.size() && flippable.size() < kFlippableArrays; ++i)
    if (arrays[i].stages >= 2) flippable.push_back(i);
  std::vector<Arrangement> candidates;
  const auto n = static_cast<std::uint32_t>(std::max<std::size_t>(1, arrays.size()));
  for (std::uint32_t per_row = n; per_row >= 1; --per_row) {
    for (std::uint32_t flips = 0; flips < (1u << flippable.size()); ++flips) {
      Arrangement a{per_row, std::vector<bool>(arrays.size(), false)};
      for (std::size_t f = 0; f < flippable.size(); ++f) a.stages_side_by_side[flippable[f]] = (flips >> f) & 1;
      candidates.push_back(std::move(a));
    }
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
  p.arrays_per_row = best.per_row;
  p.arrays_side_by_side = best.per_row > 1 && arrays.size() > 1;
  // Positions in pixels at `scale`, then in cells: row by row of arrays.
  float ay = 0;
  for (std::size_t r0 = 0; r0 < arrays.size(); r0 += best.per_row) {
    float ax = 0, row_h = 0;
    for (std::size_t i = r0; i < std::min(arrays.size(), r0 + best.per_row); ++i) {
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
      ax += b.w + best_sizer.side_gap();
      row_h = std::max(row_h, b.h);
    }
    ay += row_h + best_sizer.band();
  }
  const Box all = best_sizer.all(best, scale);
  p.world_w = all.w / scale;
  p.world_h = all.h / scale;
  return p;
}

}  // namespace ts::ui
