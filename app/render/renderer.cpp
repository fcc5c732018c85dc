// renderer.cpp — GL objects and the two instanced draws.
#include "app/render/renderer.h"

#include <glad/gl.h>

#include <algorithm>

namespace ts::render {
namespace {

constexpr int kRectFloats = 10;  // rect (4), colour (4), style (2)

void set_color(int location, Rgba8 c) { glUniform4f(location, c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f); }

}  // namespace

GridTexture::~GridTexture() {
  if (id_) glDeleteTextures(1, &id_);
}

void GridTexture::upload(std::uint32_t rows, std::uint32_t cols, std::span<const Rgba8> colors) {
  // No GL loaded (panels drawn headless, in tests and fuzzing): nothing to upload to.
  if (glGenTextures == nullptr) return;
  if (!id_) {
    glGenTextures(1, &id_);
    glBindTexture(GL_TEXTURE_2D, id_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  } else {
    glBindTexture(GL_TEXTURE_2D, id_);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  if (rows != rows_ || cols != cols_) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, static_cast<GLsizei>(cols), static_cast<GLsizei>(rows), 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, colors.data());
    rows_ = rows;
    cols_ = cols;
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(cols), static_cast<GLsizei>(rows), GL_RGBA,
                    GL_UNSIGNED_BYTE, colors.data());
  }
}

std::string Renderer::init() {
  if (std::string err = grid_.build("grid.vert", "grid.frag"); !err.empty()) return err;
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
  glScissor(v.fb_x, v.fb_y, v.fb_w, v.fb_h);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glBindVertexArray(vao_);

  // The grids: opaque, one instanced draw each, a 4-vertex strip per tile.
  glDisable(GL_BLEND);
  glUseProgram(grid_.id());
  glUniform2f(grid_.uniform("u_viewport"), v.width, v.height);
  glUniform1f(grid_.uniform("u_scale"), v.scale);
  glUniform1i(grid_.uniform("u_colors"), 0);
  glActiveTexture(GL_TEXTURE0);
  for (const GridDraw& g : grids) {
    if (!g.colors || g.colors->rows() == 0 || g.colors->cols() == 0) continue;
    const std::uint32_t tile_rows = std::max<std::uint32_t>(1, g.tile_rows);
    const std::uint32_t tile_cols = std::max<std::uint32_t>(1, g.tile_cols);
    const std::uint32_t tiles_down = (g.colors->rows() + tile_rows - 1) / tile_rows;
    const std::uint32_t tiles_across = (g.colors->cols() + tile_cols - 1) / tile_cols;
    glBindTexture(GL_TEXTURE_2D, g.colors->id());
    glUniform2f(grid_.uniform("u_origin"), v.origin_x + g.x * v.scale, v.origin_y + g.y * v.scale);
    glUniform2i(grid_.uniform("u_cells"), static_cast<GLint>(g.colors->rows()), static_cast<GLint>(g.colors->cols()));
    glUniform2i(grid_.uniform("u_tile"), static_cast<GLint>(tile_rows), static_cast<GLint>(tile_cols));
    glUniform1i(grid_.uniform("u_tiles_per_row"), static_cast<GLint>(tiles_across));
    set_color(grid_.uniform("u_cell_line"), g.cell_line);
    set_color(grid_.uniform("u_tile_line"), g.tile_line);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(tiles_down * tiles_across));
  }

  // The highlights: one instanced draw for all of them, blended.
  if (!rects.empty()) {
    rect_data_.clear();
    for (const RectDraw& r : rects) {
      const float data[kRectFloats] = {r.x0, r.y0, r.x1, r.y1, r.color.r / 255.0f, r.color.g / 255.0f,
                                       r.color.b / 255.0f, r.color.a / 255.0f, r.thickness, r.filled ? 1.0f : 0.0f};
      rect_data_.insert(rect_data_.end(), data, data + kRectFloats);
    }
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
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(rects.size()));
  }
  glBindVertexArray(0);
}

}  // namespace ts::render
