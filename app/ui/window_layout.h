// window_layout.h — puts the panels' windows where layout.h says, frame by
// frame, and keeps what the user changed: a window they moved or resized
// stays there (until View > Reset layout), and the open panels and moved
// windows of both modes are saved in Dear ImGui's ini file in the user's
// config directory ($TILESCOPE_CONFIG_DIR, else $XDG_CONFIG_HOME/tilescope,
// else ~/.config/tilescope), read back at the next start.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/ui/layout.h"
#include "app/ui/panel.h"

namespace ts::ui {

class AppState;

// Where the saved layout lives: dir/layout.ini. `explicit_dir` (--config-dir)
// first, then the environment; nullopt when there is no home to save in.
std::optional<std::filesystem::path> layout_config_dir(const std::string& explicit_dir);

class WindowLayout {
 public:
  explicit WindowLayout(std::vector<std::unique_ptr<Panel>>& panels) : panels_(panels) {}
  WindowLayout(const WindowLayout&) = delete;
  WindowLayout& operator=(const WindowLayout&) = delete;

  // Reads dir/layout.ini (when it exists) and saves there from now on: call
  // after ImGui::CreateContext and before the first frame. Without it the
  // layout is the default one every run and nothing is written.
  void use_config_dir(const std::filesystem::path& dir);
  std::optional<std::filesystem::path> ini_file() const { return ini_; }
  // Writes the ini file when ImGui asks (a few seconds after a change; the
  // app calls this every frame) or, with `now`, at once (at exit, before
  // ImGui's context goes). Nothing without use_config_dir().
  void save(bool now = false);

  // Before the panels draw: recomputes the arrangement when the window's
  // size, the open panels, the mode or the text size changed, or on reset;
  // then sets the next window rectangle of each open panel that needs one.
  void place(AppState& app, float menu_height);
  void before_draw(const Panel& panel);
  // After a panel's Draw(): a window the user moved or resized is theirs.
  void after_draw(const Panel& panel, bool presentation, bool locked);
  // Forget what the user moved: every window back in the default layout.
  void reset();
  // Normal mode <-> presentation mode: each remembers its own open panels.
  void switch_mode();
  bool presenting() const { return presenting_; }

  Rect notices() const { return notices_; }
  // This frame's rectangle of an open panel's window, in window pixels.
  std::optional<Rect> window_rect(const Panel& panel) const;
  struct OpenWindow {
    const Panel* panel;
    Rect rect;
  };
  // Every open panel's window this frame, in View-menu order.
  std::vector<OpenWindow> open_windows() const;

 private:
  std::vector<std::unique_ptr<Panel>>& panels_;
  std::string key_;                          // what the current arrangement was computed for
  std::map<const Panel*, Rect> placed_;      // where each window was put (or last seen)
  std::set<const Panel*> set_now_;           // set its rectangle this frame
  std::map<std::string, Rect> custom_;       // normal mode: windows the user moved, by panel id
  Rect notices_;
  std::optional<std::filesystem::path> ini_;
  bool presenting_ = false;  // which mode `open` belongs to
  bool save_failed_ = false;
  friend struct LayoutIni;
};

}  // namespace ts::ui
