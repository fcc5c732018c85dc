// The real app on scripted scenes (label gui): each test launches
// `tilescope` with automation flags under a virtual X server (Xvfb, Mesa's
// llvmpipe), takes a screenshot, and checks pixels where a highlight must be
// and where it must not be, using the layout the app writes next to it.
#include <gtest/gtest.h>
#include <stb_image.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "app/ui/palette.h"
#include "tests/cli/cli_support.h"
#include "tests/ui/window_support.h"

namespace ts::ui {
namespace {

namespace fs = std::filesystem;
using render::Rgba8;
namespace pal = palette;

using test::run;
using test::temp;

using namespace test_window;
const auto* const kDisplay = ::testing::AddGlobalTestEnvironment(new VirtualDisplay);

#define EXPECT_COLOR(shot, m, r, c, color)                                                                  \
  do {                                                                                                      \
    EXPECT_TRUE(near((shot).cell(m, r, c), color))                                                          \
        << m << "[" << r << "][" << c << "] is " << str((shot).cell(m, r, c)) << ", expected " << str(color); \
  } while (0)
#define EXPECT_NOT_COLOR(shot, m, r, c, color)                                                        \
  do {                                                                                                \
    EXPECT_FALSE(near((shot).cell(m, r, c), color)) << m << "[" << r << "][" << c << "] should not be " \
                                                    << str(color);                                    \
  } while (0)

class AppWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display, and Xvfb could not be started";
  }
  // Seed 003's example with a cell selected, at a step; returns the screenshot.
  Screenshot scene(const std::string& extra) {
    return shoot("--kernel tiled --tile 2 --size 6 --inputs integers --seed 3 --device cpu --window 1200x800 "
                 "--quit-after-frames 4 " + extra);
  }
};

// Steps of the 6 x 6, TILE 2 timeline: 5 per iteration (load, barrier, mac k=0, mac k=1, sync).
constexpr int kLoadIteration1 = 5, kMacIteration1K0 = 7, kStore = 15;

TEST_F(AppWindow, LoadStepHighlightsTheBlocksTilesAndTheThreadsCopies) {
  const Screenshot s = scene("--select-c 5,3 --step " + std::to_string(kLoadIteration1));
  ASSERT_EQ(s.width(), 1200);
  ASSERT_TRUE(s.layout()["C"]["visible"].get<bool>());
  EXPECT_COLOR(s, "C", 5, 3, pal::kSelectedCell);
  EXPECT_COLOR(s, "C", 4, 2, pal::kBlockCell);
  EXPECT_COLOR(s, "C", 5, 2, pal::kBlockCell);
  EXPECT_COLOR(s, "A", 5, 3, pal::kCopied);
  EXPECT_COLOR(s, "B", 3, 3, pal::kCopied);
  EXPECT_COLOR(s, "A", 4, 2, pal::kBlockTile);
  EXPECT_COLOR(s, "B", 2, 2, pal::kBlockTile);
  // Nowhere else.
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) {
      const bool a_tile = r >= 4 && c >= 2 && c < 4, b_tile = r >= 2 && r < 4 && c >= 2 && c < 4;
      if (!a_tile) EXPECT_NOT_COLOR(s, "A", r, c, pal::kBlockTile);
      if (!b_tile) EXPECT_NOT_COLOR(s, "B", r, c, pal::kBlockTile);
      if (r != 5 || c != 3) EXPECT_NOT_COLOR(s, "C", r, c, pal::kSelectedCell);
      EXPECT_NOT_COLOR(s, "A", r, c, pal::kNow);
      if (!(r >= 4 && c >= 2 && c < 4)) EXPECT_NOT_COLOR(s, "C", r, c, pal::kBlockCell);
    }
}

