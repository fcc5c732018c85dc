// automation.cpp — the --select-c / --step / --zoom / --center / --probe /
// --screenshot / --layout-json / --quit-after-frames flags.
#include "app/ui/automation.h"

#include <cstdio>
#include <sstream>

#include <imgui.h>
#include <imgui_internal.h>
#include <nlohmann/json.hpp>

#include "app/core/safe_file.h"
#include "app/render/screenshot.h"
#include "app/ui/app_state.h"

namespace ts::ui {
namespace {

constexpr int kScreenshotFramesWithoutQuit = 3;  // ImGui settles window sizes in two frames

nlohmann::json grid_json(const ScreenGrid& g, float s) {
  return {{"visible", g.visible}, {"x", g.x * s}, {"y", g.y * s}, {"cell", g.cell * s},
          {"rows", g.rows},       {"cols", g.cols}};
}

nlohmann::json rect_json(const Rect& r, float s) {
  return {{"x", r.x * s}, {"y", r.y * s}, {"width", r.w * s}, {"height", r.h * s}};
}

// Contents wider than the window (cut off at the right: wrapped text never
// is) or taller (they scroll).
nlohmann::json overflow_json(const Panel& panel) {
  const ImGuiWindow* w = ImGui::FindWindowByName(panel.name());
  if (!w) return {};
  return {{"wider", w->ContentSize.x > w->ContentRegionRect.GetWidth() + 1.0f},
          {"taller", w->ContentSize.y > w->ContentRegionRect.GetHeight() + 1.0f}};
}

}  // namespace

std::string screen_layout_json(const AppState& app, const WindowLayout& layout, int fb_width, int fb_height, float s) {
  nlohmann::json j;
  j["width"] = fb_width;
  j["height"] = fb_height;
  j["presentation"] = app.view.presentation;
  nlohmann::json panels = nlohmann::json::array();
  for (const WindowLayout::OpenWindow& w : layout.open_windows()) {
    nlohmann::json p = rect_json(w.rect, s);
    p["name"] = w.panel->name();
    p["id"] = w.panel->id();
    p["overflow"] = overflow_json(*w.panel);
    panels.push_back(std::move(p));
  }
  j["panels"] = std::move(panels);
  j["notices"] = rect_json(layout.notices(), s);
  j["A"] = grid_json(app.on_screen.a, s);
  j["B"] = grid_json(app.on_screen.b, s);
  j["C"] = grid_json(app.on_screen.c, s);
  j["step"] = app.replay.step;
  if (app.on_screen.probe)
    j["probe"] = {{"matrix", std::string(1, app.on_screen.probe->matrix)},
                  {"row", app.on_screen.probe->row},
                  {"col", app.on_screen.probe->col}};
  nlohmann::json shared = nlohmann::json::array();
  for (const ScreenSharedGrid& g : app.on_screen_shared.grids) {
    nlohmann::json sg = grid_json(g.grid, s);
    sg["array"] = g.array;
    sg["stage"] = g.stage;
    sg["first_row"] = g.first_row;
    sg["label"] = g.label;
    if (g.label_drawn)
      sg["label_drawn"] = {{"x", g.label_x * s}, {"y", g.label_y * s}, {"width", g.label_w * s},
                           {"height", g.label_h * s}, {"font", g.label_px * s}};
    shared.push_back(std::move(sg));
  }
  j["shared"] = std::move(shared);
  if (const auto& p = app.on_screen_shared.probe)
    j["shared_probe"] = {{"grid", p->grid}, {"row", p->row}, {"col", p->col}};
  if (const auto& o = app.on_screen_occupancy) {
    nlohmann::json rows = nlohmann::json::array();
    for (const ScreenOccupancyRow& r : o->rows) {
      nlohmann::json row{{"gpu", r.gpu}, {"has_figures", r.has_figures}};
      if (r.has_figures) {
        row["blocks_per_sm"] = r.blocks_per_sm;
        row["limit"] = r.limit;
        row["occupancy"] = r.occupancy;
      }
      rows.push_back(std::move(row));
    }
    j["occupancy_strip"] = {{"kernel", o->kernel}, {"tile", o->tile}, {"rows", std::move(rows)},
                            {"registers_from", o->registers_from}};
  }
  if (app.selection.cell) j["selected"] = {app.selection.cell->row, app.selection.cell->col};
  if (const LoadedTrace* t = app.trace()) {
    j["kernel"] = t->trace.launch.kernel;
    j["tile"] = t->trace.launch.tile;
    j["recorder"] = t->trace.launch.recorder;
    if (t->trace.launch.focused()) j["traced_blocks"] = t->trace.launch.traced_blocks;
  }
  return j.dump(2);
}

bool Automation::ready(AppState& app) const {
  // Ready once nothing is loading and there is a trace or the failure is shown.
  return !app.busy() && (app.trace() || !app.notices().empty());
}

void Automation::before_frame(AppState& app) {
  if (applied_ || !ready(app)) return;
  applied_ = true;
  if (!app.trace()) return;  // the failure notice is the scene
  const LaunchInfo& L = app.trace()->trace.launch;
  if (options_.select_c) {
    const ElementCoord c = *options_.select_c;
    if (c.row < static_cast<std::uint32_t>(L.m) && c.col < static_cast<std::uint32_t>(L.n)) {
      app.select_cell(c.row, c.col);
    } else {
      app.notify(NoticeLevel::Warning, "--select-c " + std::to_string(c.row) + "," + std::to_string(c.col) +
                                           " is outside C (" + std::to_string(L.m) + " x " + std::to_string(L.n) + ")");
    }
  }
  if (options_.step) {
    if (*options_.step > app.timeline().last_step())
      app.notify(NoticeLevel::Warning, "--step " + std::to_string(*options_.step) + " is past the last step (" +
                                           std::to_string(app.timeline().last_step()) + "): showing the last");
    app.set_step(*options_.step);
  }
  app.replay.all_blocks = options_.all_blocks;
  app.view.follow_thread = options_.follow_thread;
  if (options_.zoom || options_.center) {
    ViewOptions::Camera cam;
    cam.pixels_per_cell = options_.zoom.value_or(1.0f);
    const auto center = options_.center.value_or(std::pair<float, float>{L.m * 0.5f, L.n * 0.5f});
    cam.center_row = center.first;
    cam.center_col = center.second;
    app.view.camera_request = cam;
  }
  app.view.probe = options_.probe;
  app.view.probe_click = options_.probe_click;
}

bool Automation::after_render(AppState& app, const WindowLayout& layout, int fb_width, int fb_height, float fb_scale) {
  if (!applied_) return true;
  if (app.busy()) return true;  // a recording the scene asked for (a click on an untraced block): wait for it
  ++frames_ready_;
  const int last = options_.quit_after_frames > 0 ? options_.quit_after_frames : kScreenshotFramesWithoutQuit;
  if (!screenshot_done_ && frames_ready_ >= last) {
    screenshot_done_ = true;
    if (options_.screenshot) {
      const std::string err = render::save_framebuffer_png(*options_.screenshot, fb_width, fb_height);
      if (!err.empty()) {
        std::fprintf(stderr, "tilescope: %s\n", err.c_str());
        app.notify(NoticeLevel::Error, err);
        exit_code_ = 1;
      }
    }
    if (options_.layout_json) {
      std::ostringstream text;
      text << screen_layout_json(app, layout, fb_width, fb_height, fb_scale) << "\n";
      if (const std::string error = try_write_file_atomically(*options_.layout_json, text.str()); !error.empty()) {
        std::fprintf(stderr, "tilescope: %s\n", error.c_str());
        exit_code_ = 1;
      }
    }
  }
  return options_.quit_after_frames <= 0 || frames_ready_ < options_.quit_after_frames;
}

}  // namespace ts::ui
