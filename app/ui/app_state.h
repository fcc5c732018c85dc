// app_state.h — what the panels share: the current trace and its index, the
// selected cell of C, the replay step and what it highlights, the live GPU,
// notices, and the recorder controls. One AppState lives for the whole run;
// panels read it and change it during Draw(), the app applies the requests
// between frames.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/core/replay.h"
#include "trace/trace.h"
#include "app/core/trace_index.h"
#include "app/ui/counter_job.h"
#include "app/ui/theme.h"
#include "app/ui/trace_loader.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/recorder.h"

namespace ts::render {
class Renderer;
}

namespace ts::ui {

enum class NoticeLevel { Info, Warning, Error };

struct Notice {
  NoticeLevel level = NoticeLevel::Info;
  std::string text;
  double shown_at = 0.0;  // seconds since start; notices fade after a while
};

// The replay transport: where we are, and whether it plays by itself.
struct ReplayState {
  std::uint32_t step = 0;
  bool playing = false;
  float steps_per_second = 4.0f;
  bool all_blocks = false;  // show the tiles every block loads in this iteration
  double play_accumulator = 0.0;  // seconds of play not yet turned into steps
};

struct Selection {
  std::optional<ElementCoord> cell;  // the selected cell of C
};

// How cells are coloured in the grids.
enum class ColorMode { ReplayState, Value };

struct ViewOptions {
  ColorMode color_mode = ColorMode::ReplayState;
  bool presentation = false;  // full screen, large fonts, high contrast
  // Windows stay in the default layout: one the user moves snaps back.
  bool lock_layout = false;
  std::uint64_t fit_requests = 0;  // the matrices view refits when this changes
  bool show_values = true;    // numbers in cells that are large enough
  // Shared memory: zoomed in on the words of one shared region (As, Bs, sa ...) the selected thread
  // touches at each step; nullopt: every buffer in view.
  std::optional<std::string> follow_thread;  // a region's name: "As", "sa" ...
  float text_scale = 1.0f;    // Ctrl + / Ctrl -: fonts rebuilt at this size, crisp
  std::string open_panel;     // a panel's id: the app opens it after this frame
  // Scripted views (automation, benchmarks, window tests): the matrices panel
  // puts cell `center` of C at the canvas' centre at this zoom, once.
  struct Camera {
    float pixels_per_cell = 1.0f;
    float center_row = 0, center_col = 0;  // in cells of C (fractions allowed)
  };
  std::optional<Camera> camera_request;
  // A window pixel to hit-test as the mouse would (on_screen.probe says
  // which cell is under it); with probe_click it is also clicked.
  std::optional<std::pair<float, float>> probe;
  bool probe_click = false;

