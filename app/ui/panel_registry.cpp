// panel_registry.cpp — instantiate every panel named in panel_list.h.
#include "app/ui/panel_registry.h"

namespace ts::ui {

std::vector<std::unique_ptr<Panel>> make_all_panels() {
  std::vector<std::unique_ptr<Panel>> panels;
#define TS_PANEL(id)              \
  panels.push_back(make_panel_##id()); \
  panels.back()->set_id(#id);
#include "app/ui/panel_list.h"
#undef TS_PANEL
  return panels;
}

std::vector<std::string> panel_ids() {
  return {
#define TS_PANEL(id) #id,
#include "app/ui/panel_list.h"
#undef TS_PANEL
  };
}

}  // namespace ts::ui