TEST_F(AppWindow, MacStepHighlightsThePairAtKAndTheSegmentsRead) {
  const Screenshot s = scene("--select-c 5,3 --step " + std::to_string(kMacIteration1K0));
  EXPECT_COLOR(s, "A", 5, 2, pal::kNow);
  EXPECT_COLOR(s, "B", 2, 3, pal::kNow);
  EXPECT_COLOR(s, "A", 5, 3, pal::kReads);
  EXPECT_COLOR(s, "B", 3, 3, pal::kReads);
  EXPECT_COLOR(s, "A", 4, 2, pal::kBlockTile);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) {
      if (r != 5 || c != 2) EXPECT_NOT_COLOR(s, "A", r, c, pal::kNow);
      if (r != 2 || c != 3) EXPECT_NOT_COLOR(s, "B", r, c, pal::kNow);
      if (r != 5 || (c != 2 && c != 3)) EXPECT_NOT_COLOR(s, "A", r, c, pal::kReads);
    }
}

// blocktile-2d at 32 x 32 x 16, one block: thread 1 owns C[0..7][8..15]. At
// iteration 0, k = 3 it holds A[0..7][3] and B[3][8..15] in registers (their
// outer product updates its 64 cells) and reads its 8 rows of the A tile and
// 8 columns of the B tile over the iteration.
TEST_F(AppWindow, RegisterTileStepShowsTheOuterProductsFactors) {
  const fs::path png = temp("rung.png"), json = temp("rung.json");
  const test::Result r = run("--kernel blocktile-2d --m 32 --n 32 --k 16 --device cpu --window 1200x800 --select-c 5,9 "
                             "--step 5 --screenshot " + png.string() + " --layout-json " + json.string() +
                             " --quit-after-frames 4");
  ASSERT_EQ(r.code, 0) << r.err;
  Screenshot s;
  ASSERT_TRUE(s.load(png, json)) << "no screenshot: " << r.err;
  EXPECT_COLOR(s, "A", 5, 3, pal::kNow);
  EXPECT_COLOR(s, "B", 3, 9, pal::kNow);
  for (int i = 0; i < 8; ++i) {
    if (i != 5) EXPECT_COLOR(s, "A", i, 3, pal::kRegisters);
    if (8 + i != 9) EXPECT_COLOR(s, "B", 3, 8 + i, pal::kRegisters);
    EXPECT_NOT_COLOR(s, "A", 8 + i, 3, pal::kRegisters);  // the next thread row's
    EXPECT_NOT_COLOR(s, "B", 3, i, pal::kRegisters);      // thread 0's columns
  }
  EXPECT_COLOR(s, "A", 0, 6, pal::kThreadReads);
  EXPECT_COLOR(s, "B", 6, 12, pal::kThreadReads);
  EXPECT_COLOR(s, "A", 5, 6, pal::kReads);
  EXPECT_COLOR(s, "C", 2, 12, pal::kThreadCell);
  EXPECT_NOT_COLOR(s, "C", 2, 4, pal::kThreadCell);
  fs::remove(png);
  fs::remove(json);
}

TEST_F(AppWindow, StoreStepLeavesAAndBQuiet) {
  const Screenshot s = scene("--select-c 0,1 --step " + std::to_string(kStore));
  EXPECT_COLOR(s, "C", 0, 1, pal::kSelectedCell);
  EXPECT_COLOR(s, "C", 1, 0, pal::kBlockCell);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c)
      for (const char* m : {"A", "B"}) {
        EXPECT_NOT_COLOR(s, m, r, c, pal::kBlockTile);
        EXPECT_NOT_COLOR(s, m, r, c, pal::kReads);
        EXPECT_NOT_COLOR(s, m, r, c, pal::kNow);
      }
}

TEST_F(AppWindow, AllBlocksShadesTheIterationsTiles) {
  const Screenshot s = scene("--all-blocks --step 10");  // iteration 2: A columns 4..5, B rows 4..5
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) {
      EXPECT_EQ(near(s.cell("A", r, c), pal::kAllBlocksMany), c >= 4) << "A " << r << "," << c;
      EXPECT_EQ(near(s.cell("B", r, c), pal::kAllBlocksMany), r >= 4) << "B " << r << "," << c;
    }
}

