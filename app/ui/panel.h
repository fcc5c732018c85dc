// panel.h — the interface every window of the app implements.
//
// HOW TO ADD A PANEL (one new file plus one line):
//   1. Write app/ui/panel_<name>.cpp: a struct deriving from ts::ui::Panel,
//      with its state as members and a Draw() that begins its window and
//      returns early when the window is collapsed:
//
//        struct PanelFoo : Panel {
//          PanelFoo() : Panel("Foo", {PanelSlot::Float, 1.0f, false}) {}
//          void Draw(AppState& app) override {
//            const PanelWindow window(*this);
//            if (!window) return;
//            ... read app.trace(), app.highlight(), app.replay; call app.notify() ...
//          }
//        };
//        TS_DEFINE_PANEL(foo, PanelFoo)
//
//   2. Add the line `TS_PANEL(foo)` to app/ui/panel_list.h, where the panel
//      should appear in the View menu. The build compiles panel_foo.cpp
//      because of that line (app/ui/CMakeLists.txt reads the list); a panel
//      that needs another library adds it to tilescope_ui there.
//
// The app places each window in the default layout (layout.h), computed from
// the window's size and the open panels; a window the user moves or resizes
// stays where they put it (remembered between runs, like which panels are
// open) until View > Reset layout. Panels share everything through AppState
// (app_state.h): the current trace and its index, the selected cell, the
// replay step and what it highlights, the GPU, notices and the recorder.
#pragma once

#include <exception>
#include <memory>
#include <string>

#include <imgui.h>

namespace ts::ui {

class AppState;

// Where a window goes in the default layout. Panels of one slot share it,
// stacked top to bottom in list order, each taking `weight` of the height.
enum class PanelSlot {
  Left,    // the controls column
  Center,  // the matrices
  Right,   // inspection: selected cell, shared memory, source
  Bottom,  // the replay transport, under the center
  Float,   // tool windows opened from the View menu, over the center; they
           // start closed whatever open_by_default says (they would cover the matrices)
};

struct PanelLayout {
  PanelSlot slot = PanelSlot::Float;
  float weight = 1.0f;
  bool open_by_default = true;
  bool presenting = false;  // shown in presentation mode unless closed there
};

class Panel {
 public:
  Panel(std::string name, PanelLayout layout)
      : open(layout.open_by_default && layout.slot != PanelSlot::Float),
        open_in_other_mode(layout.presenting),
        name_(std::move(name)),
        layout_(layout) {}
  virtual ~Panel() = default;
  Panel(const Panel&) = delete;
  Panel& operator=(const Panel&) = delete;

  // Begins the window (a PanelWindow), draws, ends it. Called every frame
  // while `open`; must not block: long work goes through AppState.
  virtual void Draw(AppState& app) = 0;

  // The window's height for a width when its contents decide it (the
  // Replay transport's rows of buttons); 0: it takes a share of its column.
  virtual float height_for_width(float /*width*/) const { return 0.0f; }

  const char* name() const { return name_.c_str(); }
  // Its id in panel_list.h ("occupancy"), as --panels and the saved layout name it.
  const std::string& id() const { return id_; }
  void set_id(std::string id) { id_ = std::move(id); }
  const PanelLayout& layout() const { return layout_; }

  // Shown in the current mode; toggled by the window's close button and the
  // View menu. Normal and presentation mode each remember their own: the
  // app swaps the two when the mode changes.
  bool open;
  bool open_in_other_mode;

 private:
  std::string name_, id_;
  PanelLayout layout_;
};

// A panel's window for one Draw(): ImGui::Begin(name(), &open, flags) now,
// ImGui::End() however Draw() returns. False while the window is collapsed.
// When Draw() throws, a child or table may still be open inside the window:
// ending it while unwinding would be the wrong End, so PanelWindow leaves it
// to draw_panel_guarded (panel_guard.h), which closes everything in order.
class PanelWindow {
 public:
  explicit PanelWindow(Panel& panel, ImGuiWindowFlags flags = 0)
      : visible_(ImGui::Begin(panel.name(), &panel.open, flags)), exceptions_(std::uncaught_exceptions()) {}
  ~PanelWindow() {
    if (std::uncaught_exceptions() == exceptions_) ImGui::End();
  }
  PanelWindow(const PanelWindow&) = delete;
  PanelWindow& operator=(const PanelWindow&) = delete;
  explicit operator bool() const { return visible_; }

 private:
  bool visible_;
  int exceptions_;
};

using PanelFactory = std::unique_ptr<Panel> (*)();

}  // namespace ts::ui

// Defines the factory the panel list refers to: make_panel_<id>().
#define TS_DEFINE_PANEL(id, Type) \
  std::unique_ptr<::ts::ui::Panel> ts::ui::make_panel_##id() { return std::make_unique<Type>(); }
