// screenshot.cpp — glReadPixels, flip rows (GL counts from the bottom), PNG.
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
  std::vector<std::uint8_t> pixels(row * height), flipped(row * height);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  GLint offscreen = 0;  // the headless app draws into its own framebuffer
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &offscreen);
  glReadBuffer(offscreen ? GL_COLOR_ATTACHMENT0 : GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  if (glGetError() != GL_NO_ERROR) return "could not read the window's pixels";
  for (int y = 0; y < height; ++y) std::memcpy(&flipped[y * row], &pixels[(height - 1 - y) * row], row);
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (!stbi_write_png(path.string().c_str(), width, height, 3, flipped.data(), static_cast<int>(row)))
    return "could not write " + path.string();
  return {};
}

}  // namespace ts::render
