// panel_registry.h — the panels of panel_list.h, made in list order.
#pragma once

#include <memory>
#include <vector>

#include "app/ui/panel.h"

namespace ts::ui {

#define TS_PANEL(id) std::unique_ptr<Panel> make_panel_##id();
#include "app/ui/panel_list.h"
#undef TS_PANEL

std::vector<std::unique_ptr<Panel>> make_all_panels();

}  // namespace ts::ui