TEST_F(AppWindow, HeadlessModeDrawsTheSameSceneWithoutAWindow) {
  // Offscreen through EGL (Mesa here, the GPU driver on a server); the display is not used.
  const Screenshot s = scene("--headless --select-c 5,3 --step " + std::to_string(kLoadIteration1));
  ASSERT_EQ(s.width(), 1200);
  EXPECT_COLOR(s, "C", 5, 3, pal::kSelectedCell);
  EXPECT_COLOR(s, "A", 5, 3, pal::kCopied);
  EXPECT_COLOR(s, "B", 2, 2, pal::kBlockTile);
  EXPECT_NOT_COLOR(s, "A", 0, 0, pal::kBlockTile);
}

TEST_F(AppWindow, PresentationModeDrawsTheSameHighlightsLarger) {
  const Screenshot normal = scene("--select-c 5,3 --step " + std::to_string(kMacIteration1K0));
  const Screenshot big = scene("--presentation --select-c 5,3 --step " + std::to_string(kMacIteration1K0));
  EXPECT_COLOR(big, "A", 5, 2, pal::kNow);
  EXPECT_COLOR(big, "C", 5, 3, pal::kSelectedCell);
  // Full screen on the virtual display.
  EXPECT_GT(big.width(), normal.width());
}

TEST_F(AppWindow, EveryKernelAndTileOpensWithTheSelectedCellShown) {
  for (const char* kernel : {"naive", "naive-row", "coarsened", "tiled-transposed", "tiled-padded"}) {
    const fs::path png = temp("k.png"), json = temp("k.json");
    const test::Result r = run(std::string("--kernel ") + kernel + " --tile 4 --m 10 --n 9 --k 7 --device cpu --window 1200x800 "
                          "--select-c 7,6 --step 3 --screenshot " + png.string() + " --layout-json " + json.string() +
                          " --quit-after-frames 3");
    ASSERT_EQ(r.code, 0) << kernel << ": " << r.err;
    Screenshot s;
    ASSERT_TRUE(s.load(png, json)) << kernel;
    EXPECT_COLOR(s, "C", 7, 6, pal::kSelectedCell);
    EXPECT_EQ(s.layout()["kernel"], kernel);
    fs::remove(png);
    fs::remove(json);
  }
}

TEST_F(AppWindow, ACorruptTraceFileIsANoticeNotACrash) {
  const fs::path bad = temp("bad.tstrace"), png = temp("bad.png"), json = temp("bad.json");
  std::ofstream(bad) << "TSCTRACE\x01\x00\x00\x00 truncated";
  const test::Result r = run("--trace " + bad.string() + " --window 1000x700 --screenshot " + png.string() +
                        " --layout-json " + json.string() + " --quit-after-frames 3");
  EXPECT_EQ(r.code, 0) << r.err;  // it kept running until told to quit
  Screenshot s;
  ASSERT_TRUE(s.load(png, json));
  EXPECT_FALSE(s.layout()["C"]["visible"].get<bool>());  // nothing to show, and no crash
  for (const auto& p : {bad, png, json}) fs::remove(p);
}

TEST_F(AppWindow, AMissingGpuIsANoticeNotACrash) {
  const fs::path png = temp("gpu.png"), json = temp("gpu.json");
  const test::Result r = run("--device gpu --size 16 --select-c 5,7 --step 3 --window 1000x700 --screenshot " +
                        png.string() + " --layout-json " + json.string() + " --quit-after-frames 3");
  EXPECT_EQ(r.code, 0) << r.err;
  Screenshot s;
  ASSERT_TRUE(s.load(png, json));
  // With a GPU the scene is recorded on it; without one the app shows the notice and keeps running.
  if (s.layout()["C"]["visible"].get<bool>()) {
    EXPECT_EQ(s.layout()["recorder"], "gpu");
  }
  for (const auto& p : {png, json}) fs::remove(p);
}

