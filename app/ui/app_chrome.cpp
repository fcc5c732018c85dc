// app_chrome.cpp — menu bar, window layout, notices.
#include "app/ui/app_chrome.h"

#include <algorithm>
#include <cstdio>

#include "app/ui/app_state.h"
#include "app/ui/input.h"

namespace ts::ui {
namespace {

constexpr double kNoticeSeconds = 8.0;  // info and warnings fade; errors stay until closed

int slot_index(PanelSlot s) { return static_cast<int>(s); }

ImVec4 notice_color(NoticeLevel level) {
  switch (level) {
    case NoticeLevel::Info: return ImVec4(0.75f, 0.9f, 1.0f, 1.0f);
    case NoticeLevel::Warning: return ImVec4(1.0f, 0.85f, 0.3f, 1.0f);
    case NoticeLevel::Error: return ImVec4(1.0f, 0.45f, 0.4f, 1.0f);
  }
  return ImVec4(1, 1, 1, 1);
}

}  // namespace

WindowSlots compute_slots(const AppState& app) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Below the main menu bar (the viewport's work area learns of it a frame late).
  const float menu = ImGui::GetFrameHeight();
  const ImVec2 origin(vp->Pos.x, vp->Pos.y + menu);
  const ImVec2 full(vp->Size.x, vp->Size.y - menu);
  const bool big = app.view.presentation;
  const float k = app.view.text_scale;  // side columns grow with the text
  const float left = std::min(full.x * 0.3f, (big ? 460.0f : 300.0f) * k);
  const float right = std::min(full.x * 0.35f, (big ? 560.0f : 390.0f) * k);
  const float bottom = std::min(full.y * 0.3f, (big ? 150.0f : 96.0f) * k);
  const float center_w = std::max(100.0f, full.x - left - right);
  WindowSlots s{};
  s.pos[slot_index(PanelSlot::Left)] = origin;
  s.size[slot_index(PanelSlot::Left)] = ImVec2(left, full.y);
  s.pos[slot_index(PanelSlot::Center)] = ImVec2(origin.x + left, origin.y);
  s.size[slot_index(PanelSlot::Center)] = ImVec2(center_w, full.y - bottom);
  s.pos[slot_index(PanelSlot::Bottom)] = ImVec2(origin.x + left, origin.y + full.y - bottom);
  s.size[slot_index(PanelSlot::Bottom)] = ImVec2(center_w, bottom);
  s.pos[slot_index(PanelSlot::Right)] = ImVec2(origin.x + left + center_w, origin.y);
  s.size[slot_index(PanelSlot::Right)] = ImVec2(full.x - left - center_w, full.y);
  s.pos[slot_index(PanelSlot::Float)] = ImVec2(origin.x + left + center_w * 0.1f, origin.y + full.y * 0.1f);
  s.size[slot_index(PanelSlot::Float)] = ImVec2(center_w * 0.8f, full.y * 0.7f);
  return s;
}

void place_panel(const Panel& panel, const WindowSlots& slots, const std::vector<std::unique_ptr<Panel>>& all,
                 bool reset, bool locked) {
  const PanelSlot slot = panel.layout().slot;
  const int i = slot_index(slot);
  ImVec2 pos = slots.pos[i], size = slots.size[i];
  if (slot != PanelSlot::Float) {
    // Stack the open panels of this slot by weight, in list order.
    float total = 0, before = 0;
    for (const auto& p : all) {
      if (!p->open || p->layout().slot != slot) continue;
      if (p.get() == &panel) before = total;
      total += p->layout().weight;
    }
    if (total > 0) {
      pos.y += size.y * before / total;
      size.y *= panel.layout().weight / total;
    }
  }
  const bool pinned = locked && slot != PanelSlot::Float;
  const ImGuiCond cond = reset || pinned ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(pos, cond);
  ImGui::SetNextWindowSize(size, cond);
  if (pinned) ImGui::SetNextWindowBgAlpha(0.0f);  // ImGui skips a fully transparent background
}

void draw_main_menu(AppState& app, std::vector<std::unique_ptr<Panel>>& panels) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Record again, new random inputs", nullptr, false, !app.busy())) app.record_new_inputs();
    if (ImGui::MenuItem("Export PNG of the window", "F12")) app.screenshot_request = "tilescope.png";
    ImGui::TextDisabled("Open and save traces: Controls panel");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    for (auto& p : panels) ImGui::MenuItem(p->name(), nullptr, &p->open);
    ImGui::Separator();
    if (ImGui::MenuItem("Presentation mode", "F11", app.view.presentation))
      app.view.presentation = !app.view.presentation;
    if (ImGui::MenuItem("Colour by value", "V", app.view.color_mode == ColorMode::Value)) app.view.toggle_color_mode();
    ImGui::MenuItem("Numbers in large cells", nullptr, &app.view.show_values);
    if (ImGui::MenuItem("Larger text", "Ctrl +")) app.view.larger_text();
    if (ImGui::MenuItem("Smaller text", "Ctrl -")) app.view.smaller_text();
    if (ImGui::MenuItem("Fit matrices", "F")) ++app.view.fit_requests;
    ImGui::MenuItem("Lock layout", nullptr, &app.view.lock_layout);
    if (ImGui::MenuItem("Reset layout")) app.view.layout_dirty = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Keys")) {
    for (const KeyHelp& k : kKeyHelp) {
      ImGui::TextUnformatted(k.keys);
      ImGui::SameLine(ImGui::GetFontSize() * 11);
      ImGui::TextUnformatted(k.action);
    }
    ImGui::EndMenu();
  }
  // What is on screen and who recorded it: always visible.
  if (const LoadedTrace* t = app.trace()) {
    const std::string label = launch_title(t->trace.launch) + "   |   " + recorded_by(t->trace.launch);
    ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 20.0f, ImGui::GetWindowWidth() - ImGui::CalcTextSize(label.c_str()).x - 16.0f));
    ImGui::TextUnformatted(label.c_str());
  }
  ImGui::EndMainMenuBar();
}

void draw_notices(AppState& app) {
  std::vector<Notice>& notices = app.notices();
  const double now = app.now();
  std::erase_if(notices, [&](const Notice& n) { return n.level != NoticeLevel::Error && now - n.shown_at > kNoticeSeconds; });
  const bool busy = app.busy();
  if (notices.empty() && !busy) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float pad = 12.0f;
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - pad, vp->WorkPos.y + vp->WorkSize.y - pad),
                          ImGuiCond_Always, ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(vp->WorkSize.x * 0.45f, vp->WorkSize.y * 0.5f));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("##notices", nullptr, flags)) {
    if (busy) {
      const char spinner[] = "|/-\\";
      ImGui::Text("%c %s... %.1f s", spinner[static_cast<int>(now * 8) % 4], app.busy_what().c_str(), app.busy_seconds());
    }
    int to_remove = -1;
    for (int i = 0; i < static_cast<int>(notices.size()); ++i) {
      const Notice& n = notices[i];
      ImGui::PushID(i);
      if (ImGui::SmallButton("x")) to_remove = i;
      ImGui::SameLine();
      ImGui::PushStyleColor(ImGuiCol_Text, notice_color(n.level));
      ImGui::PushTextWrapPos(vp->WorkSize.x * 0.42f);
      ImGui::TextUnformatted(n.text.c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
      ImGui::PopID();
    }
    if (to_remove >= 0) notices.erase(notices.begin() + to_remove);
  }
  ImGui::End();
}

}  // namespace ts::ui
