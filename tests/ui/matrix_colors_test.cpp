// The colours of A, B and C at a step: the highlight of the selected cell's
// block, tiles, own copies and reads, in their exact palette colours, and
// nothing highlighted anywhere else.
#include <gtest/gtest.h>

#include "app/ui/matrix_colors.h"
#include "app/ui/palette.h"
#include "tests/ui/ui_test_support.h"

namespace ts::ui {
namespace {

using render::Rgba8;
namespace pal = palette;

class MatrixColorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    app.install(test::small_example());
    app.select_cell(5, 3);
  }
  const MatrixColors& at(std::uint32_t step) {
    app.set_step(step);
    scene.update(app);
    return scene.colors();
  }
  static Rgba8 cell(const std::vector<Rgba8>& m, int r, int c) { return m[r * 6 + c]; }
  static int count(const std::vector<Rgba8>& m, Rgba8 color) {
    return static_cast<int>(std::count(m.begin(), m.end(), color));
  }
  AppState app;
  MatrixScene scene;
};

TEST_F(MatrixColorsTest, LoadStepShowsTheBlocksTilesAndTheThreadsOwnCopies) {
  const MatrixColors& c = at(app.timeline().first_step_of_iteration(1));  // Load, iteration 1
  EXPECT_EQ(cell(c.c, 5, 3), pal::kSelectedCell);
  EXPECT_EQ(count(c.c, pal::kBlockCell), 3);  // the block's other three cells
  EXPECT_EQ(cell(c.c, 4, 2), pal::kBlockCell);
  EXPECT_EQ(cell(c.a, 5, 3), pal::kCopied);  // thread (1, 1) copies A[5][3]
  EXPECT_EQ(cell(c.b, 3, 3), pal::kCopied);  // and B[3][3]
  EXPECT_EQ(count(c.a, pal::kCopied), 1);
  EXPECT_EQ(count(c.a, pal::kBlockTile), 3);  // the rest of A's tile rows 4..5, cols 2..3
  EXPECT_EQ(cell(c.a, 4, 2), pal::kBlockTile);
  EXPECT_EQ(count(c.b, pal::kBlockTile), 3);  // B's tile rows 2..3, cols 2..3
  EXPECT_EQ(cell(c.b, 2, 2), pal::kBlockTile);
  EXPECT_EQ(count(c.a, pal::kReads) + count(c.a, pal::kNow), 0);  // nothing is read while loading
  EXPECT_NE(cell(c.a, 0, 0), pal::kBlockTile);
}

TEST_F(MatrixColorsTest, MacStepShowsTheRowAndColumnReadAndThePairAtK) {
  const ReplayTimeline& tl = app.timeline();
  const MatrixColors& c = at(tl.step_of({1, Phase::Mac, 0}));
  EXPECT_EQ(cell(c.a, 5, 2), pal::kNow);   // A[5][2] * B[2][3]
  EXPECT_EQ(cell(c.b, 2, 3), pal::kNow);
  EXPECT_EQ(cell(c.a, 5, 3), pal::kReads);  // the rest of the row segment
  EXPECT_EQ(cell(c.b, 3, 3), pal::kReads);
  EXPECT_EQ(count(c.a, pal::kNow), 1);
  EXPECT_EQ(count(c.b, pal::kNow), 1);
  EXPECT_EQ(cell(c.a, 4, 2), pal::kBlockTile);
  EXPECT_EQ(count(c.a, pal::kCopied), 0);  // shown as an outline while multiplying
}

TEST_F(MatrixColorsTest, CHoldsPartialSumsUntilTheStore) {
  const ReplayTimeline& tl = app.timeline();
  at(tl.step_of({1, Phase::Mac, 0}));
  EXPECT_FALSE(scene.c_final());
  EXPECT_EQ(scene.c_terms(), 3u);  // k = 0, 1 of iteration 0 and k = 2 now
  const Trace& t = app.trace()->trace;
  for (int r = 0; r < 6; ++r)
    for (int col = 0; col < 6; ++col) {
      float expect = 0;
      for (int k = 0; k < 3; ++k) expect += t.a[r * 6 + k] * t.b[k * 6 + col];
      EXPECT_EQ(scene.c_values()[r * 6 + col], expect);
    }
  at(tl.last_step());
  EXPECT_TRUE(scene.c_final());
  EXPECT_EQ(std::vector<float>(scene.c_values().begin(), scene.c_values().end()), t.c);
  // The store: the cell and its block in C, nothing in A or B.
  const MatrixColors& c = scene.colors();
  EXPECT_EQ(cell(c.c, 5, 3), pal::kSelectedCell);
  EXPECT_EQ(count(c.a, pal::kBlockTile) + count(c.b, pal::kBlockTile), 0);
}

TEST_F(MatrixColorsTest, AllBlocksShadesEveryTileOfTheIteration) {
  app.selection.cell.reset();
  app.replay.all_blocks = true;
  const MatrixColors& c = at(app.timeline().first_step_of_iteration(2));
  // Iteration 2: every block loads A's columns 4..5 and B's rows 4..5, three blocks each.
  for (int r = 0; r < 6; ++r)
    for (int col = 0; col < 6; ++col) {
      EXPECT_EQ(cell(c.a, r, col) == pal::kAllBlocksMany, col >= 4) << r << "," << col;
      EXPECT_EQ(cell(c.b, r, col) == pal::kAllBlocksMany, r >= 4) << r << "," << col;
    }
}