// Zoomed in and out (a cell from a fifth of a pixel to 25 pixels: every level
// of detail): the cell under a window pixel, as a click finds it, is the one
// the layout's geometry puts there, the click selects it, and the screenshot
// shows the selected cell at that pixel however small the cells are.
void expect_probe_exact(const Screenshot& s, double px, double py, const std::string& what) {
  SCOPED_TRACE(what);
  const nlohmann::json& L = s.layout();
  ASSERT_TRUE(L.contains("probe")) << "no cell under the probe";
  const auto& c = L["C"];
  const double cell = c["cell"].get<double>();
  const auto row = static_cast<std::uint32_t>(std::floor((py - c["y"].get<double>()) / cell));
  const auto col = static_cast<std::uint32_t>(std::floor((px - c["x"].get<double>()) / cell));
  EXPECT_EQ(L["probe"]["matrix"], "C");
  EXPECT_EQ(L["probe"]["row"].get<std::uint32_t>(), row);
  EXPECT_EQ(L["probe"]["col"].get<std::uint32_t>(), col);
  ASSERT_TRUE(L.contains("selected"));
  EXPECT_EQ(L["selected"][0].get<std::uint32_t>(), row);
  EXPECT_EQ(L["selected"][1].get<std::uint32_t>(), col);
  // Large cells: inside the cell, away from its number. Small ones: the very
  // pixel, orange (the cell's texel won the level of detail) or the white
  // outline drawn around the selected cell.
  const Rgba8 at = cell >= 4 ? s.cell("C", static_cast<int>(row), static_cast<int>(col))
                             : s.at(static_cast<int>(px), static_cast<int>(py));
  EXPECT_TRUE(near(at, pal::kSelectedCell) || (cell < 4 && near(at, pal::kSelectionOutline)))
      << "pixel " << str(at) << " at " << cell << " px per cell";
}

TEST_F(AppWindow, TheCellUnderAPixelIsExactAtEveryZoom) {
  const double px = 758.37, py = 490.61;  // near the canvas' centre, away from any pixel edge
  for (const char* zoom : {"0.2", "0.7", "3", "25"}) {
    const fs::path png = temp("z.png"), json = temp("z.json");
    char probe[64];
    std::snprintf(probe, sizeof probe, "%.2f,%.2f", px, py);
    const test::Result r = run(std::string("--kernel tiled --tile 16 --size 128 --seed 5 --device cpu --window 1600x1000 "
                                           "--select-c 3,3 --step 0 --zoom ") + zoom + " --center 64,64 --probe " + probe +
                               " --click --screenshot " + png.string() + " --layout-json " + json.string() +
                               " --quit-after-frames 3");
    ASSERT_EQ(r.code, 0) << r.err;
    Screenshot s;
    ASSERT_TRUE(s.load(png, json));
    expect_probe_exact(s, px, py, std::string("zoom ") + zoom);
    fs::remove(png);
    fs::remove(json);
  }
}

