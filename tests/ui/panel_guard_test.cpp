// A panel whose Draw throws midway (inside a pushed style, a child window, an
// ID scope and a table) costs that panel only: ImGui's stacks are as they
// were, the panel is closed, a notice says why, and it draws again when
// reopened.
#include <gtest/gtest.h>

#include <imgui_internal.h>

#include <new>
#include <stdexcept>
#include <string>

#include "app/ui/panel_guard.h"
#include "tests/ui/headless_imgui.h"

namespace ts::ui {
namespace {

struct ThrowingPanel : Panel {
  ThrowingPanel() : Panel("Thrower", {PanelSlot::Right, 1.0f, true}) {}
  bool fail = true;
  bool out_of_memory = false;
  void Draw(AppState&) override {
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(2, 2));
    const PanelWindow window(*this);
    ImGui::PopStyleVar();
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 0, 0, 255));
    ImGui::BeginChild("inner", ImVec2(200, 200));
    ImGui::PushID("scope");
    if (ImGui::BeginTable("t", 2)) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted("cell");
      if (fail && out_of_memory) throw std::bad_alloc();
      if (fail) throw std::length_error("a vector\x1b[31m too long");
      ImGui::EndTable();
    }
    ImGui::PopID();
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }
};

struct StackSizes {
  int windows, colors, style_vars, ids;
  static StackSizes now() {
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    return {g.CurrentWindowStack.Size, g.ColorStack.Size, g.StyleVarStack.Size, g.CurrentWindow->IDStack.Size};
  }
  bool operator==(const StackSizes&) const = default;
};

TEST(PanelGuard, AThrowingPanelIsClosedWithANoticeAndTheStacksRecovered) {
  test::Headless ui;
  AppState app;
  ThrowingPanel panel;
  ImGui::NewFrame();
  const StackSizes before = StackSizes::now();
  EXPECT_FALSE(draw_panel_guarded(panel, app));
  EXPECT_TRUE(StackSizes::now() == before);
  ImGui::Render();  // asserts on anything left open
  EXPECT_FALSE(panel.open);
  ASSERT_EQ(app.notices().size(), 1u);
  EXPECT_EQ(app.notices()[0].level, NoticeLevel::Error);
  const std::string& text = app.notices()[0].text;
  EXPECT_NE(text.find("Thrower"), std::string::npos) << text;
  EXPECT_NE(text.find("a vector\\x1B[31m too long"), std::string::npos) << text;  // escaped, not obeyed

  // Reopened and fixed, it draws again, with no new notice.
  panel.open = true;
  panel.fail = false;
  ImGui::NewFrame();
  EXPECT_TRUE(draw_panel_guarded(panel, app));
  ImGui::Render();
  EXPECT_TRUE(panel.open);
  EXPECT_EQ(app.notices().size(), 1u);
}

TEST(PanelGuard, OutOfMemoryWhileDrawingIsANotice) {
  test::Headless ui;
  AppState app;
  ThrowingPanel panel;
  panel.out_of_memory = true;
  for (int frame = 0; frame < 3; ++frame) {  // closed after the first: one notice, not one per frame
    ImGui::NewFrame();
    if (panel.open) {
      EXPECT_FALSE(draw_panel_guarded(panel, app));
    }
    ImGui::Render();
  }
  ASSERT_EQ(app.notices().size(), 1u);
  EXPECT_NE(app.notices()[0].text.find("out of memory"), std::string::npos) << app.notices()[0].text;
}

}  // namespace
}  // namespace ts::ui
