// The occupancy panel, drawn headless for every kernel and TILE.
#include <gtest/gtest.h>

#include "app/ui/panel_registry.h"
#include "kernels/kernel_kind.h"
#include "tests/ui/headless_imgui.h"

namespace ts::ui {
namespace {

using test::Headless;

TEST(PanelOccupancy, DrawsEveryKernelAndTile) {
  Headless ui;
  AppState app;
  std::unique_ptr<Panel> panel = make_panel_occupancy();
  panel->open = true;
  for (KernelKind k : kAllKernels)
    for (int t : kAllTiles) {
      app.params.kernel = k;
      app.params.tile = t;
      EXPECT_GT(ui.frame(*panel, app), 500) << static_cast<int>(k) << " " << t;
    }
}

}  // namespace
}  // namespace ts::ui
