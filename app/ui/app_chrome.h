// app_chrome.h — what surrounds the panels: the main menu and the notices.
#pragma once

#include <memory>
#include <vector>

#include <imgui.h>

#include "app/ui/panel.h"
#include "app/ui/window_layout.h"

namespace ts::ui {

class AppState;

// The menu bar, in the normal font even in presentation mode (the matrices
// get the height); returns its height.
float draw_main_menu(AppState& app, std::vector<std::unique_ptr<Panel>>& panels, WindowLayout& layout);
// Recent notices (errors stay until dismissed) and the busy indicator, in
// the strip the layout keeps for them: they never cover a panel.
void draw_notices(AppState& app, const Rect& strip);

}  // namespace ts::ui
