// The Shared memory panel on the ladder's wide rungs (label gui): the real
// app under a virtual X server, its screenshot and the layout it writes
// (--layout-json: each buffer's grid and label, the word under --probe).
// Expectations come from the kernels' own tiles (kernels/vectorized.h,
// kernels/tf32_tensor_core.h) and the panel's size, not from the panel's code.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "app/ui/palette.h"
#include "tests/ui/window_support.h"

namespace ts::ui {
namespace {

using namespace test_window;
namespace pal = palette;
const auto* const kDisplay = ::testing::AddGlobalTestEnvironment(new VirtualDisplay);

class SharedPanel : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display, and Xvfb could not be started";
  }
  Screenshot scene(const std::string& args) { return shoot(args + " --device cpu --seed 3 --quit-after-frames 4"); }
};

struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

Box grid_box(const nlohmann::json& g) {
  const double cell = g["cell"].get<double>(), x = g["x"].get<double>(), y = g["y"].get<double>();
  return {x, y, x + g["cols"].get<double>() * cell, y + g["rows"].get<double>() * cell};
}

Box label_box(const nlohmann::json& g) {
  const auto& l = g["label_drawn"];
  return {l["x"].get<double>(), l["y"].get<double>(), l["x"].get<double>() + l["width"].get<double>(),
          l["y"].get<double>() + l["height"].get<double>()};
}

const nlohmann::json& panel(const Screenshot& s, const char* id) {
  for (const auto& p : s.layout()["panels"])
    if (p["id"] == id) return p;
  static const nlohmann::json none;
  ADD_FAILURE() << "panel " << id << " is not open";
  return none;
}

// Every buffer inside the panel, every label drawn in a legible size, and no
// label over a grid or over another label.
void expect_legible(const Screenshot& s) {
  const auto& p = panel(s, "shared");
  if (p.is_null()) return;
  const Box inside{p["x"].get<double>(), p["y"].get<double>(), p["x"].get<double>() + p["width"].get<double>(),
                   p["y"].get<double>() + p["height"].get<double>()};
  const auto& grids = s.layout()["shared"];
  for (std::size_t i = 0; i < grids.size(); ++i) {
    const auto& g = grids[i];
    SCOPED_TRACE(g["label"].get<std::string>());
    const Box b = grid_box(g);
    EXPECT_TRUE(b.x0 >= inside.x0 && b.y0 >= inside.y0 && b.x1 <= inside.x1 && b.y1 <= inside.y1) << "outside the panel";
    ASSERT_TRUE(g.contains("label_drawn")) << "label not drawn";
    EXPECT_GE(g["label_drawn"]["font"].get<double>(), 9.0);
    const Box l = label_box(g);
    for (std::size_t j = 0; j < grids.size(); ++j) {
      EXPECT_FALSE(l.overlaps(grid_box(grids[j]))) << "label over " << grids[j]["label"];
      if (j != i && grids[j].contains("label_drawn")) {
        EXPECT_FALSE(l.overlaps(label_box(grids[j]))) << "label over " << grids[j]["label"];
      }
    }
  }
}

// vectorized at 128 x 128 x 16: one block, tiles As[8][128] (transposed) and
// Bs[8][128]. Side by side in a side panel their cells could not be larger than
// a 256th of its width; one over the other, both readable and labelled.
TEST_F(SharedPanel, WideTilesOfVectorizedGetTheWidthOfThePanel) {
  const Screenshot s = scene("--kernel vectorized --m 128 --n 128 --k 16 --window 1600x1000 --select-c 37,90 --step 18");
  const auto& grids = s.layout()["shared"];
  ASSERT_EQ(grids.size(), 2u);
  for (const auto& g : grids) {
    EXPECT_EQ(g["rows"], 8);
    EXPECT_EQ(g["cols"], 128);
    EXPECT_EQ(g["first_row"], 0);
  }
  EXPECT_EQ(grids[0]["label"], "As");
  EXPECT_EQ(grids[1]["label"], "Bs");
  const double width = panel(s, "shared")["width"].get<double>();
  EXPECT_GT(grids[0]["cell"].get<double>(), 1.5 * width / 256) << "no larger than side by side";
  expect_legible(s);
}

