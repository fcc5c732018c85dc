// theme.cpp — fonts and colours.
#include "app/ui/theme.h"

#include <imgui.h>

#include <cstdlib>
#include <filesystem>

namespace ts::ui {
namespace {

constexpr const char* kDejaVuDir = "/usr/share/fonts/truetype/dejavu";  // fonts-dejavu-core
constexpr const char* kSansTtf = "DejaVuSans.ttf";
constexpr const char* kMonoTtf = "DejaVuSansMono.ttf";
constexpr float kNormalPx = 16.0f, kLargePx = 30.0f;  // 30 px reads from the back of a classroom

// $TILESCOPE_FONT_DIR first (a bundle carries its fonts), then Debian's.
ImFont* add_ttf(const char* file, float px) {
  for (const char* dir : std::initializer_list<const char*>{std::getenv("TILESCOPE_FONT_DIR"), kDejaVuDir}) {
    if (!dir) continue;
    const std::filesystem::path path = std::filesystem::path(dir) / file;
    if (!std::filesystem::exists(path)) continue;
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    return ImGui::GetIO().Fonts->AddFontFromFileTTF(path.c_str(), px, &cfg);
  }
  return nullptr;
}

ImFont* add_default(float px) {
  ImFontConfig cfg;
  cfg.SizePixels = px;
  return ImGui::GetIO().Fonts->AddFontDefault(&cfg);
}

}  // namespace

Fonts load_fonts(float scale) {
  Fonts f;
  f.ui = add_ttf(kSansTtf, kNormalPx * scale);
  f.from_ttf = f.ui != nullptr;
  if (!f.ui) f.ui = add_default(13.0f * scale);
  f.mono = add_ttf(kMonoTtf, (kNormalPx - 1.0f) * scale);
  if (!f.mono) f.mono = f.ui;
  f.ui_large = add_ttf(kSansTtf, kLargePx * scale);
  if (!f.ui_large) f.ui_large = add_default(26.0f * scale);  // ImGui's bitmap font scaled: blurry but legible
  f.mono_large = add_ttf(kMonoTtf, (kLargePx - 2.0f) * scale);
  if (!f.mono_large) f.mono_large = f.ui_large;
  ImGui::GetIO().FontDefault = f.ui;
  return f;
}

void apply_theme(bool presentation) {
  ImGuiStyle& s = ImGui::GetStyle();
  s = ImGuiStyle();
  if (!presentation) {
    ImGui::StyleColorsDark(&s);
    s.WindowRounding = 3.0f;
    s.FrameRounding = 3.0f;
    s.WindowBorderSize = 1.0f;
    return;
  }
  // High contrast: pure black and white, saturated accents, thick borders.
  ImGui::StyleColorsDark(&s);
  s.WindowBorderSize = 2.0f;
  s.FrameBorderSize = 1.0f;
  s.FramePadding = ImVec2(10, 6);
  s.ItemSpacing = ImVec2(12, 8);
  s.ScrollbarSize = 22.0f;
  s.GrabMinSize = 18.0f;
  ImVec4* c = s.Colors;
  const ImVec4 black(0, 0, 0, 1), white(1, 1, 1, 1), yellow(1.0f, 0.85f, 0.0f, 1), dim(0.25f, 0.25f, 0.25f, 1);
  c[ImGuiCol_Text] = white;
  c[ImGuiCol_TextDisabled] = ImVec4(0.7f, 0.7f, 0.7f, 1);
  c[ImGuiCol_WindowBg] = black;
  c[ImGuiCol_ChildBg] = black;
  c[ImGuiCol_PopupBg] = black;
  c[ImGuiCol_MenuBarBg] = black;
  c[ImGuiCol_Border] = white;
  c[ImGuiCol_FrameBg] = dim;
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.4f, 0.4f, 0.4f, 1);
  c[ImGuiCol_FrameBgActive] = ImVec4(0.5f, 0.5f, 0.5f, 1);
  c[ImGuiCol_TitleBg] = black;
  c[ImGuiCol_TitleBgActive] = ImVec4(0.15f, 0.15f, 0.15f, 1);
  c[ImGuiCol_Button] = dim;
  c[ImGuiCol_ButtonHovered] = ImVec4(0.45f, 0.45f, 0.45f, 1);
  c[ImGuiCol_ButtonActive] = yellow;
  c[ImGuiCol_Header] = ImVec4(0.35f, 0.35f, 0.35f, 1);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.5f, 0.5f, 0.5f, 1);
  c[ImGuiCol_HeaderActive] = yellow;
  c[ImGuiCol_CheckMark] = yellow;
  // A slider's value is printed over its grab: a dark amber keeps the white
  // text readable from the back of a room (a yellow grab hid the digits under it).
  c[ImGuiCol_SliderGrab] = ImVec4(0.55f, 0.42f, 0.0f, 1);
  c[ImGuiCol_SliderGrabActive] = ImVec4(0.7f, 0.55f, 0.0f, 1);
  c[ImGuiCol_Tab] = dim;
  c[ImGuiCol_TabActive] = ImVec4(0.5f, 0.45f, 0.0f, 1);
  c[ImGuiCol_PlotHistogram] = yellow;
}

}  // namespace ts::ui
