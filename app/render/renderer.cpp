// renderer.cpp — GL objects and the two instanced draws.
#include "app/render/renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace ts::render {
namespace {

constexpr int kRectFloats = 10;  // rect (4), colour (4), style (2)
// Coarsest level: a texel for 64 x 64 cells (the canvas zooms out to 0.05 pixels per cell).
constexpr int kMaxLevel = 6;
// Lines between cells from this many pixels per cell on.
constexpr float kCellLinesFromPx = 5.0f;
// The matrix's edge below that, as grid.frag draws it: pixels less than this far inside.
constexpr float kEdgeLinePx = 0.6f;

void set_color(int location, Rgba8 c) { glUniform4f(location, c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f); }

}  // namespace

CellBox CellBox::united(const CellBox& o) const {
  if (empty()) return o;
  if (o.empty()) return *this;
  return {std::min(row0, o.row0), std::max(row1, o.row1), std::min(col0, o.col0), std::max(col1, o.col1)};
}

std::uint32_t ColorPyramid::rows(int level) const { return std::max<std::uint32_t>(1, rows0_ >> level); }
std::uint32_t ColorPyramid::cols(int level) const { return std::max<std::uint32_t>(1, cols0_ >> level); }

void ColorPyramid::build(std::uint32_t rows0, std::uint32_t cols0, std::span<const Rgba8> level0, int max_level) {
  rows0_ = rows0;
  cols0_ = cols0;
  levels_.clear();
  for (int l = 1; l <= max_level && (rows(l - 1) > 1 || cols(l - 1) > 1); ++l) {
    levels_.emplace_back(std::size_t{rows(l)} * cols(l));
    reduce(l, l == 1 ? level0 : level(l - 1), {0, rows(l), 0, cols(l)});
  }
}

std::vector<CellBox> ColorPyramid::update(std::span<const Rgba8> level0, const CellBox& box) {
  std::vector<CellBox> changed;
  if (box.empty()) return changed;
  for (int l = 1; l <= levels(); ++l) {
    // The texels standing for the box's cells (the last texel also for the leftovers).
    const CellBox t{std::min(box.row0 >> l, rows(l) - 1), std::min((box.row1 - 1) >> l, rows(l) - 1) + 1,
                    std::min(box.col0 >> l, cols(l) - 1), std::min((box.col1 - 1) >> l, cols(l) - 1) + 1};
    reduce(l, l == 1 ? level0 : level(l - 1), t);
    changed.push_back(t);
  }
  return changed;
}

Rgba8 ColorPyramid::at(int l, std::uint32_t row, std::uint32_t col) const {
  const std::uint32_t r = std::min(row >> l, rows(l) - 1), c = std::min(col >> l, cols(l) - 1);
  return levels_[static_cast<std::size_t>(l - 1)][std::size_t{r} * cols(l) + c];
}

void ColorPyramid::reduce(int l, std::span<const Rgba8> finer, const CellBox& texels) {
  const std::uint32_t fr = rows(l - 1), fc = cols(l - 1), lr = rows(l), lc = cols(l);
  std::vector<Rgba8>& out = levels_[static_cast<std::size_t>(l - 1)];
  for (std::uint32_t i = texels.row0; i < texels.row1; ++i) {
    // Two finer rows, and at the last texel every finer row left (an odd count).
    const std::uint32_t r0 = std::min(2 * i, fr - 1), r1 = i + 1 == lr ? fr : std::min(2 * i + 2, fr);
    for (std::uint32_t j = texels.col0; j < texels.col1; ++j) {
      const std::uint32_t c0 = std::min(2 * j, fc - 1), c1 = j + 1 == lc ? fc : std::min(2 * j + 2, fc);
      std::uint8_t top = 0;
      std::uint32_t n = 0, r = 0, g = 0, b = 0;
      for (std::uint32_t y = r0; y < r1; ++y)
        for (std::uint32_t x = c0; x < c1; ++x) {
          const Rgba8 c = finer[std::size_t{y} * fc + x];
          if (c.a < top) continue;
          if (c.a > top) top = c.a, n = r = g = b = 0;
          ++n, r += c.r, g += c.g, b += c.b;
        }
      n = std::max<std::uint32_t>(n, 1);
      out[std::size_t{i} * lc + j] = {static_cast<std::uint8_t>((r + n / 2) / n), static_cast<std::uint8_t>((g + n / 2) / n),
                                      static_cast<std::uint8_t>((b + n / 2) / n), top};
    }
  }
}

