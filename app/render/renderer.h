// renderer.h — the app's own OpenGL drawing: matrices as instanced grids
// (one instance per tile, a colour texel per cell) and highlight rectangles
// (one instance each), through the GLSL shaders in shaders/. Never one call
// per cell: a matrix of any size is one draw call.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "app/render/gl_program.h"

namespace ts::render {

struct Rgba8 {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(const Rgba8&, const Rgba8&) = default;
};

// One colour per cell of a matrix, on the GPU.
class GridTexture {
 public:
  GridTexture() = default;
  ~GridTexture();
  GridTexture(const GridTexture&) = delete;
  GridTexture& operator=(const GridTexture&) = delete;
  // colors: rows * cols, row-major. Reallocates only when the shape changes.
  void upload(std::uint32_t rows, std::uint32_t cols, std::span<const Rgba8> colors);
  unsigned id() const { return id_; }
  std::uint32_t rows() const { return rows_; }
  std::uint32_t cols() const { return cols_; }

 private:
  unsigned id_ = 0;
  std::uint32_t rows_ = 0, cols_ = 0;
};

// Where the canvas is and how the world (in cells) maps onto it.
struct CanvasView {
  int fb_x = 0, fb_y = 0, fb_w = 1, fb_h = 1;  // the canvas in framebuffer pixels, GL origin (bottom left)
  float width = 1, height = 1;                 // the canvas in drawing units (what the shaders' pixels are)
  float origin_x = 0, origin_y = 0;            // where world (0, 0) lands, from the canvas' top left
  float scale = 1;                             // units per cell
};

struct GridDraw {
  const GridTexture* colors = nullptr;
  float x = 0, y = 0;  // world position of cell (0, 0)'s corner, in cells
  std::uint32_t tile_rows = 1, tile_cols = 1;
  Rgba8 cell_line{0, 0, 0, 90}, tile_line{230, 230, 230, 255};
};

struct RectDraw {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // world, in cells
  Rgba8 color;
  float thickness = 2.0f;  // outline width in units
  bool filled = false;     // fill (blended by color.a) plus the outline
};

class Renderer {
 public:
  // Needs a current OpenGL 3.3 core context; returns an error message, empty on success.
  std::string init();
  ~Renderer();
  // Draws into the canvas of the current framebuffer (over what is there:
  // the window's background, or the frame's clear colour); leaves
  // blending, scissor and viewport as it found them (ImGui restores the rest).
  void draw(const CanvasView& view, std::span<const GridDraw> grids, std::span<const RectDraw> rects);
  int max_texture_size() const { return max_texture_size_; }

 private:
  GlProgram grid_, rect_;
  unsigned vao_ = 0, rect_vbo_ = 0;
  std::vector<float> rect_data_;
  int max_texture_size_ = 0;
};

}  // namespace ts::render