// The grid shader runs in variants with the tile and cell lines compiled in
// only at zooms where they can show, and the matrix's edge from the rectangle
// pass when they do not (renderer.cpp). Whichever runs, the lines are where
// the full shader put them: the edge on pixels whose centre is less than 0.6
// px inside it, tile boundaries while a tile is 8 pixels or more, cell edges
// from 5 pixels per cell, none over plain cells otherwise.
TEST_F(AppWindow, GridLinesShowExactlyAtTheZoomsThatDrawThem) {
  const Rgba8 tile_line{235, 235, 235};  // GridCanvas::Grid's default
  int edges_checked = 0;
  // Two centres half a pixel apart at 0.2 px per cell: in one of them a pixel
  // centre lies within 0.6 px inside C's left or top edge.
  for (const auto& [zoom, center] : {std::pair{0.2, "72.01,64.01"}, std::pair{0.2, "74.51,66.51"},
                                     std::pair{0.7, "72.01,64.01"}, std::pair{3.0, "72.01,64.01"},
                                     std::pair{25.0, "72.01,64.01"}}) {
    SCOPED_TRACE("zoom " + std::to_string(zoom) + ", centre " + center);
    const fs::path png = temp("l.png"), json = temp("l.json");
    // A quarter pixel off the pixel grid at 25 px per cell, so that some pixel
    // centre lies within half a pixel of every cell edge.
    const test::Result r = run("--kernel tiled --tile 16 --size 128 --seed 5 --device cpu --window 1600x1000 "
                               "--select-c 3,3 --step 0 --zoom " + std::to_string(zoom) + " --center " + center + " "
                               "--screenshot " + png.string() + " --layout-json " + json.string() + " --quit-after-frames 3");
    ASSERT_EQ(r.code, 0) << r.err;
    Screenshot s;
    ASSERT_TRUE(s.load(png, json));
    const auto& c = s.layout()["C"];
    const double x0 = c["x"].get<double>(), y0 = c["y"].get<double>(), cell = c["cell"].get<double>();
    ASSERT_NEAR(cell, zoom, 1e-3);
    const int y = static_cast<int>(std::floor(y0 + 72.5 * cell));  // mid-tile (rows 64..79)
    // Column 64 is a tile boundary: the pixel whose centre is nearest to it
    // (within half a pixel) is a line exactly when tiles are drawn.
    const bool tiles = 16 * zoom >= 8;
    const Rgba8 on_tile_edge = s.at(static_cast<int>(std::floor(x0 + 64 * cell)), y);
    EXPECT_EQ(near(on_tile_edge, tile_line), tiles) << "pixel " << str(on_tile_edge);
    // C's left edge (at row 72) and top edge (at column 72), while C is all on screen.
    if (zoom < 5) {
      const int left = static_cast<int>(std::ceil(x0 - 0.5)), top = static_cast<int>(std::ceil(y0 - 0.5));
      if (left + 0.5 - x0 < 0.55) {
        ++edges_checked;
        EXPECT_TRUE(near(s.at(left, y), tile_line)) << "left edge pixel " << str(s.at(left, y));
      }
      const int x = static_cast<int>(std::floor(x0 + 72.5 * cell));
      if (top + 0.5 - y0 < 0.55) {
        ++edges_checked;
        EXPECT_TRUE(near(s.at(x, top), tile_line)) << "top edge pixel " << str(s.at(x, top));
      }
    }
    // Mid-tile, an idle cell shows its own colour, darkened on its edges from
    // 5 pixels per cell: its leftmost or rightmost pixel, whichever centre is
    // nearer to the edge (at 25 px per cell a quarter pixel, from the centre's offset).
    if (zoom >= 3) {
      const Rgba8 inside = s.cell("C", 72, 69);
      EXPECT_FALSE(near(inside, tile_line));
      const double left = x0 + 69 * cell, right = left + cell;
      const int first = static_cast<int>(std::ceil(left - 0.5)), last = static_cast<int>(std::ceil(right - 0.5)) - 1;
      const double d_first = first + 0.5 - left, d_last = right - (last + 0.5);
      const Rgba8 on_cell_edge = s.at(d_first <= d_last ? first : last, y);
      if (zoom >= 5) {
        ASSERT_LT(std::min(d_first, d_last), 0.45);
      }
      const float keep = 1.0f - 90.0f / 255.0f;  // the cell line: black at alpha 90, over the cell
      const Rgba8 darkened{static_cast<std::uint8_t>(inside.r * keep + 0.5f), static_cast<std::uint8_t>(inside.g * keep + 0.5f),
                           static_cast<std::uint8_t>(inside.b * keep + 0.5f)};
      EXPECT_TRUE(near(on_cell_edge, zoom >= 5 ? darkened : inside, 3))
          << "cell edge pixel " << str(on_cell_edge) << ", cell " << str(inside);
    }
    fs::remove(png);
    fs::remove(json);
  }
  EXPECT_GT(edges_checked, 0);
}