GridTexture::~GridTexture() {
  if (id_) glDeleteTextures(1, &id_);
}

void GridTexture::send(int level, std::uint32_t level_cols, std::span<const Rgba8> texels, const CellBox& box) {
  glPixelStorei(GL_UNPACK_ROW_LENGTH, static_cast<GLint>(level_cols));
  glTexSubImage2D(GL_TEXTURE_2D, level, static_cast<GLint>(box.col0), static_cast<GLint>(box.row0),
                  static_cast<GLsizei>(box.col1 - box.col0), static_cast<GLsizei>(box.row1 - box.row0), GL_RGBA,
                  GL_UNSIGNED_BYTE, texels.data() + std::size_t{box.row0} * level_cols + box.col0);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
}

void GridTexture::upload(std::uint32_t rows, std::uint32_t cols, std::span<const Rgba8> colors) {
  // No GL loaded (panels drawn headless, in tests and fuzzing): nothing to upload to.
  if (glGenTextures == nullptr) return;
  if (!id_) {
    glGenTextures(1, &id_);
    glBindTexture(GL_TEXTURE_2D, id_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  } else {
    glBindTexture(GL_TEXTURE_2D, id_);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  pyramid_.build(rows, cols, colors, kMaxLevel);
  if (rows != rows_ || cols != cols_ || pyramid_.levels() != allocated_levels_) {
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, pyramid_.levels());
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, static_cast<GLsizei>(cols), static_cast<GLsizei>(rows), 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, colors.data());
    for (int l = 1; l <= pyramid_.levels(); ++l)
      glTexImage2D(GL_TEXTURE_2D, l, GL_RGBA8, static_cast<GLsizei>(pyramid_.cols(l)),
                   static_cast<GLsizei>(pyramid_.rows(l)), 0, GL_RGBA, GL_UNSIGNED_BYTE, pyramid_.level(l).data());
    rows_ = rows;
    cols_ = cols;
    allocated_levels_ = pyramid_.levels();
    return;
  }
  send(0, cols, colors, {0, rows, 0, cols});
  for (int l = 1; l <= pyramid_.levels(); ++l)
    send(l, pyramid_.cols(l), pyramid_.level(l), {0, pyramid_.rows(l), 0, pyramid_.cols(l)});
}

void GridTexture::update(std::span<const Rgba8> colors, const CellBox& box) {
  if (!id_ || box.empty()) return;
  const CellBox b{std::min(box.row0, rows_), std::min(box.row1, rows_), std::min(box.col0, cols_), std::min(box.col1, cols_)};
  if (b.empty()) return;
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  send(0, cols_, colors, b);
  const std::vector<CellBox> changed = pyramid_.update(colors, b);
  for (int l = 1; l <= pyramid_.levels(); ++l)
    send(l, pyramid_.cols(l), pyramid_.level(l), changed[static_cast<std::size_t>(l - 1)]);
}

void Renderer::add_rect(const RectDraw& r) {
  const float data[kRectFloats] = {r.x0, r.y0, r.x1, r.y1, r.color.r / 255.0f, r.color.g / 255.0f,
                                   r.color.b / 255.0f, r.color.a / 255.0f, r.thickness, r.filled ? 1.0f : 0.0f};
  rect_data_.insert(rect_data_.end(), data, data + kRectFloats);
}

int Renderer::level_for(float pixels_per_cell, int levels) {
  if (pixels_per_cell >= 1.0f || levels <= 0) return 0;
  const int l = static_cast<int>(std::ceil(std::log2(1.0f / std::max(pixels_per_cell, 1e-6f)) - 1e-4f));
  return std::clamp(l, 0, levels);
}