// tf32-tensor-core at 64 x 64 x 96: 3 buffers of As (64 x 16 words, rows
// padded to 20) and of Bs (16 x 64, padded to 72), 6 k-tiles of 16. At
// iteration 2, k = 3 (2 x 19 + 2 + 3 steps: load, barrier, 16 k's, sync per
// k-tile) buffer 2 is read and cp.async fills buffer 1 with k-tile 4.
TEST_F(SharedPanel, EveryBufferOfTheTensorCorePipelineIsShownAndLabelled) {
  for (const char* window : {"1600x1000", "1280x720"}) {
    SCOPED_TRACE(window);
    const Screenshot s = scene(std::string("--kernel tf32-tensor-core --m 64 --n 64 --k 96 --window ") + window +
                               " --select-c 21,42 --step 43");
    const auto& grids = s.layout()["shared"];
    ASSERT_EQ(grids.size(), 6u);
    for (int i = 0; i < 6; ++i) {
      const auto& g = grids[i];
      const bool as = i < 3;
      const int stage = i % 3;
      EXPECT_EQ(g["array"], as ? "As" : "Bs");
      EXPECT_EQ(g["stage"], stage);
      EXPECT_EQ(g["rows"], as ? 64 : 16);
      EXPECT_EQ(g["cols"], as ? 20 : 72);
      EXPECT_EQ(g["first_row"], stage * (as ? 64 : 16));
    }
    EXPECT_EQ(grids[2]["label"], "As 2: k-tile 2 read now");
    EXPECT_EQ(grids[5]["label"], "Bs 2: k-tile 2 read now");
    EXPECT_EQ(grids[1]["label"], "As 1: k-tile 4 filling");
    EXPECT_EQ(grids[4]["label"], "Bs 1: k-tile 4 filling");
    // All 192 rows of As stacked in a 209-pixel panel were half a pixel each.
    if (std::string(window) == "1600x1000") {
      EXPECT_GE(grids[0]["cell"].get<double>(), 1.0);
    }
    expect_legible(s);
  }
}

// Following As, the cells are large enough to aim at; the thread of C[37][90]
// (threadRow 32: kernels/vectorized.h) reads As[5][32..35] and As[5][36..39]
// at k = 5 as two float4s: cyan, the pair's As[5][37] yellow, one dark outline
// between the two accesses and none inside one. The word under a pixel is the
// one the layout puts there, to a third of a pixel from its edges.
TEST_F(SharedPanel, FollowingTheThreadShowsItsFloat4ReadsAndHitsTheRightWord) {
  const std::string args =
      "--kernel vectorized --m 128 --n 128 --k 16 --window 1600x1000 --select-c 37,90 --step 18 --follow-thread As";
  const Screenshot s = scene(args);
  const auto& as = s.layout()["shared"][0];
  ASSERT_EQ(as["array"], "As");
  const double cell = as["cell"].get<double>(), x0 = as["x"].get<double>(), y0 = as["y"].get<double>();
  ASSERT_GE(cell, 20.0);
  auto word = [&](int row, int col) {
    return s.at(static_cast<int>(x0 + (col + 0.25) * cell), static_cast<int>(y0 + (row + 0.25) * cell));
  };
  for (int col = 32; col < 40; ++col) {
    const Rgba8 c = word(5, col);
    EXPECT_TRUE(near(c, col == 37 ? pal::kNow : pal::kRegisters)) << "As[5][" << col << "] is " << str(c);
  }
  EXPECT_FALSE(near(word(5, 31), pal::kRegisters));
  EXPECT_FALSE(near(word(5, 40), pal::kRegisters));
  // On the edge between words 35 and 36 (the two accesses) and between 33 and 34 (inside one).
  const int mid_y = static_cast<int>(y0 + 5.5 * cell);
  EXPECT_TRUE(near(s.at(static_cast<int>(x0 + 36 * cell), mid_y), pal::kVectorAccess, 12))
      << str(s.at(static_cast<int>(x0 + 36 * cell), mid_y));
  EXPECT_FALSE(near(s.at(static_cast<int>(x0 + 34 * cell), mid_y), pal::kVectorAccess, 40));

  for (const auto& [dx, col] : {std::pair{36 - 0.33 / cell, 35}, std::pair{36 + 0.33 / cell, 36}, std::pair{38.5, 38}}) {
    SCOPED_TRACE("probe at word column " + std::to_string(dx));
    char probe[64];
    std::snprintf(probe, sizeof probe, "%.3f,%.3f", x0 + dx * cell, y0 + 5.5 * cell);
    const Screenshot p = scene(args + " --probe " + probe);
    ASSERT_DOUBLE_EQ(p.layout()["shared"][0]["x"].get<double>(), x0) << "the view moved between runs";
    ASSERT_TRUE(p.layout().contains("shared_probe")) << "no word under the probe";
    EXPECT_EQ(p.layout()["shared_probe"]["grid"], 0);
    EXPECT_EQ(p.layout()["shared_probe"]["row"], 5);
    EXPECT_EQ(p.layout()["shared_probe"]["col"], col);
  }
}