  // What the keys and the View menu both do.
  void toggle_color_mode() { color_mode = color_mode == ColorMode::Value ? ColorMode::ReplayState : ColorMode::Value; }
  void larger_text() { text_scale = std::min(3.0f, text_scale * 1.15f); }
  void smaller_text() { text_scale = std::max(0.6f, text_scale / 1.15f); }
};

// Where a matrix is drawn this frame, in window pixels: cell (r, c) covers
// [x + c * cell, x + (c + 1) * cell) x [y + r * cell, y + (r + 1) * cell).
// Written by the matrices panel; read by automation (the window tests).
struct ScreenGrid {
  bool visible = false;
  float x = 0, y = 0, cell = 0;
  std::uint32_t rows = 0, cols = 0;
};
struct ScreenProbe {
  char matrix = 0;  // 'A', 'B', 'C'; 0: no cell under the probe
  std::uint32_t row = 0, col = 0;
};
struct ScreenLayout {
  ScreenGrid a, b, c;
  std::optional<ScreenProbe> probe;
};
// The Shared memory panel's buffers this frame, written by that panel: each
// buffer's grid (rows: the buffer's, from `first_row` of its array), its
// label and, when drawn, where and at what font size.
struct ScreenSharedGrid {
  ScreenGrid grid;
  std::string array;  // the region's name: "As", "Bs", "sa" ...
  std::uint32_t stage = 0, first_row = 0;
  std::string label;
  bool label_drawn = false;
  float label_x = 0, label_y = 0, label_w = 0, label_h = 0, label_px = 0;
};
struct ScreenShared {
  std::vector<ScreenSharedGrid> grids;
  // The word under view.probe: its grid (an index into grids), and its row
  // in the whole array and column, as hover finds them.
  struct Probe {
    std::size_t grid = 0;
    std::uint32_t row = 0, col = 0;
  };
  std::optional<Probe> probe;
};

// The occupancy strip beside the TILE buttons as the controls panel last
// drew it: a row per GPU (no figures where the GPU has none) and the small
// print naming where the registers came from. Read by automation.
struct ScreenOccupancyRow {
  std::string gpu;
  bool has_figures = false;
  int blocks_per_sm = 0;
  std::string limit;  // limit_name() of the one that binds
  double occupancy = 0;
};
struct ScreenOccupancy {
  std::string kernel;
  int tile = 0;
  std::vector<ScreenOccupancyRow> rows;
  std::string registers_from;
};

// What File > Open kernel... edits: the flags of `record --kernel-file`, as typed.
struct KernelForm {
  char file[512] = "";
  char entry[128] = "";
  char block[32] = "16x16";
  char block_tile[32] = "";
  char defines[512] = "";  // "TILE=16 BK=8": space-separated NAME=VALUE
  char args[512] = "";     // "alpha=2 beta=0": the entry's scalars, space-separated NAME=VALUE
};

// File > Trace a kernel as it is...: the flags of `record --cuda-file`,
// `--library cublas` and `--exec` (docs/tracer.md); M, N, K are the Controls'.
struct TracerForm {
  int source = 0;  // 0: a CUDA file, 1: cuBLAS, 2: a program
  char file[512] = "";
  char entry[128] = "";
  char grid[32] = "";
  char block[32] = "16,16";
  char dynamic_shared[16] = "0";
  char defines[512] = "";  // space-separated NAME=VALUE
  char args[512] = "";     // space-separated NAME=VALUE; pointers @A, @B, @C
  int math = 0;            // cuBLAS: 0 fp32, 1 tf32
  char command[1024] = ""; // a program and its arguments, space-separated
  char kernel_name[128] = "";
  int launch = 0;
  int layout = 0;  // 0: the default (col for cuBLAS, row else), 1: row, 2: col
};

// A form field's space-separated words ("alpha=2 beta=0" -> "alpha=2", "beta=0").
std::vector<std::string> field_words(const char* text);

// The `tilescope record` arguments the form asks for (without -o), for sizes m, n, k.
std::vector<std::string> tracer_form_arguments(const TracerForm& f, int m, int n, int k);

class AppState {
 public:
  AppState();
  ~AppState();

  // ---- the trace ----
  // The trace on screen, or nullptr before the first one arrives. It never
  // changes under a panel during a frame; a new one replaces it between frames.
  const LoadedTrace* trace() const { return trace_.get(); }
  std::shared_ptr<const LoadedTrace> trace_shared() const { return trace_; }
  // Increases whenever the trace is replaced: panels cache what they derive
  // from the trace and compare generations.
  std::uint64_t trace_generation() const { return generation_; }
  const ReplayTimeline& timeline() const { return timeline_; }

  // ---- selection and replay ----
  Selection selection;
  ReplayState replay;
  ReplayStep step() const { return timeline_.at(replay.step); }
  void set_step(std::uint32_t step);  // clamps to the timeline
  void step_by(int delta);
  // Play / pause (Space, the Play button); playing from the last step starts over.
  void toggle_playing();
  void select_cell(std::uint32_t row, std::uint32_t col);
  // What the selected cell highlights at the current step (nullopt: nothing
  // selected, or no trace). Recomputed only when trace, cell or step change.
  const std::optional<CellHighlight>& highlight();
  // Changes whenever highlight() would return something new.
  std::uint64_t highlight_generation();

