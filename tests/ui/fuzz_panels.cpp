// fuzz_panels.cpp — the app's side of fuzzing: any bytes go to the trace
// loader (and again with the checksum resealed, tests/fuzz/resealed.h); a
// trace that loads is installed in a fresh AppState and every panel of the
// app is drawn headless — Dear ImGui with no window and no GL context: frames
// begun and ended, each panel's Draw called, no GL upload (GridTexture skips
// it without GL) — at the first, a middle and the last replay step, a cell of
// C selected, once with every block's tiles and colour by value. Frames are
// drawn until the panels' background analyses have landed, so what they show
// is drawn too. A panel's Draw is called directly, not through the app's
// guard: an exception that the app would turn into a notice is a finding here.
//   build-fuzz/tests/ui/fuzz_panels -max_total_time=60 CORPUS_DIR   (TILESCOPE_FUZZ, clang)
//   build/tests/ui/fuzz_panels_replay tests/fuzz/corpus SEEDS_DIR  (every GUI build: a test)
#include <imgui.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "app/core/trace_file.h"
#include "app/ui/app_state.h"
#include "app/ui/panel_registry.h"
#include "tests/fuzz/resealed.h"
#include "tests/ui/headless_imgui.h"

namespace {

using ts::ui::AppState;
using ts::ui::Panel;

// One ImGui context for the whole run (building the font atlas per input
// would cost more than the panels); every input gets fresh panels and state.
void ensure_imgui() { static const ts::ui::test::Headless imgui; }

// Every panel in one frame, as the app draws them; returns the vertex count.
int frame(std::vector<std::unique_ptr<Panel>>& panels, AppState& app) {
  ImGui::NewFrame();
  for (auto& panel : panels) {
    panel->open = true;
    ImGui::SetNextWindowSize(ImVec2(900, 700), ImGuiCond_Always);
    panel->Draw(app);
  }
  ImGui::Render();
  return ImGui::GetDrawData()->TotalVtxCount;
}

// Frames until what the panels draw stops changing (their background
// analyses, on fuzzer-sized traces, land within a few frames).
void settled_frames(std::vector<std::unique_ptr<Panel>>& panels, AppState& app) {
  int last = -1, now = frame(panels, app);
  for (int i = 0; i < 200 && now != last; ++i) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    last = now;
    now = frame(panels, app);
  }
}

void draw_every_panel(std::span<const std::uint8_t> bytes) {
  auto lt = std::make_shared<ts::ui::LoadedTrace>();
  try {
    lt->trace = ts::load_trace_from_memory(std::as_bytes(bytes));
  } catch (const ts::TraceFileError&) {
    return;  // refused: the app shows a notice (tests/ui/app_state_test.cpp)
  }
  lt->index = std::make_unique<ts::TraceIndex>(lt->trace);
  lt->origin = "fuzzed";
  ensure_imgui();
  AppState app;
  app.loader().set_prefetch(false);
  app.install(lt);
  const ts::LaunchInfo& L = lt->trace.launch;
  app.select_cell(static_cast<std::uint32_t>(L.m - 1), static_cast<std::uint32_t>(L.n / 2));
  auto panels = ts::ui::make_all_panels();
  const std::uint32_t last = app.timeline().last_step();
  for (const std::uint32_t step : {0u, last / 2, last}) {
    app.set_step(step);
    settled_frames(panels, app);
  }
  app.replay.all_blocks = true;
  app.view.toggle_color_mode();
  app.set_step(last / 3);
  frame(panels, app);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ts::fuzz::as_is_and_resealed(data, size, draw_every_panel);
  return 0;
}
