// app_chrome.h — what surrounds the panels: the main menu, the default
// layout of windows in slots, and the notices.
#pragma once

#include <memory>
#include <vector>

#include <imgui.h>

#include "app/ui/panel.h"

namespace ts::ui {

class AppState;

// The rectangle of each slot, in window pixels, below the menu bar.
struct WindowSlots {
  ImVec2 pos[5], size[5];  // indexed by PanelSlot
};
WindowSlots compute_slots(const AppState& app);

// Before a panel's Draw(): its place in the default layout (every frame when
// the layout is locked or reset, else only the first time the window
// appears). Locked windows in a slot get no background of their own.
void place_panel(const Panel& panel, const WindowSlots& slots, const std::vector<std::unique_ptr<Panel>>& all,
                 bool reset, bool locked);

void draw_main_menu(AppState& app, std::vector<std::unique_ptr<Panel>>& panels);
// Recent notices (errors stay until dismissed) and the busy indicator, over
// the bottom right corner.
void draw_notices(AppState& app);

}  // namespace ts::ui
