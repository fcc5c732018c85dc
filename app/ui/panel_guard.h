// panel_guard.h — a panel that fails to draw (an exception from its Draw, say
// a bad_alloc on a hostile trace) costs that panel, not the app: what it left
// open in Dear ImGui (windows, children, tables, pushed styles, fonts, IDs) is
// closed, the panel is closed, and a notice says why. The trace on screen stays.
#pragma once

#include "app/ui/app_state.h"
#include "app/ui/panel.h"

namespace ts::ui {

// Draws the panel; false when it failed (then it is closed and a notice says so).
bool draw_panel_guarded(Panel& panel, AppState& app);

}  // namespace ts::ui
