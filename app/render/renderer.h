// renderer.h — the app's own OpenGL drawing: matrices as grids (one quad
// each, a colour texel per cell, tile lines drawn by the fragment shader) and
// highlight rectangles (one instance each), through the GLSL shaders in
// shaders/. Never one call per cell: a matrix of any size is one draw call.
//
// Level of detail: when a cell is smaller than a pixel (N = 4096 fitted in a
// window), each pixel shows a texel of a coarser level, which stands for
// 2^l x 2^l cells. Levels are built on the CPU, not by GL's averaging: a
// texel keeps the colour of its most important cells (a colour's alpha is
// its priority), averaged among those, so a selected cell, a tile being
// loaded or a thread's copy stays visible however far the view is zoomed out.
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

// Alpha as priority: plain cells (shaded by value) are below highlights.
inline constexpr std::uint8_t kPlainPriority = 1;

// Cells [row0, row1) x [col0, col1) of a matrix.
struct CellBox {
  std::uint32_t row0 = 0, row1 = 0, col0 = 0, col1 = 0;
  bool empty() const { return row0 >= row1 || col0 >= col1; }
  // The smallest box holding both.
  CellBox united(const CellBox& o) const;
};

// The coarser levels of a colour grid: level l has max(1, floor(rows / 2^l))
// x max(1, floor(cols / 2^l)) texels (GL's mipmap sizes); texel (i, j) stands
// for cells [i 2^l, (i + 1) 2^l) x [j 2^l, (j + 1) 2^l), the last row and
// column of texels also for the cells left over at the edge. Pure CPU, tested
// without GL.
class ColorPyramid {
 public:
  // Levels 1 .. up to max_level while a level has more than one texel.
  void build(std::uint32_t rows0, std::uint32_t cols0, std::span<const Rgba8> level0, int max_level);
  // Recomputes the texels of every level that stand for cells in box; returns
  // each level's box of texels that changed (index l - 1 for level l).
  std::vector<CellBox> update(std::span<const Rgba8> level0, const CellBox& box);
  int levels() const { return static_cast<int>(levels_.size()); }  // coarser levels held
  std::uint32_t rows(int level) const;
  std::uint32_t cols(int level) const;
  std::span<const Rgba8> level(int l) const { return levels_[static_cast<std::size_t>(l - 1)]; }
  // The texel of level l standing for cell (row, col).
  Rgba8 at(int l, std::uint32_t row, std::uint32_t col) const;

 private:
  void reduce(int l, std::span<const Rgba8> finer, const CellBox& texels);
  std::uint32_t rows0_ = 0, cols0_ = 0;
  std::vector<std::vector<Rgba8>> levels_;
};

// One colour per cell of a matrix, on the GPU, with its coarser levels.
class GridTexture {
 public:
  GridTexture() = default;
  ~GridTexture();
  GridTexture(const GridTexture&) = delete;
  GridTexture& operator=(const GridTexture&) = delete;
  // colors: rows * cols, row-major. Reallocates only when the shape changes.
  void upload(std::uint32_t rows, std::uint32_t cols, std::span<const Rgba8> colors);
  // Only the cells in box changed since the last upload (same shape): sends
  // those, and the texels of the coarser levels that stand for them.
  void update(std::span<const Rgba8> colors, const CellBox& box);
  unsigned id() const { return id_; }
  std::uint32_t rows() const { return rows_; }
  std::uint32_t cols() const { return cols_; }
  int levels() const { return pyramid_.levels(); }

 private:
  void send(int level, std::uint32_t level_cols, std::span<const Rgba8> texels, const CellBox& box);
  unsigned id_ = 0;
  std::uint32_t rows_ = 0, cols_ = 0;
  int allocated_levels_ = -1;
  ColorPyramid pyramid_;
};

// Where the canvas is and how the world (in cells) maps onto it.
struct CanvasView {
  int fb_x = 0, fb_y = 0, fb_w = 1, fb_h = 1;  // the canvas in framebuffer pixels, GL origin (bottom left)
  // What of it may be drawn (the same units): the canvas as far as its window
  // shows it. A window that hides part of its canvas (too small, scrolled)
  // must not have the grids drawn over the windows around it.
  int clip_x = 0, clip_y = 0, clip_w = 1, clip_h = 1;
  float width = 1, height = 1;                 // the canvas in drawing units (what the shaders' pixels are)
  float origin_x = 0, origin_y = 0;            // where world (0, 0) lands, from the canvas' top left
  float scale = 1;                             // units per cell
};

struct GridDraw {
  const GridTexture* colors = nullptr;
  float x = 0, y = 0;  // world position of cell (0, 0)'s corner, in cells
  std::uint32_t tile_rows = 1, tile_cols = 1;
  // Tile lines are drawn while a tile is at least this many pixels wide.
  float min_tile_px = 8.0f;
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
  // The level a grid is drawn from at this many pixels per cell: the finest
  // whose texels are at least a pixel wide, so every cell shows in some pixel.
  static int level_for(float pixels_per_cell, int levels);

 private:
  // The grid shader with [tile lines][cell lines] compiled in or out (grid.frag).
  GlProgram grid_[2][2], rect_;
  void add_rect(const RectDraw& r);
  unsigned vao_ = 0, rect_vbo_ = 0;
  std::vector<float> rect_data_;
  int max_texture_size_ = 0;
};

}  // namespace ts::render
