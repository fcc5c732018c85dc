// The memory panels, drawn headless for every kernel on a selected cell at
// each kind of replay step (ImGui asserts on unbalanced windows and tables);
// and the Trace vs Nsight Compute panel's text as ImGui logs what it drew,
// with a table typed into its path box and loaded as a user would.
#include <gtest/gtest.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/core/assets.h"
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

// Draws the panel once in a window as large as the display (so that no row is
// clipped), at the top left; returns the text it drew as ImGui logs it: a line
// per table row, each cell starting with "|" (collapsed headers stay closed).
std::string frame_text(Panel& panel, AppState& app) {
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize, ImGuiCond_Always);
  // The panel's End() finishes the log (ImGui ends it with the window that
  // started it), which sets the clipboard: ImGui's own, without a window.
  ImGui::SetClipboardText("");
  ImGui::LogToClipboard(0);
  panel.Draw(app);
  ImGui::LogFinish();  // in case the panel drew no window
  ImGui::Render();
  return ImGui::GetClipboardText();
}

// The bank view of a float4 request: its rows are the wavefronts as the
// model serves them, phase by phase. warptile at k = 1 of the first k-tile:
// the replay follows the costliest request, a load of B's fragment (lanes 0-3
// apart, 4-7 the same again: 4 quarter-warps, no conflict).
TEST(PanelMemory, BankViewOfAFloat4LoadIsItsPhases) {
  test::Headless ui;
  AppState app;
  std::unique_ptr<Panel> panel = make_panel_memory();
  panel->open = true;
  app.install(LoadedTrace::record(test::cpu_params(KernelKind::Warptile, 16, 128, InputKind::Random, 5)));
  app.select_cell(5, 7);
  app.set_step(3);
  settled_frame(ui, *panel, app);
  const std::string text = frame_text(*panel, app);
  EXPECT_NE(text.find("Bs load"), std::string::npos) << text;
  EXPECT_NE(text.find("16 distinct words: 1-way, 4 wavefronts in 4 phases (0 bank conflicts)"), std::string::npos) << text;
}

// Types `path` into the panel's path box (click, Ctrl+A, the characters) and clicks Load.
void load_table(Panel& panel, AppState& app, const std::string& path) {
  ImGuiIO& io = ImGui::GetIO();
  frame_text(panel, app);
  const ImGuiWindow* w = ImGui::FindWindowByName(panel.name());
  ASSERT_NE(w, nullptr);
  const ImVec2 field(w->DC.CursorStartPos.x + 8, w->DC.CursorStartPos.y + 6);  // the first item: the path box
  // The path box ends 5 font sizes short of the right edge; Load follows it.
  const ImVec2 load(w->ContentRegionRect.Max.x - ImGui::GetFontSize() * 5 + ImGui::GetStyle().ItemSpacing.x + 8,
                    field.y);
  const auto click = [&](ImVec2 at) {
    io.MousePos = at;
    io.MouseDown[0] = true;
    frame_text(panel, app);
    io.MouseDown[0] = false;
    frame_text(panel, app);
  };
  click(field);
  io.KeyMap[ImGuiKey_A] = 'A';
  io.KeyCtrl = true;
  io.KeysDown['A'] = true;
  frame_text(panel, app);
  io.KeyCtrl = false;
  io.KeysDown['A'] = false;
  io.AddInputCharactersUTF8(path.c_str());
  frame_text(panel, app);
  click(load);
}

// The cells of the comparison's row whose first cell is `counter`; empty if
// none. The log starts each cell with "|", ends a row with "|" and starts a
// line where text moves down: within a cell, on a second line (kept here as
// "\n"), or at the next row, but only after a cell with text (a row whose
// last cell is empty runs on into the next). So a row is the counter's cell
// and the 5 after it.
std::vector<std::string> row_cells(const std::string& text, const std::string& counter) {
  constexpr std::size_t kColumns = 6;
  const auto header = text.find("| counter |");
  if (header == std::string::npos) return {};
  std::vector<std::string> cells;
  std::istringstream parts(text.substr(header + 1));
  for (std::string cell; std::getline(parts, cell, '|');) {
    std::string lines;  // the cell's lines without the log's spaces
    std::istringstream in(cell);
    for (std::string line; std::getline(in, line);) {
      const auto first = line.find_first_not_of(' '), last = line.find_last_not_of(' ');
      if (first == std::string::npos) continue;
      if (!lines.empty()) lines += '\n';
      lines.append(line, first, last - first + 1);
    }
    cells.push_back(lines);
  }
  const auto row = std::find(cells.begin(), cells.end(), counter);
  if (cells.end() - row < static_cast<std::ptrdiff_t>(kColumns)) return {};
  return {row, row + kColumns};
}

std::string integer(double v) { return std::to_string(static_cast<long long>(v)); }

// A display tall enough for the whole comparison with its wrapped reasons.
struct TallHeadless : test::Headless {
  TallHeadless() { ImGui::GetIO().DisplaySize = ImVec2(1600, 8000); }
};

// The panel open on an emulator recording of tiled at TILE x size^3 (focused on
// `focus` blocks, if any), its default table loaded and drawn once (a new
// window draws nothing in its first frame).
struct NcuPanelScene {
  TallHeadless ui;
  AppState app;
  std::unique_ptr<Panel> panel = make_panel_memory_ncu();

