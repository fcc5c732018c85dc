// The memory panels, drawn headless for every kernel on a selected cell at
// each kind of replay step (ImGui asserts on unbalanced windows and tables).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/ui/panel_registry.h"
#include "kernels/kernel_kind.h"
#include "tests/ui/headless_imgui.h"
#include "tests/ui/ui_test_support.h"

namespace ts::ui {
namespace {

using test::Headless;

// Draws until the panel's background work has landed (its vertex count stops changing).
int settled_frame(Headless& ui, Panel& panel, AppState& app) {
  int last = -1, now = ui.frame(panel, app);
  for (int i = 0; i < 200 && now != last; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    last = now;
    now = ui.frame(panel, app);
  }
  return now;
}

TEST(PanelMemory, DrawsEveryKernelAtEveryKindOfStep) {
  Headless ui;
  AppState app;
  std::vector<std::unique_ptr<Panel>> panels;
  panels.push_back(make_panel_memory());
  panels.push_back(make_panel_memory_reuse());
  panels.push_back(make_panel_memory_compare());
  panels.push_back(make_panel_memory_ncu());
  for (auto& p : panels) p->open = true;
  for (KernelKind k : kAllKernels) {
    app.install(LoadedTrace::record(test::cpu_params(k, 8, 24, InputKind::Random, 5)));
    app.select_cell(17, 9);
    for (std::uint32_t step : {0u, 1u, 5u, app.timeline().last_step()}) {
      app.set_step(step);
      for (auto& p : panels) EXPECT_GT(settled_frame(ui, *p, app), 100) << p->name() << " kernel " << static_cast<int>(k);
    }
  }
}

TEST(PanelMemory, WithoutATraceOrACellItSaysWhatToDo) {
  Headless ui;
  AppState app;
  std::unique_ptr<Panel> panel = make_panel_memory();
  panel->open = true;
  EXPECT_GT(ui.frame(*panel, app), 0);
  app.install(test::small_example());
  EXPECT_GT(ui.frame(*panel, app), 0);  // a trace, no cell
}

}  // namespace
}  // namespace ts::ui
