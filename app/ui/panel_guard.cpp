// panel_guard.cpp — draw a panel, and put Dear ImGui's stacks back as they
// were when its Draw throws midway (a window, child, table or style left open).
#include "app/ui/panel_guard.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <exception>
#include <new>
#include <string>

#include "app/core/display_text.h"

namespace ts::ui {
namespace {

// The stacks outside any window that a panel may push onto.
struct Stacks {
  int windows, fonts, colors, style_vars, item_flags, disabled, ids;
  static Stacks now(ImGuiContext& g) {
    return {g.CurrentWindowStack.Size, g.FontStack.Size,      g.ColorStack.Size, g.StyleVarStack.Size,
            g.ItemFlagsStack.Size,     g.DisabledStackSize, g.CurrentWindow ? g.CurrentWindow->IDStack.Size : 0};
  }
};

void recover(ImGuiContext& g, const Stacks& before) {
  // Innermost first: each window's tables, tree nodes, groups, IDs and
  // styles (ErrorCheckEndWindowRecover), then the window itself.
  while (g.CurrentWindowStack.Size > before.windows) {
    ImGui::ErrorCheckEndWindowRecover(nullptr);
    const ImGuiWindowFlags flags = g.CurrentWindow->Flags;
    if (flags & ImGuiWindowFlags_Popup) ImGui::EndPopup();
    else if (flags & ImGuiWindowFlags_ChildWindow) ImGui::EndChild();
    else ImGui::End();
  }
  // What was pushed before the panel's window began.
  while (g.DisabledStackSize > before.disabled) ImGui::EndDisabled();
  while (g.ItemFlagsStack.Size > before.item_flags) ImGui::PopItemFlag();
  while (g.StyleVarStack.Size > before.style_vars) ImGui::PopStyleVar();
  while (g.ColorStack.Size > before.colors) ImGui::PopStyleColor();
  while (g.FontStack.Size > before.fonts) ImGui::PopFont();
  while (g.CurrentWindow && g.CurrentWindow->IDStack.Size > before.ids) ImGui::PopID();
}

}  // namespace

bool draw_panel_guarded(Panel& panel, AppState& app) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  const Stacks before = Stacks::now(g);
  std::string error;
  try {
    panel.Draw(app);
    return true;
  } catch (const std::bad_alloc&) {
    error = "out of memory";
  } catch (const std::exception& e) {
    error = e.what();
  }
  recover(g, before);
  panel.open = false;
  app.notify(NoticeLevel::Error, std::string("the ") + panel.name() + " panel could not draw this trace (" +
                                     elided(escape_control(error), 160) + "): it is closed; View reopens it");
  return false;
}

}  // namespace ts::ui
