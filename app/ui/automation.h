// automation.h — scripted scenes for slides, docs and the window tests: once
// the first trace is on screen (or has failed), select a cell, go to a step,
// take a screenshot, write where the matrices and panels are, and quit.
#pragma once

#include <cstdint>
#include <string>

#include "app/ui/app.h"
#include "app/ui/window_layout.h"

namespace ts::ui {

class AppState;

class Automation {
 public:
  explicit Automation(const AppOptions& options) : options_(options) {}

  // Before drawing a frame: applies the scene the first time it is ready.
  void before_frame(AppState& app);
  // After rendering it (before the swap): screenshot and layout when due.
  // Returns false when the app should quit.
  bool after_render(AppState& app, const WindowLayout& layout, int fb_width, int fb_height, float fb_scale);
  // Non-zero when a requested screenshot could not be written.
  int exit_code() const { return exit_code_; }

 private:
  bool ready(AppState& app) const;

  const AppOptions& options_;
  bool applied_ = false;
  bool screenshot_done_ = false;
  int frames_ready_ = 0;
  int exit_code_ = 0;
};

// The layout on screen as JSON, in framebuffer pixels: the matrices (where
// cell (0, 0) is, the cell size), every open panel's window ("panels": name,
// id, x, y, width, height, and whether its contents are wider or taller than
// the window), the notices strip, the mode, and the Shared memory panel's
// buffers ("shared": each a grid with its array, stage, first row and label,
// and where the label was drawn; "shared_probe": the word under --probe),
// and the occupancy strip's rows as drawn ("occupancy_strip").
std::string screen_layout_json(const AppState& app, const WindowLayout& layout, int fb_width, int fb_height,
                               float fb_scale);

}  // namespace ts::ui