  NcuPanelScene(int tile, int size, std::vector<std::uint32_t> focus = {}) {
    app.install(LoadedTrace::record(test::cpu_params(KernelKind::Tiled, tile, size, InputKind::Random, 5), focus));
    panel->open = true;
    frame_text(*panel, app);
  }
  std::string text() { return frame_text(*panel, app); }
  void load(const std::string& path) { load_table(*panel, app, path); }
};

TEST(PanelMemoryNcu, TableWithPerInstructionCountsShowsThemForTheTraceOnScreen) {
  // What Nsight measured for tiled TILE 16 at N = 4096, read from the file
  // itself: shared store wavefronts per executed instruction (SASS-patched
  // op_st plus op_ldgsts) and the hardware counter (op_st plus op_ldgsts).
  const std::filesystem::path file = resolve_asset("assets/ncu/counters-vs-ncu-4096.json");
  std::ifstream in(file);
  ASSERT_TRUE(in) << file;
  const nlohmann::json table = nlohmann::json::parse(in);
  nlohmann::json row;
  for (const nlohmann::json& r : table["rows"])
    if (r["kernel"] == "tiled" && r["tile"] == 16 && r["n"] == 4096) row = r;
  ASSERT_TRUE(row.is_object());
  const nlohmann::json& hw = row.at("hardware");
  const double trace = row.at("trace").at("shared_store_wavefronts").get<double>();
  // cp.async's metrics are added where the table has them (this kernel uses none).
  const double per_instruction =
      hw.at("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum").get<double>() +
      hw.value("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", 0.0);
  const double hardware = hw.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum").get<double>() +
                          hw.value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", 0.0);
  ASSERT_EQ(trace, per_instruction);  // what the panel should call equal
  ASSERT_NE(trace, hardware);

  // The same launch, focused on block 0 (a full trace at 4096^3 is far past the limit).
  NcuPanelScene scene(16, 4096, {0});
  scene.load("assets/ncu/counters-vs-ncu-4096.json");
  const std::string text = scene.text();
  ASSERT_NE(text.find("NVIDIA H100"), std::string::npos) << text;  // the 4096 table, not the default one

  // The Nsight Compute and agree cells: the hardware counter's figure, then the per-instruction one.
  const std::vector<std::string> store = row_cells(text, "shared store wavefronts");
  ASSERT_EQ(store.size(), 6u) << text;  // counter, this trace, table's trace, ncu, agree, why
  EXPECT_EQ(store[2], integer(trace));
  EXPECT_EQ(store[3], integer(hardware) + "\n" + integer(per_instruction));
  EXPECT_EQ(store[4], "differs\nequal");
  EXPECT_NE(store[5].find("measured"), std::string::npos) << store[5];
  // A global counter has no per-instruction count: one line.
  const std::vector<std::string> global = row_cells(text, "global load requests");
  ASSERT_EQ(global.size(), 6u) << text;
  EXPECT_EQ(global[3], global[2]);  // 268435456 both: no second line
  EXPECT_EQ(global[4], "equal");
  EXPECT_NE(text.find("Nsight Compute\nper instruction"), std::string::npos) << text;  // the header
  EXPECT_NE(text.find("Nsight Compute per instruction (second line)"), std::string::npos) << text;  // the note
  // "this trace" is block 0's counts: said below the table. (4096 / 16)^2 blocks.
  EXPECT_NE(text.find("this trace (1 of 65536 blocks: a focused trace)"), std::string::npos) << text;
}

TEST(PanelMemoryNcu, TableWithoutPerInstructionCountsLooksAsBefore) {
  NcuPanelScene scene(16, 64);  // its default table: assets/ncu/memory-vs-ncu.json
  const std::string text = scene.text();
  ASSERT_NE(text.find("NVIDIA H200"), std::string::npos) << text;
  // One line in every cell of the row, as before: the table's figures for tiled TILE 16 at N = 64.
  const std::vector<std::string> store = row_cells(text, "shared store wavefronts");
  ASSERT_EQ(store.size(), 6u) << text;
  EXPECT_EQ(store[2], "1024");
  EXPECT_EQ(store[3], "1024");
  EXPECT_EQ(store[4], "equal");
  EXPECT_EQ(text.find("Nsight Compute\nper instruction"), std::string::npos) << text;  // the header as before
  EXPECT_EQ(text.find("(second line)"), std::string::npos) << text;                   // no note
  EXPECT_NE(text.find("this trace: recorded by CPU emulator;"), std::string::npos) << text;  // a full trace
}

TEST(PanelMemoryNcu, WithoutARowForTheTraceItNamesTheTablesSizes) {
  NcuPanelScene scene(8, 24);
  std::string text = scene.text();
  EXPECT_NE(text.find("the table's launches are at M = N = K = 64 and 256 "), std::string::npos) << text;
  scene.load("assets/ncu/counters-vs-ncu-4096.json");
  text = scene.text();
  EXPECT_NE(text.find("the table's launches are at M = N = K = 4096 "), std::string::npos) << text;
}

}  // namespace
}  // namespace ts::ui
