// The benchmark panel, drawn headless: without results, with the results
// shipped in assets/bench/ (all three views draw), with a broken file (a
// notice, no crash), and collapsed (nothing read or drawn).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/core/bench_results_file.h"
#include "app/ui/panel_registry.h"
#include "tests/ui/headless_imgui.h"

namespace ts::ui {
namespace {

using test::Headless;
namespace fs = std::filesystem;

// Runs in a scratch directory, where the panel's default file may or may not be.
class BenchPanelDir : public ::testing::Test {
 protected:
  void SetUp() override {
    previous_ = fs::current_path();
    dir_ = fs::temp_directory_path() / ("ts_bench_panel_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "assets" / "bench");
    fs::current_path(dir_);
    // Only this directory: not the results the app would find beside it or in the source tree.
    setenv("TILESCOPE_ASSET_DIR", (dir_ / "no-assets").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("TILESCOPE_ASSET_DIR");
    fs::current_path(previous_);
    fs::remove_all(dir_);
  }
  static fs::path default_file() { return "assets/bench/h100.json"; }
  static fs::path shipped() { return fs::path(TILESCOPE_SOURCE_DIR) / "assets" / "bench" / "h100.json"; }

  fs::path previous_, dir_;
};

TEST_F(BenchPanelDir, WithoutResults) {
  Headless ui;
  AppState app;
  std::unique_ptr<Panel> panel = make_panel_bench();
  panel->open = true;
  EXPECT_GT(ui.frame(*panel, app), 0);
  EXPECT_TRUE(app.notices().empty());
}

TEST_F(BenchPanelDir, ShowsTheShippedResults) {
  int empty = 0;
  {  // the panel with nothing to show (one ImGui context at a time)
    Headless ui;
    AppState app;
    std::unique_ptr<Panel> panel = make_panel_bench();
    panel->open = true;
    empty = ui.frame(*panel, app);
  }
  fs::copy_file(shipped(), default_file());
  Headless ui;
  AppState app;
  std::unique_ptr<Panel> panel = make_panel_bench();
  panel->open = true;
  const int charts = ui.frame(*panel, app);  // loads the shipped file, draws the three views at 4096^3
  EXPECT_TRUE(app.notices().empty());
  // A bar and two labels for each of the 21 kernels, the grids, the lines of
  // the kernels shown, the roofline's ceilings and a dot per kernel.
  EXPECT_GT(charts, empty + 21 * 12 + 2000);
}

TEST_F(BenchPanelDir, BrokenFileIsANotice) {
  std::ofstream(default_file()) << "{\"format\": \"tilescope-bench\", \"version\": 1, \"rows\": [";
  Headless ui;
  AppState app;
  std::unique_ptr<Panel> panel = make_panel_bench();
  panel->open = true;
  EXPECT_GT(ui.frame(*panel, app), 0);
  ASSERT_EQ(app.notices().size(), 1u);
  EXPECT_EQ(app.notices()[0].level, NoticeLevel::Error);
  EXPECT_NE(app.notices()[0].text.find("benchmark"), std::string::npos);
}

TEST_F(BenchPanelDir, CollapsedDrawsNothingOfItsOwn) {
  fs::copy_file(shipped(), default_file());
  Headless ui;
  AppState app;
  std::unique_ptr<Panel> panel = make_panel_bench();
  panel->open = true;
  ImGui::NewFrame();
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_Always);
  panel->Draw(app);
  ImGui::Render();
  EXPECT_LT(ImGui::GetDrawData()->TotalVtxCount, 200);  // the title bar only: no file read, no charts
  EXPECT_TRUE(app.notices().empty());
}

}  // namespace
}  // namespace ts::ui
