// window_support.h — what the window tests share: a virtual X server for
// the suite when there is no display, and a screenshot read back with the
// layout the app wrote next to it (--layout-json).
#pragma once

#include <gtest/gtest.h>
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render/renderer.h"
#include "tests/cli/cli_support.h"
#include "tests/ui/xvfb.h"

namespace ts::ui::test_window {

namespace fs = std::filesystem;
using render::Rgba8;

// Without a display, the suite starts its own virtual X server and stops it at the end.
class VirtualDisplay : public ::testing::Environment {
 public:
  void SetUp() override {
    if (std::getenv("DISPLAY")) return;
    server_ = std::make_unique<test::Xvfb>(1920, 1080);
    if (!server_->display().empty()) setenv("DISPLAY", server_->display().c_str(), 1);
  }
  void TearDown() override { server_.reset(); }

 private:
  std::unique_ptr<test::Xvfb> server_;
};

class Screenshot {
 public:
  bool load(const fs::path& png, const fs::path& layout_json) {
    int channels = 0;
    std::unique_ptr<unsigned char, void (*)(void*)> data(stbi_load(png.string().c_str(), &w_, &h_, &channels, 3),
                                                         stbi_image_free);
    if (!data) return false;
    pixels_.assign(data.get(), data.get() + std::size_t(w_) * h_ * 3);
    std::ifstream in(layout_json);
    if (!in) return false;
    layout_ = nlohmann::json::parse(in);
    return true;
  }
  const nlohmann::json& layout() const { return layout_; }
  int width() const { return w_; }
  int height() const { return h_; }
  // The colour inside cell (row, col) of matrix "A", "B" or "C", away from
  // its edges (grid lines) and its centre (the number drawn in large cells).
  Rgba8 cell(const char* matrix, int row, int col) const {
    const auto& g = layout_[matrix];
    const double cell = g["cell"].get<double>();
    const int x = static_cast<int>(g["x"].get<double>() + (col + 0.25) * cell);
    const int y = static_cast<int>(g["y"].get<double>() + (row + 0.25) * cell);
    return at(x, y);
  }
  Rgba8 at(int x, int y) const {
    if (x < 0 || y < 0 || x >= w_ || y >= h_) return {0, 0, 0, 0};
    const unsigned char* p = &pixels_[(std::size_t(y) * w_ + x) * 3];
    return {p[0], p[1], p[2], 255};
  }

 private:
  int w_ = 0, h_ = 0;
  std::vector<unsigned char> pixels_;
  nlohmann::json layout_;
};

inline bool near(Rgba8 a, Rgba8 b, int tolerance = 6) {
  return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance && std::abs(a.b - b.b) <= tolerance;
}

inline std::string str(Rgba8 c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "(%d, %d, %d)", c.r, c.g, c.b);
  return buf;
}

// The app run with these flags, its screenshot and layout read back (and
// their files removed); a failure to run or to write them fails the test.
inline Screenshot shoot(const std::string& args) {
  const fs::path png = test::temp("shot.png"), json = test::temp("shot.json");
  const test::Result r = test::run(args + " --screenshot " + png.string() + " --layout-json " + json.string());
  EXPECT_EQ(r.code, 0) << r.err;
  Screenshot s;
  EXPECT_TRUE(s.load(png, json)) << "no screenshot: " << r.err;
  fs::remove(png);
  fs::remove(json);
  return s;
}

}  // namespace ts::ui::test_window
