// The keys, through a real ImGui context (no window): each key press moves
// the replay or changes the view as the README's table says.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/ui/input.h"
#include "tests/ui/headless_imgui.h"
#include "tests/ui/ui_test_support.h"

namespace ts::ui {
namespace {

class Keys : public ::testing::Test {
 protected:
  void SetUp() override { app.install(test::small_example()); }

  // One frame with `key` going down (and Ctrl held if asked), then one with it up.
  void press(int key, bool ctrl = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = ctrl;
    io.KeysDown[key] = true;
    ImGui::NewFrame();
    handle_keys(app);
    ImGui::EndFrame();
    io.KeysDown[key] = false;
    io.KeyCtrl = false;
    ImGui::NewFrame();
    handle_keys(app);
    ImGui::EndFrame();
  }
  test::Headless ui;  // the ImGui context
  AppState app;
};

TEST_F(Keys, ArrowsHomeEndAndPagesMoveTheReplay) {
  press(GLFW_KEY_RIGHT);
  press(GLFW_KEY_RIGHT);
  EXPECT_EQ(app.replay.step, 2u);
  press(GLFW_KEY_LEFT);
  EXPECT_EQ(app.replay.step, 1u);
  press(GLFW_KEY_PAGE_DOWN);
  EXPECT_EQ(app.step(), (ReplayStep{1, Phase::Load, 0}));
  press(GLFW_KEY_RIGHT);
  press(GLFW_KEY_PAGE_UP);  // inside an iteration: back to its start
  EXPECT_EQ(app.step(), (ReplayStep{1, Phase::Load, 0}));
  press(GLFW_KEY_PAGE_UP);  // at its start: the previous one
  EXPECT_EQ(app.step(), (ReplayStep{0, Phase::Load, 0}));
  press(GLFW_KEY_END);
  EXPECT_EQ(app.step().phase, Phase::Store);
  press(GLFW_KEY_HOME);
  EXPECT_EQ(app.replay.step, 0u);
}

TEST_F(Keys, SpacePlaysAndPausesFromTheStartAtTheEnd) {
  press(GLFW_KEY_SPACE);
  EXPECT_TRUE(app.replay.playing);
  press(GLFW_KEY_SPACE);
  EXPECT_FALSE(app.replay.playing);
  press(GLFW_KEY_END);
  press(GLFW_KEY_SPACE);  // at the end, play starts over
  EXPECT_TRUE(app.replay.playing);
  EXPECT_EQ(app.replay.step, 0u);
}

TEST_F(Keys, ViewKeys) {
  press(GLFW_KEY_B);
  EXPECT_TRUE(app.replay.all_blocks);
  press(GLFW_KEY_V);
  EXPECT_EQ(app.view.color_mode, ColorMode::Value);
  const auto fits = app.view.fit_requests;
  press(GLFW_KEY_F);
  EXPECT_EQ(app.view.fit_requests, fits + 1);
  press(GLFW_KEY_F11);
  EXPECT_TRUE(app.view.presentation);
  press(GLFW_KEY_ESCAPE);
  EXPECT_FALSE(app.view.presentation);
  press(GLFW_KEY_F12);
  ASSERT_TRUE(app.screenshot_request);
  EXPECT_EQ(app.screenshot_request->extension(), ".png");
  press(GLFW_KEY_EQUAL, true);
  EXPECT_GT(app.view.text_scale, 1.0f);
  press(GLFW_KEY_0, true);
  EXPECT_EQ(app.view.text_scale, 1.0f);
}

TEST_F(Keys, TypingInATextFieldIsNotAKeyPress) {
  ImGui::GetIO().WantTextInput = true;  // as when a field has the keyboard
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[GLFW_KEY_RIGHT] = true;
  ImGui::NewFrame();
  io.WantTextInput = true;
  handle_keys(app);
  ImGui::EndFrame();
  EXPECT_EQ(app.replay.step, 0u);
}

}  // namespace
}  // namespace ts::ui