std::string Renderer::init() {
  for (int tiles = 0; tiles < 2; ++tiles)
    for (int cells = 0; cells < 2; ++cells) {
      const std::string defines = std::string(tiles ? "#define TILE_LINES\n" : "") + (cells ? "#define CELL_LINES\n" : "");
      if (std::string err = grid_[tiles][cells].build("grid.vert", "grid.frag", defines); !err.empty()) return err;
    }
  if (std::string err = rect_.build("rect.vert", "rect.frag"); !err.empty()) return err;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture_size_);
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &rect_vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, rect_vbo_);
  const GLsizei stride = kRectFloats * sizeof(float);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride, nullptr);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(4 * sizeof(float)));
  glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(8 * sizeof(float)));
  for (GLuint a = 0; a < 3; ++a) glVertexAttribDivisor(a, 1);
  glBindVertexArray(0);
  return {};
}

Renderer::~Renderer() {
  if (rect_vbo_) glDeleteBuffers(1, &rect_vbo_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
}

void Renderer::draw(const CanvasView& v, std::span<const GridDraw> grids, std::span<const RectDraw> rects) {
  glViewport(v.fb_x, v.fb_y, v.fb_w, v.fb_h);
  glEnable(GL_SCISSOR_TEST);
  glScissor(v.clip_x, v.clip_y, v.clip_w, v.clip_h);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glBindVertexArray(vao_);

  // The grids: opaque, one quad each (no vertex buffer: a 4-vertex strip).
  glDisable(GL_BLEND);
  glActiveTexture(GL_TEXTURE0);
  rect_data_.clear();
  for (const GridDraw& g : grids) {
    if (!g.colors || g.colors->rows() == 0 || g.colors->cols() == 0) continue;
    const std::uint32_t tile_rows = std::max<std::uint32_t>(1, g.tile_rows);
    const std::uint32_t tile_cols = std::max<std::uint32_t>(1, g.tile_cols);
    // Tile lines only while tiles are wide enough to tell apart; the matrix's edge always.
    const bool tiles = static_cast<float>(std::min(tile_rows, tile_cols)) * v.scale >= g.min_tile_px;
    const bool cells = v.scale >= kCellLinesFromPx;
    const GlProgram& p = grid_[tiles][cells];
    glUseProgram(p.id());
    glUniform2f(p.uniform("u_viewport"), v.width, v.height);
    glUniform1f(p.uniform("u_scale"), v.scale);
    glUniform1i(p.uniform("u_colors"), 0);
    glBindTexture(GL_TEXTURE_2D, g.colors->id());
    glUniform2f(p.uniform("u_origin"), v.origin_x + g.x * v.scale, v.origin_y + g.y * v.scale);
    glUniform2i(p.uniform("u_cells"), static_cast<GLint>(g.colors->rows()), static_cast<GLint>(g.colors->cols()));
    glUniform2i(p.uniform("u_tile"), static_cast<GLint>(tile_rows), static_cast<GLint>(tile_cols));
    glUniform1i(p.uniform("u_level"), level_for(v.scale, g.colors->levels()));
    set_color(p.uniform("u_cell_line"), g.cell_line);
    set_color(p.uniform("u_tile_line"), g.tile_line);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    // Without lines the shader leaves out the matrix's edge: the rectangle
    // pass draws it, first, on the same pixels (centres less than 0.6 px
    // inside the edge: an outline 0.6 px wide, 0.3 px in).
    if (!tiles && !cells) {
      const float inset = kEdgeLinePx / 2 / v.scale;
      add_rect({g.x + inset, g.y + inset, g.x + static_cast<float>(g.colors->cols()) - inset,
                g.y + static_cast<float>(g.colors->rows()) - inset, g.tile_line, kEdgeLinePx, false});
    }
  }

  // The highlights: one instanced draw for all of them, blended.
  for (const RectDraw& r : rects) add_rect(r);
  if (!rect_data_.empty()) {
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(rect_.id());
    glUniform2f(rect_.uniform("u_viewport"), v.width, v.height);
    glUniform2f(rect_.uniform("u_origin"), v.origin_x, v.origin_y);
    glUniform1f(rect_.uniform("u_scale"), v.scale);
    glBindBuffer(GL_ARRAY_BUFFER, rect_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(rect_data_.size() * sizeof(float)), rect_data_.data(),
                 GL_STREAM_DRAW);
    for (GLuint a = 0; a < 3; ++a) glEnableVertexAttribArray(a);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(rect_data_.size() / kRectFloats));
  }
  glBindVertexArray(0);
}

}  // namespace ts::render
