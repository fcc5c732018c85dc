// The app survives any file: every hostile trace (tests/core/crafted_traces.h,
// checksums valid), a FIFO, a directory and an empty file, opened in the app,
// become an error notice and the trace on screen stays; a trace whose kernel
// name, device and date are as long as the validation allows is drawn by
// every panel and the menu bar with those strings elided, and the notices
// stay one printable line.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/core/display_text.h"
#include "app/core/trace_file.h"
#include "app/core/trace_validation.h"
#include "app/ui/app_chrome.h"
#include "app/ui/panel_registry.h"
#include "tests/core/crafted_traces.h"
#include "tests/ui/headless_imgui.h"
#include "tests/ui/ui_test_support.h"

namespace ts::ui {
namespace {

namespace fs = std::filesystem;

class HostileTraces : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tilescope_hostile_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::vector<std::byte>& bytes) {
    const fs::path p = dir_ / (name + ".tstrace");
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return p;
  }
  fs::path dir_;
};

// The longest run of the character c drawn in the last frame: glyph quads
// are found in the draw lists by their texture coordinates in the font atlas,
// and a run is one glyph quad right after another (as ImGui emits a string;
// glyphs outside a window's clip rectangle are not emitted at all).
std::size_t longest_drawn_run(ImWchar c) {
  const ImFontGlyph* g = ImGui::GetIO().Fonts->Fonts[0]->FindGlyphNoFallback(c);
  if (!g) return 0;
  std::size_t best = 0;
  const ImDrawData* d = ImGui::GetDrawData();
  for (int l = 0; l < d->CmdListsCount; ++l) {
    const ImVector<ImDrawVert>& v = d->CmdLists[l]->VtxBuffer;
    std::size_t run = 0;
    int last = -8;
    for (int i = 0; i + 2 < v.Size; ++i) {
      if (v[i].uv.x != g->U0 || v[i].uv.y != g->V0 || v[i + 2].uv.x != g->U1 || v[i + 2].uv.y != g->V1) continue;
      run = i == last + 4 ? run + 1 : 1;
      last = i;
      best = std::max(best, run);
    }
  }
  return best;
}

void expect_one_printable_line(const Notice& n) {
  EXPECT_LE(n.text.size(), kShownNotice) << n.text;
  EXPECT_TRUE(std::none_of(n.text.begin(), n.text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
      << n.text;
}

TEST_F(HostileTraces, EveryRefusedFileIsANoticeAndThePreviousTraceStays) {
  AppState app;
  app.loader().set_prefetch(false);
  app.install(test::small_example());
  const LoadedTrace* before = app.trace();
  std::vector<std::pair<std::string, fs::path>> files;
  for (const crafted::Case& c : crafted::hostile_cases()) files.emplace_back(c.name, write(c.name, c.bytes));
  files.emplace_back("empty", write("empty", {}));
  files.emplace_back("directory", dir_);
  const fs::path fifo = dir_ / "fifo.tstrace";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  files.emplace_back("fifo", fifo);  // refused, not read: a FIFO with no writer would hang a read
  for (const auto& [name, path] : files) {
    const std::size_t notices = app.notices().size();
    app.open_trace(path);
    EXPECT_FALSE(app.wait_for_loader()) << name;
    EXPECT_EQ(app.trace(), before) << name;
    ASSERT_EQ(app.notices().size(), notices + 1) << name;
    const Notice& n = app.notices().back();
    EXPECT_EQ(n.level, NoticeLevel::Error) << name;
    EXPECT_NE(n.text.find("still showing the previous trace"), std::string::npos) << name << ": " << n.text;
    expect_one_printable_line(n);
  }
}

TEST_F(HostileTraces, AVeryLongPathIsElidedInItsNotice) {
  AppState app;
  app.loader().set_prefetch(false);
  fs::path deep = dir_;
  for (int i = 0; i < 20; ++i) deep /= std::string(40, 'd');  // 820+ characters, no such file
  app.open_trace(deep / "t.tstrace");
  app.wait_for_loader();
  ASSERT_FALSE(app.notices().empty());
  expect_one_printable_line(app.notices().back());
  EXPECT_NE(app.notices().back().text.find("..."), std::string::npos) << app.notices().back().text;
}

TEST_F(HostileTraces, LongStringsFromAFileAreElidedOnScreen) {
  Trace t = crafted::honest();
  t.launch.kernel.assign(kMaxKernelName, 'k');
  t.launch.device_name.assign(kMaxDeviceName, 'W');
  t.launch.date.assign(kMaxDate, '9');
  auto lt = std::make_shared<LoadedTrace>();
  lt->trace = load_trace_from_memory(crafted::encode(t));  // the longest strings the validation lets through
  lt->index = std::make_unique<TraceIndex>(lt->trace);
  lt->origin = "opened " + (dir_ / std::string(200, 'p')).string();

  test::Headless ui;
  AppState app;
  app.loader().set_prefetch(false);
  app.install(lt);
  app.notify(NoticeLevel::Info, launch_title(lt->trace.launch) + ": opened, " + recorded_by(lt->trace.launch));
  app.select_cell(1, 1);
  auto panels = make_all_panels();
  WindowLayout layout(panels);
  // Two frames (the first starts the panels' background work); what the
  // second draws is counted.
  for (int frame = 0; frame < 2; ++frame) {
    ImGui::NewFrame();
    draw_main_menu(app, panels, layout);
    for (auto& p : panels) {
      p->open = true;
      ImGui::SetNextWindowSize(ImVec2(1200, 700), ImGuiCond_Always);
      p->Draw(app);
    }
    draw_notices(app, Rect{0, 900, 1600, 100});
    ImGui::Render();
  }
  // Unelided, each would run past the window's width (1200 pixels: more than
  // 100 glyphs of the default font).
  EXPECT_GT(longest_drawn_run('k'), 10u) << "the kernel's name is not on screen at all";
  EXPECT_GT(longest_drawn_run('W'), 10u) << "the device is not on screen at all";
  EXPECT_LE(longest_drawn_run('k'), kShownKernel);
  EXPECT_LE(longest_drawn_run('W'), kShownDevice);
  EXPECT_LE(longest_drawn_run('9'), kShownDate);
  EXPECT_LE(longest_drawn_run('p'), kShownPath);
  for (const Notice& n : app.notices()) expect_one_printable_line(n);
}

}  // namespace
}  // namespace ts::ui