TEST_F(MatrixColorsTest, ValueModeColoursByValueOnly) {
  app.view.color_mode = ColorMode::Value;
  const MatrixColors& c = at(app.timeline().last_step());
  const Trace& t = app.trace()->trace;
  const ValueScale s = ValueScale::of(t.a, t.b);
  EXPECT_FALSE(s.signed_values);  // 0..4
  for (int i = 0; i < 36; ++i) EXPECT_EQ(c.a[i], value_color(t.a[i], s));
  EXPECT_EQ(count(c.c, pal::kSelectedCell), 0);
  EXPECT_EQ(value_color(0.0f, s), pal::kZero);
  EXPECT_EQ(value_color(s.max_abs, s), pal::kPositive);
  const ValueScale signed_scale{2.0f, true};
  EXPECT_EQ(value_color(-2.0f, signed_scale), pal::kNegative);
}

// Stepping repaints only the old and new highlights (and C's moving sums):
// after any walk through the replay the colours equal a fresh scene's, and
// everything that changed lies inside the boxes the grids re-send.
TEST_F(MatrixColorsTest, SteppingRepaintsOnlyWhatMovedAndEndsWhereAFreshSceneStarts) {
  const std::uint32_t last = app.timeline().last_step();
  const std::uint32_t walk[] = {3, 4, 5, 9, 2, 2, last, 0, 11, last - 1, 7};
  const ElementCoord cells[] = {{5, 3}, {0, 0}, {2, 4}};
  MatrixColors before = at(0);
  int partial_updates = 0;
  for (const ElementCoord& sel : cells) {
    app.select_cell(sel.row, sel.col);
    for (std::uint32_t step : walk) {
      const MatrixColors& now = at(step);
      MatrixScene fresh;
      fresh.update(app);
      EXPECT_EQ(now.a, fresh.colors().a) << "step " << step;
      EXPECT_EQ(now.b, fresh.colors().b) << "step " << step;
      EXPECT_EQ(now.c, fresh.colors().c) << "step " << step;
      if (!scene.changed_everything()) {
        ++partial_updates;
        auto inside = [](const render::CellBox& b, int i) {
          const auto r = static_cast<std::uint32_t>(i / 6), c = static_cast<std::uint32_t>(i % 6);
          return r >= b.row0 && r < b.row1 && c >= b.col0 && c < b.col1;
        };
        for (int i = 0; i < 36; ++i) {
          if (now.a[i] != before.a[i]) {
            EXPECT_TRUE(inside(scene.changed().a, i)) << "A " << i << " step " << step;
          }
          if (now.b[i] != before.b[i]) {
            EXPECT_TRUE(inside(scene.changed().b, i)) << "B " << i << " step " << step;
          }
          if (now.c[i] != before.c[i]) {
            EXPECT_TRUE(inside(scene.changed().c, i)) << "C " << i << " step " << step;
          }
        }
      }
      before = now;
    }
  }
  EXPECT_GT(partial_updates, 20);
}

// Zoomed out, a texel stands for 2^l x 2^l cells and keeps the most important
// of them: the selected cell survives every level; plain cells are averaged.
TEST(ColorPyramid, KeepsTheHighestPriorityCellsAndAveragesTheRest) {
  using render::ColorPyramid;
  const std::uint32_t rows = 13, cols = 10;  // odd sizes: the last texel takes the leftovers
  std::vector<Rgba8> level0(rows * cols, Rgba8{10, 20, 30, pal::kPlain});
  level0[5 * cols + 7] = Rgba8{100, 20, 30, pal::kPlain};
  level0[12 * cols + 9] = pal::kSelectedCell;  // the last cell
  ColorPyramid p;
  p.build(rows, cols, level0, 6);
  ASSERT_EQ(p.levels(), 3);  // 6 x 5, 3 x 2, 1 x 1
  EXPECT_EQ(p.rows(1), 6u);
  EXPECT_EQ(p.cols(3), 1u);
  for (int l = 1; l <= 3; ++l) EXPECT_EQ(p.at(l, 12, 9), pal::kSelectedCell) << "level " << l;
  // Level 1 texel (2, 3) averages cells (4..5, 6..7): one red-ish among four.
  EXPECT_EQ(p.at(1, 5, 7), (Rgba8{33, 20, 30, pal::kPlain}));
  EXPECT_EQ(p.at(1, 0, 0), (Rgba8{10, 20, 30, pal::kPlain}));
  // An update recomputes the texels above the changed cells, as a fresh build would.
  level0[12 * cols + 9] = Rgba8{10, 20, 30, pal::kPlain};
  level0[0] = pal::kNow;
  const std::vector<render::CellBox> changed = p.update(level0, {12, 13, 9, 10}), first = p.update(level0, {0, 1, 0, 1});
  ASSERT_EQ(changed.size(), 3u);
  EXPECT_EQ(changed[0].row0, 5u);  // cell row 12 -> level-1 row 5 (the last, with the leftover row)
  ColorPyramid fresh;
  fresh.build(rows, cols, level0, 6);
  for (int l = 1; l <= 3; ++l)
    EXPECT_TRUE(std::equal(p.level(l).begin(), p.level(l).end(), fresh.level(l).begin())) << "level " << l;
  EXPECT_EQ(p.at(3, 12, 9), pal::kNow);
}

TEST(ColorPyramid, TheLevelDrawnHasTexelsAtLeastAPixelWide) {
  using render::Renderer;
  EXPECT_EQ(Renderer::level_for(1.0f, 6), 0);
  EXPECT_EQ(Renderer::level_for(0.5f, 6), 1);
  EXPECT_EQ(Renderer::level_for(0.3f, 6), 2);  // 4 cells = 1.2 px
  EXPECT_EQ(Renderer::level_for(0.12f, 6), 4);  // 16 cells = 1.9 px (8 would be 0.96)
  EXPECT_EQ(Renderer::level_for(0.05f, 6), 5);
  EXPECT_EQ(Renderer::level_for(0.05f, 2), 2);  // no coarser level held
}

}  // namespace
}  // namespace ts::ui
