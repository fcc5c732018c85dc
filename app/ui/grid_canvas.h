// grid_canvas.h — an ImGui region where matrices are drawn by the app's GL
// renderer: pan (drag), zoom (wheel, around the mouse), fit, hit-testing of
// cells for hover and click, and cell numbers when cells are large enough.
// The GL draw runs inside ImGui's render pass through a draw-list callback,
// so windows over the canvas stay on top.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/render/renderer.h"

namespace ts::ui {

class GridCanvas {
 public:
  struct Grid {
    const render::GridTexture* colors = nullptr;
    float x = 0, y = 0;  // world position of cell (0, 0), in cells
    std::uint32_t rows = 0, cols = 0;
    std::uint32_t tile_rows = 1, tile_cols = 1;
    std::string label;  // drawn above the grid
    render::Rgba8 tile_line{235, 235, 235};
  };
  struct Hit {
    int grid = -1;
    std::uint32_t row = 0, col = 0;
  };
  struct Result {
    std::optional<Hit> hover, clicked;
  };
  // A grid's label as the last draw put it (window pixels; px: its font size).
  struct LabelDrawn {
    int grid = -1;
    ImVec2 min{0, 0}, max{0, 0};
    float px = 0;
  };
  // Text to draw centred in a cell when cells are large enough.
  using CellText = std::string (*)(const void* context, int grid, std::uint32_t row, std::uint32_t col);

  // Fills the available content region (height: `height`, or all that is left
  // when 0). The view is fitted to the grids whenever fit_key changes.
  Result draw(const char* id, render::Renderer* renderer, std::span<const Grid> grids,
              std::span<const render::RectDraw> rects, std::uint64_t fit_key, float height = 0.0f);
  // Numbers in cells: call right after draw(); draws only the visible cells
  // that are at least min_cell_px wide, or with shrink_to_fit every cell
  // whose text fits in a smaller font.
  void draw_cell_text(std::span<const Grid> grids, CellText text, const void* context, float min_cell_px,
                      bool shrink_to_fit = false) const;

  // Fitting keeps at least this much world (in cells, from world (0, 0)) in
  // view, where labels reach past the last grid.
  void reserve_world(float w, float h) { reserved_world_ = ImVec2(w, h); }
  // The pixels fitting gives the grids on a canvas of this size: less the
  // margins and the band above the first row for its labels.
  static ImVec2 fit_room(ImVec2 canvas_size);
  // The labels the last draw drew (those with no legible room are absent).
  const std::vector<LabelDrawn>& labels_drawn() const { return labels_drawn_; }

  // The cell under window pixel p, as hover and click find it.
  std::optional<Hit> hit(std::span<const Grid> grids, ImVec2 p) const;
  // The next draw puts world point (x, y) (in cells) at the canvas' centre at
  // this many pixels per cell, whatever fitting would do.
  void look_at(float x, float y, float pixels_per_cell) { camera_ = ImVec4(x, y, pixels_per_cell, 0.0f); }

  // Where the last draw put a grid's cell (0, 0), and the size of a cell, in window pixels.
  ImVec2 grid_origin(const Grid& g) const { return {origin_.x + g.x * scale_, origin_.y + g.y * scale_}; }
  float scale() const { return scale_; }

 private:
  static void render_callback(const ImDrawList* list, const ImDrawCmd* cmd);
  void fit(std::span<const Grid> grids);
  void draw_labels(std::span<const Grid> grids);

  // Everything the GL callback needs; lives until the frame is rendered.
  struct Packet {
    render::Renderer* renderer = nullptr;
    render::CanvasView view;
    std::vector<render::GridDraw> grids;
    std::vector<render::RectDraw> rects;
  };
  Packet packet_;
  ImVec2 canvas_pos_{0, 0}, canvas_size_{0, 0};
  ImVec2 origin_{0, 0};  // window pixels of world (0, 0)
  float scale_ = 0.0f;   // pixels per cell
  std::uint64_t fitted_key_ = ~0ull;
  ImVec2 fitted_canvas_{0, 0};
  bool dragging_ = false;
  std::optional<ImVec4> camera_;  // look_at's x, y, pixels per cell
  ImVec2 reserved_world_{0, 0};
  std::vector<LabelDrawn> labels_drawn_;
};

}  // namespace ts::ui
