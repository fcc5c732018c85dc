// shared_layout.h — where the Shared memory panel puts its buffers. A ladder
// rung's tiles are wide (128 or 132 words a row) or tall (128 rows), and a
// pipeline has 2 or 3 buffers of each; laid out one way in a side panel their
// cells are a pixel wide and their labels have no room. A kernel of its own
// may have any number of regions (sa, sb, a staged tile of C ...). This picks,
// among the arrays in rows of 1, 2 ... n (As beside / above Bs for two) and
// each array's buffers stacked / in a row, the arrangement whose cells are
// the largest with every label on a band of its own, wide enough for its text
// (shrinking the labels only when that buys more than it costs). Pure
// arithmetic on pixels: no ImGui, tested without a window.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace ts::ui {

// One shared array as the panel draws it: `stages` buffers of rows x cols
// words, and the width in pixels (at full font size) of its widest label.
struct SharedArrayShape {
  std::uint32_t stages = 1, rows = 0, cols = 0;
  float label_px = 0;
};

struct SharedPlacement {
  float scale = 0;         // pixels per cell the arrangement reaches in the room
  float label_scale = 1;   // of the font, that every label has room for
  bool arrays_side_by_side = true;  // more than one array in a row
  std::uint32_t arrays_per_row = 1;  // rows of arrays, filled left to right
  std::vector<bool> stages_side_by_side;  // per array
  // World position (in cells) of each array's each buffer's cell (0, 0).
  struct Origin {
    float x = 0, y = 0;
  };
  std::vector<std::vector<Origin>> origins;
  // The world to keep in view, in cells: the grids and the labels' room past them.
  float world_w = 0, world_h = 0;
};

// room_w x room_h: the pixels the grids and the bands between them may take
// (the canvas less its margins and the label band above the first row).
SharedPlacement place_shared_arrays(std::span<const SharedArrayShape> arrays, float room_w, float room_h,
                                    float font_px);

// The gaps the placement leaves, in pixels at label_scale 1: a label band
// above every grid below another (labels are drawn up to 0.8 of it), and the
// gap between grids side by side.
inline constexpr float kLabelBandFonts = 1.35f, kSideGapFonts = 0.75f;

}  // namespace ts::ui