  ViewOptions view;
  Fonts fonts;
  ScreenLayout on_screen;
  ScreenShared on_screen_shared;
  std::optional<ScreenOccupancy> on_screen_occupancy;
  // Plays the replay: advances the step by elapsed time x speed; stops at the end.
  void advance_playback(double seconds);
  // A PNG of the whole window after this frame (File > Export PNG, F12).
  std::optional<std::filesystem::path> screenshot_request;

  // ---- the recorder ----
  // What the controls edit; record() records it (off the UI thread). With
  // seed 0 it keeps the inputs of the trace on screen (a TILE change shows
  // the same matrices); record_new_inputs() draws fresh ones.
  RecordParams params;
  bool record_on_change = true;  // controls re-record as soon as they change
  void record();
  void record_new_inputs();
  void open_trace(const std::filesystem::path& path);
  void save_trace(const std::filesystem::path& path);
  bool busy() const { return loader_.busy(); }
  std::string busy_what() const { return loader_.busy_what(); }
  double busy_seconds() const { return loader_.busy_seconds(); }

  // ---- a kernel of the user's own (File > Open kernel..., --kernel-file) ----
  // Records it (params.user = spec) with the inputs on screen.
  void open_kernel(UserKernelSpec spec);
  // Re-records when params.user's file changed on disk (its modification time,
  // looked at every half second); call once a frame.
  void watch_kernel_file();
  KernelForm kernel_form;

  // ---- a kernel as it is, through the tracer (File > Trace a kernel as it is...) ----
  // Runs `tilescope record ARGS` in its own process and shows what it wrote.
  void trace_command(std::vector<std::string> args) { loader_.record_command(std::move(args)); }
  TracerForm tracer_form;

  // ---- past the full-trace limit ----
  // A launch too large to trace whole is shown as a focused trace: the
  // selected cell's block (and, with focus_sharing, the blocks that load the
  // same tiles of A and B) traced, recorded again in the background when a
  // cell of an untraced block is clicked; the whole launch's counters come
  // from `counters`, counted, not traced.
  bool focus_sharing = false;
  std::vector<std::uint32_t> focus_for(const RecordParams& p, std::optional<ElementCoord> cell) const;
  // The block that computes a cell of C (none: cell (0, 0)), as a linear id.
  static std::uint32_t block_of(const RecordParams& p, std::optional<ElementCoord> cell);
  // The trace on screen as recording parameters (its seed: the same inputs).
  RecordParams trace_params() const;
  static bool whole_launch(const RecordParams& p);
  CounterJob counters;

  // The GPU, probed once at start (never throws; says why when absent).
  const gpu::DeviceStatus& gpu() const { return gpu_; }

  // ---- notices ----
  void notify(NoticeLevel level, std::string text);
  std::vector<Notice>& notices() { return notices_; }
  double now() const;  // seconds since start

  // ---- for the app ----
  // Takes a finished background job, if any: installs its trace, or turns
  // its failure into a notice (the previous trace stays). Returns true when
  // a new trace was installed.
  bool poll_loader();
  // Installs a trace directly (tests, benchmarks).
  void install(std::shared_ptr<const LoadedTrace> trace);
  // Waits until no job the user asked for is left, installing what arrives
  // (tests, benchmarks); returns whether a new trace was installed.
  bool wait_for_loader();
  TraceLoader& loader() { return loader_; }

  render::Renderer* renderer = nullptr;  // the GL renderer, set by the app

 private:
  std::shared_ptr<const LoadedTrace> trace_;
  std::uint64_t generation_ = 0;
  ReplayTimeline timeline_;
  TraceLoader loader_;
  gpu::DeviceStatus gpu_;
  std::vector<Notice> notices_;
  double start_time_ = 0.0;
  double kernel_checked_at_ = 0.0;  // when watch_kernel_file last looked at the file

  struct HighlightKey {
    std::uint64_t generation = ~0ull;
    std::uint32_t step = ~0u;
    std::optional<ElementCoord> cell;
  };
  HighlightKey highlight_key_;
  std::optional<CellHighlight> highlight_;
  std::uint64_t highlight_generation_ = 0;
};

}  // namespace ts::ui
