// headless_imgui.h — an ImGui context with a font atlas and a display but
// no window or renderer, for drawing panels in tests. ImGui asserts on
// unbalanced Begin/End, tables and children, so drawing mistakes fail there.
#pragma once

#include <imgui.h>

#include "app/ui/app_state.h"
#include "app/ui/panel.h"

namespace ts::ui::test {

// An ImGui context with a built font atlas and a display, no renderer.
class Headless {
 public:
  Headless() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1600, 1000);
    io.DeltaTime = 1.0f / 60;
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~Headless() { ImGui::DestroyContext(); }
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;

  // Draws one frame of the panel and returns how many vertices it made.
  int frame(Panel& panel, AppState& app) {
    ImGui::NewFrame();
    ImGui::SetNextWindowSize(ImVec2(1200, 800), ImGuiCond_Always);
    panel.Draw(app);
    ImGui::Render();
    return ImGui::GetDrawData()->TotalVtxCount;
  }
  // Windows drawn in the last frame, child windows included.
  static int windows_drawn() { return ImGui::GetDrawData()->CmdListsCount; }
};

}  // namespace ts::ui::test