// Past the full-trace limit (M = 2048, N = 4096, K = 64: 1.2 billion events)
// the app opens a focused trace, records the block of a clicked cell, and hover
// and click stay exact at a tenth of a pixel per cell.
TEST_F(AppWindow, ALaunchTooLargeToTraceOpensFocusedAndRecordsTheClickedBlock) {
  const fs::path png = temp("f.png"), json = temp("f.json");
  const double px = 760.37, py = 500.61;
  const test::Result r = run("--kernel tiled --tile 16 --m 2048 --n 4096 --k 64 --seed 5 --device cpu --window 1600x1000 "
                             "--select-c 1000,3000 --step 2 --zoom 0.15 --center 1000,3000 --probe 760.37,500.61 --click "
                             "--screenshot " + png.string() + " --layout-json " + json.string() + " --quit-after-frames 3");
  ASSERT_EQ(r.code, 0) << r.err;
  Screenshot s;
  ASSERT_TRUE(s.load(png, json));
  ASSERT_TRUE(s.layout().contains("traced_blocks")) << "not a focused trace";
  // The clicked cell's block is the one traced (tiled: 16 x 16 cells per block, 256 blocks per block row).
  const auto row = s.layout()["probe"]["row"].get<std::uint32_t>(), col = s.layout()["probe"]["col"].get<std::uint32_t>();
  EXPECT_EQ(s.layout()["traced_blocks"], nlohmann::json::array({(row / 16) * 256 + col / 16}));
  expect_probe_exact(s, px, py, "focused, 0.15 px per cell");
  fs::remove(png);
  fs::remove(json);
}

// Every panel in a 1600 x 1000 window: the Reuse panel is too short for its
// heat map, which then lies below the panel's bottom edge. The heat map is a
// GL pass of its own; it must be cut where the panel ends, not drawn over the
// panels below. Warptile at 100 x 68 x 36 loads every element of A once (one
// block column), so all of A's heat map is the scale's middle colour.
TEST_F(AppWindow, AHeatMapIsNotDrawnOutsideItsPanel) {
  const Screenshot s = shoot("--kernel warptile --m 100 --n 68 --k 36 --seed 2 --device cpu --panels all "
                             "--window 1600x1000 --quit-after-frames 4");
  const nlohmann::json* reuse = nullptr;
  for (const auto& p : s.layout()["panels"])
    if (p["id"] == "memory_reuse") reuse = &p;
  ASSERT_NE(reuse, nullptr);
  ASSERT_TRUE((*reuse)["overflow"]["taller"].get<bool>()) << "the scene no longer hides part of the Reuse panel";
  const double x0 = (*reuse)["x"].get<double>(), y0 = (*reuse)["y"].get<double>();
  const double x1 = x0 + (*reuse)["width"].get<double>(), y1 = y0 + (*reuse)["height"].get<double>();
  const Rgba8 heat_mid{200, 60, 90};  // heat_color(0.5)
  int outside = 0;
  for (int y = 0; y < s.height(); ++y)
    for (int x = 0; x < s.width(); ++x)
      if ((x < x0 || x >= x1 || y < y0 || y >= y1) && near(s.at(x, y), heat_mid, 2)) ++outside;
  EXPECT_EQ(outside, 0) << "pixels of the Reuse panel's heat map outside the panel";
}

TEST_F(AppWindow, BadFlagsAreRefusedBeforeAWindowOpens) {
  const std::pair<const char*, const char*> cases[] = {{"--tile 3", "TILE"},
                                                       {"--zoom 1000", "--zoom"},
                                                       {"--probe 5", "--probe"},
                                                       {"--click", "--click needs --probe"},
                                                       {"--select-c five,seven", "--select-c"},
                                                       {"--window 10x10", "--window"},
                                                       {"--kernel nope", "unknown kernel"},
                                                       {"--follow-thread 9s", "--follow-thread takes a shared region's name"},
                                                       {"--device tpu", "unknown device"}};
  for (const auto& [args, says] : cases) {
    SCOPED_TRACE(args);
    test::expect_one_line_error(run(args), says);
  }
}

}  // namespace
}  // namespace ts::ui
