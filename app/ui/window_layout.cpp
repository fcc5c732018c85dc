// window_layout.cpp — placing windows, noticing the user's moves, and the
// [Tilescope][Panels] section of the ini file.
#include "app/ui/window_layout.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "app/ui/app_state.h"

namespace ts::ui {
namespace {

constexpr const char* kIniFile = "layout.ini";

bool same(const Rect& a, const Rect& b) {
  return std::fabs(a.x - b.x) < 0.5f && std::fabs(a.y - b.y) < 0.5f && std::fabs(a.w - b.w) < 0.5f &&
         std::fabs(a.h - b.h) < 0.5f;
}

}  // namespace

std::optional<std::filesystem::path> layout_config_dir(const std::string& explicit_dir) {
  if (!explicit_dir.empty()) return std::filesystem::path(explicit_dir);
  if (const char* d = std::getenv("TILESCOPE_CONFIG_DIR"); d && *d) return std::filesystem::path(d);
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::filesystem::path(x) / "tilescope";
  if (const char* h = std::getenv("HOME"); h && *h) return std::filesystem::path(h) / ".config" / "tilescope";
  return std::nullopt;
}

// The ini section: which panels are open in each mode, and the windows the
// user moved (normal mode), e.g.
//   [Tilescope][Panels]
//   normal=controls,matrices,replay,inspector
//   presentation=matrices,replay,inspector
//   moved=occupancy 400 300 640 480
struct LayoutIni {
  static void* open(ImGuiContext*, ImGuiSettingsHandler* h, const char* name) {
    return std::strcmp(name, "Panels") == 0 ? h->UserData : nullptr;
  }
  static void line(ImGuiContext*, ImGuiSettingsHandler*, void* entry, const char* text) {
    auto* self = static_cast<WindowLayout*>(entry);
    const std::string s = text;
    const auto eq = s.find('=');
    if (eq == std::string::npos) return;
    const std::string key = s.substr(0, eq), value = s.substr(eq + 1);
    if (key == "normal" || key == "presentation") {
      // Read while in normal mode: `open` is normal mode's flag.
      const std::string list = "," + value + ",";
      for (auto& p : self->panels_) {
        const bool on = list.find("," + p->id() + ",") != std::string::npos;
        (key == "normal" ? p->open : p->open_in_other_mode) = on;
      }
    } else if (key == "moved") {
      std::istringstream in(value);
      std::string id;
      Rect r;
      if (in >> id >> r.x >> r.y >> r.w >> r.h && r.w > 0 && r.h > 0) self->custom_[id] = r;
    }
  }
  static void write(ImGuiContext*, ImGuiSettingsHandler* h, ImGuiTextBuffer* out) {
    auto* self = static_cast<WindowLayout*>(h->UserData);
    std::string normal, presenting;
    for (auto& p : self->panels_) {
      // switch_mode() swaps the flags: `open` is the current mode's.
      const bool n = self->presenting_ ? p->open_in_other_mode : p->open;
      const bool pr = self->presenting_ ? p->open : p->open_in_other_mode;
      if (n) normal += (normal.empty() ? "" : ",") + p->id();
      if (pr) presenting += (presenting.empty() ? "" : ",") + p->id();
    }
    out->appendf("[%s][Panels]\nnormal=%s\npresentation=%s\n", h->TypeName, normal.c_str(), presenting.c_str());
    for (const auto& [id, r] : self->custom_)
      out->appendf("moved=%s %.0f %.0f %.0f %.0f\n", id.c_str(), r.x, r.y, r.w, r.h);
    out->append("\n");
  }
};

void WindowLayout::use_config_dir(const std::filesystem::path& dir) {
  ImGuiSettingsHandler h;
  h.TypeName = "Tilescope";
  h.TypeHash = ImHashStr("Tilescope");
  h.ReadOpenFn = &LayoutIni::open;
  h.ReadLineFn = &LayoutIni::line;
  h.WriteAllFn = &LayoutIni::write;
  h.UserData = this;
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(h);
  ImGui::GetIO().IniFilename = nullptr;  // saved by save(), to the config directory
  ini_ = dir / kIniFile;
  std::error_code ec;
  if (std::filesystem::exists(*ini_, ec)) ImGui::LoadIniSettingsFromDisk(ini_->c_str());
}

void WindowLayout::save(bool now) {
  ImGuiIO& io = ImGui::GetIO();
  if (!ini_ || !(now || io.WantSaveIniSettings)) return;
  io.WantSaveIniSettings = false;
  std::error_code ec;
  std::filesystem::create_directories(ini_->parent_path(), ec);
  size_t size = 0;
  const char* data = ImGui::SaveIniSettingsToMemory(&size);
  if (FILE* f = std::fopen(ini_->c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else if (!save_failed_) {
    save_failed_ = true;  // once: the layout still works, it is just not remembered
    std::fprintf(stderr, "tilescope: cannot save the layout to %s\n", ini_->c_str());
  }
}

void WindowLayout::place(AppState& app, float menu_height) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const Rect work{vp->Pos.x, vp->Pos.y + menu_height, vp->Size.x, vp->Size.y - menu_height};
  const bool presentation = app.view.presentation;
  char head[160];
  std::snprintf(head, sizeof head, "%.0f %.0f %.0f %.0f %.1f %d %zu|", work.x, work.y, work.w, work.h,
                ImGui::GetFontSize(), presentation ? 1 : 0, custom_.size());
  std::string key = head;
  for (auto& p : panels_)
    if (p->open) key += p->id() + ",";
  set_now_.clear();
  if (key == key_) return;
  if (!key_.empty() && key.substr(key.find('|')) != key_.substr(key_.find('|'))) ImGui::MarkIniSettingsDirty();
  key_ = key;
  std::vector<LayoutItem> items;
  std::vector<Panel*> shown;
  for (auto& p : panels_) {
    if (!p->open) continue;
    const Panel* panel = p.get();
    items.push_back({p->layout().slot, p->layout().weight,
                     panel->height_for_width(1.0f) > 0 ? [panel](float w) { return panel->height_for_width(w); }
                                                       : std::function<float(float)>{}});
    shown.push_back(p.get());
  }
  const LayoutResult r = compute_layout(work, items, presentation, ImGui::GetFontSize());
  notices_ = r.notices;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const auto custom = custom_.find(shown[i]->id());
    placed_[shown[i]] = !presentation && custom != custom_.end() ? custom->second : r.panels[i];
    set_now_.insert(shown[i]);
  }
}

void WindowLayout::before_draw(const Panel& panel) {
  if (set_now_.count(&panel)) {
    const Rect& r = placed_[&panel];
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
  }
  // Side by side, nothing lies under a window: skip its background (a
  // blended pass per window on software renderers). A moved one may cover
  // another, so then every window draws its own.
  if (custom_.empty()) ImGui::SetNextWindowBgAlpha(0.0f);
}

void WindowLayout::after_draw(const Panel& panel, bool presentation, bool locked) {
  const ImGuiWindow* w = ImGui::FindWindowByName(panel.name());
  if (!w || w->Collapsed) return;
  const Rect now{w->Pos.x, w->Pos.y, w->SizeFull.x, w->SizeFull.y};
  Rect& placed = placed_[&panel];
  if (same(now, placed)) return;
  placed = now;
  // Only the user's drag counts (ImGui may nudge a window by itself).
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left) && !ImGui::IsMouseReleased(ImGuiMouseButton_Left)) return;
  if (locked) {
    key_.clear();  // back where it belongs on the next frame
  } else if (!presentation) {
    custom_[panel.id()] = now;
    ImGui::MarkIniSettingsDirty();
  }
}

void WindowLayout::reset() {
  custom_.clear();
  key_.clear();
  if (ImGui::GetCurrentContext()) ImGui::MarkIniSettingsDirty();
}

void WindowLayout::switch_mode() {
  presenting_ = !presenting_;
  for (auto& p : panels_) std::swap(p->open, p->open_in_other_mode);
  key_.clear();
}

std::optional<Rect> WindowLayout::window_rect(const Panel& panel) const {
  const ImGuiWindow* w = ImGui::FindWindowByName(panel.name());
  if (!w || !panel.open || !w->WasActive) return std::nullopt;
  return Rect{w->Pos.x, w->Pos.y, w->Size.x, w->Size.y};
}

std::vector<WindowLayout::OpenWindow> WindowLayout::open_windows() const {
  std::vector<OpenWindow> out;
  for (const auto& p : panels_)
    if (const auto r = window_rect(*p)) out.push_back({p.get(), *r});
  return out;
}

}  // namespace ts::ui
