// app.h — the desktop app: options (from the command line or a benchmark)
// and the main loop.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "trace/trace.h"
#include "kernels/recorder.h"

namespace ts::ui {

class AppState;
class WindowLayout;

struct AppOptions {
  RecordParams params;                               // the first scene, recorded at start
  std::optional<std::filesystem::path> trace_file;   // open this instead of recording
  // Automation: applied once the first trace is on screen (or failed).
  std::optional<ElementCoord> select_c;
  std::optional<std::uint32_t> step;
  bool all_blocks = false;
  // Shared memory: zoomed in on the words of one shared region (As, Bs, sa ...) the selected thread touches.
  std::optional<std::string> follow_thread;  // a region's name: "As", "sa" ...
  // The matrices at this many pixels per cell, centred on cell (row, col) of C.
  std::optional<float> zoom;
  std::optional<std::pair<float, float>> center;
  // A window pixel hit-tested as the mouse would (--layout-json says which
  // cell is under it); with probe_click, clicked.
  std::optional<std::pair<float, float>> probe;
  bool probe_click = false;
  std::optional<std::filesystem::path> screenshot;   // taken on the last frame (see quit_after_frames)
  std::optional<std::filesystem::path> layout_json;  // where the matrices are on that screenshot
  // Quit after this many frames once the scene is ready (0: run until closed).
  // The screenshot is taken on the last of them, or 3 frames after ready.
  int quit_after_frames = 0;
  bool presentation = false;
  // Panels to open (ids of panel_list.h, e.g. "occupancy"), in both modes.
  std::vector<std::string> panels;
  // Where the layout is saved (--config-dir); empty: $TILESCOPE_CONFIG_DIR,
  // $XDG_CONFIG_HOME/tilescope or ~/.config/tilescope. A scripted scene
  // (quit_after_frames) uses a saved layout only when a directory is named,
  // so that slides and tests look the same on every machine.
  std::string config_dir;
  // No window: draw offscreen through EGL (servers without a display); the
  // app also falls back to it for a scripted screenshot when no window opens.
  bool headless = false;
  int width = 1600, height = 1000;
  bool vsync = true;
  // Benchmarks: called after each rendered frame with its number (from 0);
  // return false to quit.
  std::function<bool(AppState&, std::uint64_t frame)> after_frame;
  // Errors to show as the app's notices from the first frame (the browser
  // page: a URL parameter it could not use; the app still opens).
  std::vector<std::string> startup_errors;
  // Called after each rendered frame without making the scene scripted (the
  // browser page: files handed over by the page, questions about the state).
  std::function<void(AppState&, const WindowLayout&, int fb_width, int fb_height, float fb_scale)> on_frame;
};

// Opens the window and runs until it is closed; returns the process exit code
// (non-zero when the window cannot be created or a requested screenshot fails).
int run_app(const AppOptions& options);

}  // namespace ts::ui
