// panel_registry.h — the panels of panel_list.h, made in list order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/ui/panel.h"

namespace ts::ui {

#define TS_PANEL(id) std::unique_ptr<Panel> make_panel_##id();
#include "app/ui/panel_list.h"
#undef TS_PANEL

// Every panel, each with its id set.
std::vector<std::unique_ptr<Panel>> make_all_panels();
// The ids of panel_list.h, in list order (no panel is made).
std::vector<std::string> panel_ids();

}  // namespace ts::ui
