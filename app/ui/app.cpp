// app.cpp — the main loop of the desktop app: setup, loop, cleanup.
// A GLFW window (or an offscreen EGL target, see platform.h) with an OpenGL
// 3.3 core context (glad), Dear ImGui on top, the app's own grid renderer
// inside the matrices panel.
#include "app/ui/app.h"

#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "app/render/gl_version.h"
#include "app/render/renderer.h"
#include "app/render/screenshot.h"
#include "app/ui/app_chrome.h"
#include "app/ui/app_state.h"
#include "app/ui/automation.h"
#include "app/ui/input.h"
#include "app/ui/panel_guard.h"
#include "app/ui/panel_registry.h"
#include "app/ui/platform.h"
#include "app/ui/theme.h"
#include "app/ui/window_layout.h"

namespace ts::ui {

int run_app(const AppOptions& options) {
  // ---- setup: a window (or an offscreen target) with an OpenGL 3.3 core context ----
  std::unique_ptr<Platform> platform = options.headless ? make_headless_platform() : make_window_platform();
  std::string err = platform->init(options);
  if (!err.empty() && !options.headless && options.screenshot && options.quit_after_frames > 0) {
    // A scripted screenshot on a machine without a display (a GPU server): render offscreen instead.
    std::fprintf(stderr, "tilescope: %s: rendering offscreen instead (EGL)\n", err.c_str());
    platform = make_headless_platform();
    err = platform->init(options);
  }
  if (!err.empty()) {
    std::fprintf(stderr, "tilescope: %s (for a screenshot without a display: --headless; without the app: `tilescope record --help`)\n",
                 err.c_str());
    return 1;
  }

  // ---- setup: Dear ImGui, fonts, theme, renderer ----
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the window layout saves it, when it saves at all
  // A scripted scene ignores wherever the pointer happens to be (no hover tooltips in screenshots).
  if (options.screenshot && options.quit_after_frames > 0) io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  auto state = std::make_unique<AppState>();
  state->fonts = load_fonts();
  state->view.presentation = options.presentation;
  apply_theme(state->view.presentation);
  platform->init_imgui();
  ImGui_ImplOpenGL3_Init(render::kImGuiGlslVersion);
  auto renderer = std::make_unique<render::Renderer>();
  if (const std::string render_err = renderer->init(); render_err.empty()) {
    state->renderer = renderer.get();
  } else {
    state->notify(NoticeLevel::Error, "the grid renderer is unavailable: " + render_err);
  }
  if (!state->fonts.from_ttf)
    state->notify(NoticeLevel::Warning, "DejaVu fonts not found (install fonts-dejavu-core): using ImGui's built-in font");

  std::vector<std::unique_ptr<Panel>> panels = make_all_panels();
  WindowLayout layout(panels);
  const bool scripted = options.quit_after_frames > 0 || options.after_frame;  // slides, tests, benchmarks
  const char* env_dir = std::getenv("TILESCOPE_CONFIG_DIR");
  if (!scripted || !options.config_dir.empty() || (env_dir && *env_dir)) {
    if (const auto dir = layout_config_dir(options.config_dir)) layout.use_config_dir(*dir);
  }
  if (options.presentation) layout.switch_mode();
  for (auto& p : panels)  // --panels: open in both modes
    if (std::find(options.panels.begin(), options.panels.end(), p->id()) != options.panels.end())
      p->open = p->open_in_other_mode = true;
  state->params = options.params;
  state->loader().set_on_finished([p = platform.get()] { p->wake(); });
  if (options.trace_file) state->open_trace(*options.trace_file);
  else state->record();
  for (const std::string& e : options.startup_errors) state->notify(NoticeLevel::Error, e);
  Automation automation(options);
  bool applied_presentation = false;  // so that --presentation goes full screen on the first frame
  float applied_text_scale = 1.0f;
  int quiet_frames = 0;
  auto last_frame = std::chrono::steady_clock::now();
  std::uint64_t frame = 0;

  // ---- loop ----
  bool running = true;
  while (running && !platform->should_close()) {
    // Sleep while nothing moves: a laptop on a software renderer stays cool.
    // A few frames follow every event (ImGui settles hover and layout in two).
    // While a recording runs, draw at most ~30 frames a second: on 2 cores the
    // renderer would otherwise take the CPU the recorder needs (a cold TILE
    // toggle at N = 64 took 90-110 ms instead of ~25); the finished job wakes
    // the loop at once, and input still does.
    const bool moving = state->replay.playing || state->busy() || options.after_frame || options.quit_after_frames > 0 ||
                        std::any_of(state->notices().begin(), state->notices().end(),
                                    [](const Notice& n) { return n.level != NoticeLevel::Error; });
    if (state->loader().working_for_user() && !state->replay.playing) {
      platform->wait_events(1.0 / 30.0);
      quiet_frames = 0;
    } else if (moving || quiet_frames < 3) {
      platform->poll_events();
      quiet_frames = moving ? 0 : quiet_frames + 1;
    } else if (platform->wait_events(0.5)) {
      quiet_frames = 0;
    }
    if (platform->minimised()) {  // nothing to draw while minimised
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    state->advance_playback(std::chrono::duration<double>(now - last_frame).count());
    last_frame = now;
    if (state->poll_loader()) ++state->view.fit_requests;
    state->watch_kernel_file();  // a user kernel saved in an editor records again (the idle wait is 0.5 s)
    automation.before_frame(*state);

    if (state->view.text_scale != applied_text_scale) {  // crisp text: rebuild the atlas at the new size
      applied_text_scale = state->view.text_scale;
      io.Fonts->Clear();
      state->fonts = load_fonts(applied_text_scale);
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    ImGui_ImplOpenGL3_NewFrame();
    platform->new_frame();
    ImGui::NewFrame();
    ImGui::PushFont(state->fonts.body(state->view.presentation));
    handle_keys(*state);
    const float menu_height = draw_main_menu(*state, panels, layout);
    layout.place(*state, menu_height);
    for (auto& panel : panels) {
      if (!panel->open) continue;
      layout.before_draw(*panel);
      draw_panel_guarded(*panel, *state);
      layout.after_draw(*panel, state->view.presentation, state->view.lock_layout);
    }
    draw_notices(*state, layout.notices());
    if (!state->view.open_panel.empty()) {  // e.g. the occupancy strip's button
      for (auto& p : panels)
        if (p->id() == state->view.open_panel) p->open = true;
      state->view.open_panel.clear();
    }
    ImGui::PopFont();
    ImGui::Render();

    int fb_width = 0, fb_height = 0;
    platform->framebuffer_size(fb_width, fb_height);
    glViewport(0, 0, fb_width, fb_height);
    glDisable(GL_SCISSOR_TEST);
    // The theme's window colour: windows drawn without a background (the matrices) show it.
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    const float fb_scale = io.DisplaySize.x > 0 ? static_cast<float>(fb_width) / io.DisplaySize.x : 1.0f;
    running = automation.after_render(*state, layout, fb_width, fb_height, fb_scale);
    if (options.on_frame) options.on_frame(*state, layout, fb_width, fb_height, fb_scale);
    layout.save();
    if (state->screenshot_request) {
      const std::string err = render::save_framebuffer_png(*state->screenshot_request, fb_width, fb_height);
      if (err.empty()) state->notify(NoticeLevel::Info, "saved " + state->screenshot_request->string());
      else state->notify(NoticeLevel::Error, err);
      state->screenshot_request.reset();
    }
    if (options.after_frame && !options.after_frame(*state, frame)) running = false;
    ++frame;
    platform->present();

    // Presentation mode: full screen, large fonts, high contrast, its own panels.
    if (state->view.presentation != applied_presentation) {
      applied_presentation = state->view.presentation;
      apply_theme(applied_presentation);
      platform->set_fullscreen(applied_presentation);
      if (layout.presenting() != applied_presentation) layout.switch_mode();
      ++state->view.fit_requests;
    }
  }

  // ---- cleanup ----
  const int exit_code = automation.exit_code();
  layout.save(/*now=*/true);
  panels.clear();
  state->renderer = nullptr;
  renderer.reset();
  state.reset();  // waits for a recording in flight
  ImGui_ImplOpenGL3_Shutdown();
  platform->shutdown_imgui();
  ImGui::DestroyContext();
  platform.reset();
  return exit_code;
}

}  // namespace ts::ui
