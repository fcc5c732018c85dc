// screenshot.cpp — glReadPixels, flip rows (GL counts from the bottom), PNG.
// In the browser build the PNG is written into the page's file system and
// offered as a download (web/main.cpp).
#include "app/render/screenshot.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace ts::render {

std::string save_framebuffer_png(const std::filesystem::path& path, int width, int height) {
  if (width <= 0 || height <= 0) return "the window has no pixels to save (minimised?)";
  const std::size_t row = std::size_t(width) * 3;
  std::vector<std::uint8_t> pixels(std::size_t(width) * 4 * height), flipped(row * height);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  GLint offscreen = 0;  // the headless app draws into its own framebuffer
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &offscreen);
  glReadBuffer(offscreen ? GL_COLOR_ATTACHMENT0 : GL_BACK);
  // RGBA: the one format WebGL2 always reads back (OpenGL reads any); the PNG keeps RGB.
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  if (glGetError() != GL_NO_ERROR) return "could not read the window's pixels";
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* src = &pixels[std::size_t(height - 1 - y) * width * 4];
    std::uint8_t* dst = &flipped[y * row];
    for (int x = 0; x < width; ++x, src += 4, dst += 3) std::memcpy(dst, src, 3);
  }
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (!stbi_write_png(path.string().c_str(), width, height, 3, flipped.data(), static_cast<int>(row)))
    return "could not write " + path.string();
  return {};
}

}  // namespace ts::render