// A kernel that names its own shared memory (examples/kernels/staged_output.cu:
// sa, sb and a staged tile of C, sc, each TILE x TILE): one grid per region,
// by its name and shape, in declaration order. C[9][3] is computed by thread
// (ty 1, tx 3) of block (0, 1); at iteration 1, k = 2 (step 1 * (8 + 3) + 2 + 2)
// it multiplies sa[1][2] by sb[2][3], having read sa's row 1 and sb's column 3.
TEST_F(SharedPanel, RegionsOfAnyNameAreDrawnByTheirNamesAndShapes) {
  const std::string kernel = std::string(TILESCOPE_SOURCE_DIR) + "/examples/kernels/staged_output.cu";
  const Screenshot s = scene("--kernel-file " + kernel + " --entry matmul_staged --block 8x8 -D TILE=8 --size 16 "
                             "--window 1600x1000 --select-c 9,3 --step 15");
  const auto& grids = s.layout()["shared"];
  ASSERT_EQ(grids.size(), 3u);
  const char* names[] = {"sa", "sb", "sc"};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(grids[i]["array"], names[i]);
    EXPECT_EQ(grids[i]["label"], names[i]);
    EXPECT_EQ(grids[i]["rows"], 8);
    EXPECT_EQ(grids[i]["cols"], 8);
  }
  expect_legible(s);
  auto word = [&](std::size_t grid, int row, int col) {
    const auto& g = grids[grid];
    const double cell = g["cell"].get<double>();
    return s.at(static_cast<int>(g["x"].get<double>() + (col + 0.5) * cell),
                static_cast<int>(g["y"].get<double>() + (row + 0.5) * cell));
  };
  EXPECT_TRUE(near(word(0, 1, 2), pal::kNow)) << str(word(0, 1, 2));
  EXPECT_TRUE(near(word(1, 2, 3), pal::kNow)) << str(word(1, 2, 3));
  EXPECT_TRUE(near(word(0, 1, 6), pal::kReads)) << str(word(0, 1, 6));
  EXPECT_TRUE(near(word(1, 6, 3), pal::kReads)) << str(word(1, 6, 3));
  EXPECT_FALSE(near(word(0, 2, 6), pal::kReads));
}

// A plain CUDA file (examples/cuda/sgemm_blocktile_float4.cu), recorded by the
// tracer on a GPU (assets/traces/): its cubin names no shared variables, so its
// window is one raw region of words, 32 (the banks) a row; the app opens it like
// any trace, the selected cell's thread found from its stores.
TEST_F(SharedPanel, ATracedKernelShowsItsSharedWindowAsWords) {
  const std::string trace = std::string(TILESCOPE_SOURCE_DIR) + "/assets/traces/float4-128x128x64.tstrace";
  const Screenshot s = shoot("--trace " + trace + " --window 1600x1000 --select-c 9,3 --step 2 --quit-after-frames 4");
  const auto& grids = s.layout()["shared"];
  ASSERT_EQ(grids.size(), 1u);
  EXPECT_EQ(grids[0]["array"], "smem");
  EXPECT_EQ(grids[0]["cols"], 32) << "raw words in rows of 32 (the banks)";
  EXPECT_EQ(grids[0]["rows"], 64) << "8 KiB of tiles: tileA[16][64] and tileB[16][64]";
  EXPECT_EQ(s.layout()["selected"], nlohmann::json::array({9, 3}));
  expect_legible(s);
}

}  // namespace
}  // namespace ts::ui
