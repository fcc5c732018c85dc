// The Shared memory panel's arrangement (app/ui/shared_layout.h): the
// ladder's tiles in a side panel's room, checked against the cell sizes
// worked out by hand and against the rules (inside the room, a label band
// above every grid under another, nothing over anything).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "app/ui/shared_layout.h"

namespace ts::ui {
namespace {

constexpr float kFont = 16.0f;

struct PxBox {
  float x0, y0, x1, y1;
};

// Each grid in pixels, grown upward by its label band when it is not on the top row.
std::vector<PxBox> boxes(const SharedPlacement& p, const std::vector<SharedArrayShape>& arrays) {
  std::vector<PxBox> out;
  const float band = kLabelBandFonts * kFont * p.label_scale;
  for (std::size_t i = 0; i < arrays.size(); ++i)
    for (const SharedPlacement::Origin& o : p.origins[i]) {
      const float x = o.x * p.scale, y = o.y * p.scale;
      out.push_back({x, y > 0 ? y - band + 0.01f : y, x + std::max(arrays[i].cols * p.scale, arrays[i].label_px * p.label_scale),
                     y + arrays[i].rows * p.scale});
    }
  return out;
}

void expect_valid(const SharedPlacement& p, const std::vector<SharedArrayShape>& arrays, float room_w, float room_h) {
  ASSERT_EQ(p.origins.size(), arrays.size());
  for (std::size_t i = 0; i < arrays.size(); ++i) ASSERT_EQ(p.origins[i].size(), arrays[i].stages);
  const std::vector<PxBox> b = boxes(p, arrays);
  for (std::size_t i = 0; i < b.size(); ++i) {
    EXPECT_GE(b[i].x0, -0.01f);
    EXPECT_GE(b[i].y0, -0.01f);
    EXPECT_LE(b[i].x1, room_w + 0.01f) << "grid " << i;
    EXPECT_LE(b[i].y1, room_h + 0.01f) << "grid " << i;
    for (std::size_t j = i + 1; j < b.size(); ++j)
      EXPECT_FALSE(b[i].x0 < b[j].x1 && b[j].x0 < b[i].x1 && b[i].y0 < b[j].y1 && b[j].y0 < b[i].y1)
          << "grids " << i << " and " << j << " overlap";
  }
  EXPECT_NEAR(p.world_w * p.scale, std::max_element(b.begin(), b.end(), [](auto& a, auto& c) { return a.x1 < c.x1; })->x1, 0.5f);
}

// vectorized / warptile: As[8][128] and Bs[8][128] (labels "As", "Bs", 20 px)
// in a 374 x 120 room. Side by side: 256 cells across, 1.41 px. One over the
// other: 128 across (2.92 px), 16 rows and a band high (6.15 px): 2.92.
TEST(SharedLayout, WideTilesGoOneOverTheOther) {
  const std::vector<SharedArrayShape> arrays{{1, 8, 128, 20}, {1, 8, 128, 20}};
  const SharedPlacement p = place_shared_arrays(arrays, 374, 120, kFont);
  EXPECT_FALSE(p.arrays_side_by_side);
  EXPECT_NEAR(p.scale, 374.0f / 128, 0.01f);
  EXPECT_EQ(p.label_scale, 1.0f);
  expect_valid(p, arrays, 374, 120);
}

// The textbook kernels' small tiles keep the layout they always had: As beside Bs.
TEST(SharedLayout, SmallTilesStaySideBySide) {
  const std::vector<SharedArrayShape> arrays{{1, 16, 16, 20}, {1, 16, 16, 20}};
  const SharedPlacement p = place_shared_arrays(arrays, 374, 120, kFont);
  EXPECT_TRUE(p.arrays_side_by_side);
  EXPECT_NEAR(p.scale, 120.0f / 16, 0.01f);  // 16 rows in 120 px; across, 32 cells and a gap in 374
  expect_valid(p, arrays, 374, 120);
}

// tf32-tensor-core: 3 buffers of As (64 x 20) and of Bs (16 x 72), labels of
// 170 px ("As 2: k-tile 8 read now" at 16 px). All of As stacked is 192 rows
// (under 0.63 px in 120); its buffers in a row are 64 rows high, at most
// 120 / 64 = 1.875 px, with labels at 0.65 of the font (3 x 110 px and 2 gaps in 374).
TEST(SharedLayout, APipelinesTallBuffersGoInARow) {
  const std::vector<SharedArrayShape> arrays{{3, 64, 20, 170}, {3, 16, 72, 170}};
  for (const auto& [w, h] : {std::pair{374.0f, 120.0f}, std::pair{374.0f, 60.0f}, std::pair{1000.0f, 600.0f}}) {
    SCOPED_TRACE(std::to_string(w) + " x " + std::to_string(h));
    const SharedPlacement p = place_shared_arrays(arrays, w, h, kFont);
    expect_valid(p, arrays, w, h);
    if (h == 120.0f) {
      EXPECT_TRUE(p.stages_side_by_side[0]);
      EXPECT_GT(p.scale, 120.0f / 192 * 1.5f);
      EXPECT_LE(p.scale, 120.0f / 64 + 0.01f);
    }
  }
}

}  // namespace
}  // namespace ts::ui
