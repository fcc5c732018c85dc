// The SM timeline panel, drawn headless: without data, with a shipped
// recording (bars, and the occupancy strip when blocks are sub-pixel), and
// with a broken file (a notice, no crash).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/core/timing_file.h"
#include "app/ui/panel_registry.h"
#include "tests/core/timing_test_support.h"
#include "tests/ui/headless_imgui.h"

namespace ts::ui {
namespace {

using test::Headless;

// A launch on 2 SMs: `per_sm` blocks each, 8 at a time.
TimingRecording synthetic(int per_sm) {
  std::vector<BlockTiming> blocks;
  for (int b = 0; b < 2 * per_sm; ++b) {
    const std::uint64_t wave = static_cast<std::uint64_t>(b / 2 / 8);
    blocks.push_back({static_cast<std::uint32_t>(b % 2), 0, 1000 + wave * 100, 1000 + wave * 100 + 95});
  }
  return ::ts::test::tiled16_timing(2, std::move(blocks));
}

// Runs in a scratch directory holding the panel's default file, if any.
class InScratchDir : public ::testing::Test {
 protected:
  void SetUp() override {
    previous_ = std::filesystem::current_path();
    dir_ = std::filesystem::temp_directory_path() / ("ts_panel_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_ / "assets" / "timelines");
    std::filesystem::current_path(dir_);
  }
  void TearDown() override {
    std::filesystem::current_path(previous_);
    std::filesystem::remove_all(dir_);
  }
  static std::filesystem::path default_file() { return "assets/timelines/h200_tiled_t16_4096.json"; }

  std::filesystem::path previous_, dir_;
};

TEST_F(InScratchDir, TimelinePanelWithoutData) {
  Headless ui;
  AppState app;
  std::unique_ptr<Panel> panel = make_panel_timeline();
  panel->open = true;
  EXPECT_GT(ui.frame(*panel, app), 0);
  EXPECT_EQ(Headless::windows_drawn(), 1);  // no tracks
  EXPECT_TRUE(app.notices().empty());
}

TEST_F(InScratchDir, TimelinePanelOpensTheShippedRecording) {
  for (int per_sm : {40, 20000}) {  // bars; then too many blocks per pixel: the occupancy strip
    save_timing(synthetic(per_sm), default_file().string());
    Headless ui;
    AppState app;
    std::unique_ptr<Panel> panel = make_panel_timeline();
    panel->open = true;
    // The tracks are a child window: a second window appears once the
    // recording is loaded (possibly within the first frame).
    int vertices = ui.frame(*panel, app);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (Headless::windows_drawn() < 2 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      vertices = ui.frame(*panel, app);
    }
    EXPECT_EQ(Headless::windows_drawn(), 2) << per_sm << " blocks per SM never showed";
    EXPECT_TRUE(app.notices().empty());
    if (per_sm > 1000) {  // bars would take 4 vertices for each of 40000 blocks
      EXPECT_LT(vertices, 60000) << "drew every block instead of the strip";
    }
  }
}

TEST_F(InScratchDir, TimelinePanelReportsABrokenFile) {
  std::ofstream(default_file()) << "{\"format\": \"tilescope-timing\", \"version\": 1}";
  Headless ui;
  AppState app;
  std::unique_ptr<Panel> panel = make_panel_timeline();
  panel->open = true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (app.notices().empty() && std::chrono::steady_clock::now() < deadline) {
    ui.frame(*panel, app);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_FALSE(app.notices().empty());
  EXPECT_EQ(app.notices().back().level, NoticeLevel::Error);
  EXPECT_NE(app.notices().back().text.find("timeline"), std::string::npos) << app.notices().back().text;
}

}  // namespace
}  // namespace ts::ui
