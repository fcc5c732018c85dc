// screenshot.h — export a PNG of what the window shows (stb_image_write).
#pragma once

#include <filesystem>
#include <string>

namespace ts::render {

// Reads the current framebuffer (the window's back buffer after rendering and
// before swapping, or the bound offscreen one) and writes it as an RGB PNG.
// Returns an error message, empty on success.
std::string save_framebuffer_png(const std::filesystem::path& path, int width, int height);

}  // namespace ts::render
