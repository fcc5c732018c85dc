// input.cpp — key presses to replay and view changes. GLFW key codes index
// ImGui 1.86's key state with the GLFW backend.
#include "app/ui/input.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "app/ui/app_state.h"

namespace ts::ui {
namespace {

bool pressed(int glfw_key) { return ImGui::IsKeyPressed(glfw_key, true); }
bool pressed_once(int glfw_key) { return ImGui::IsKeyPressed(glfw_key, false); }

std::string timestamped_png() {
  const std::time_t now = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "tilescope-%Y%m%d-%H%M%S.png", std::localtime(&now));
  return buf;
}

}  // namespace

void handle_keys(AppState& app) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  const ReplayTimeline& tl = app.timeline();
  if (pressed(GLFW_KEY_RIGHT)) app.step_by(1);
  if (pressed(GLFW_KEY_LEFT)) app.step_by(-1);
  if (pressed(GLFW_KEY_PAGE_DOWN)) app.set_step(tl.first_step_of_iteration(app.step().iteration + 1));
  if (pressed(GLFW_KEY_PAGE_UP)) {
    const ReplayStep s = app.step();
    const std::uint32_t start = tl.first_step_of_iteration(s.iteration);
    // From inside an iteration go to its start, from its start to the previous one.
    app.set_step(app.replay.step > start || s.iteration == 0 ? start : tl.first_step_of_iteration(s.iteration - 1));
  }
  if (pressed_once(GLFW_KEY_HOME)) app.set_step(0);
  if (pressed_once(GLFW_KEY_END)) app.set_step(tl.last_step());
  if (pressed_once(GLFW_KEY_SPACE)) app.toggle_playing();
  if (pressed_once(GLFW_KEY_B)) app.replay.all_blocks = !app.replay.all_blocks;
  if (pressed_once(GLFW_KEY_V)) app.view.toggle_color_mode();
  if (pressed_once(GLFW_KEY_F)) ++app.view.fit_requests;
  if (pressed_once(GLFW_KEY_F11)) app.view.presentation = !app.view.presentation;
  if (pressed_once(GLFW_KEY_ESCAPE) && app.view.presentation) app.view.presentation = false;
  if (pressed_once(GLFW_KEY_F12)) app.screenshot_request = timestamped_png();
  if (io.KeyCtrl) {
    if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD)) app.view.larger_text();
    if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT)) app.view.smaller_text();
    if (pressed_once(GLFW_KEY_0)) app.view.text_scale = 1.0f;
  }
}

}  // namespace ts::ui
