// platform.h — where the app's frames go: a GLFW window (the normal case), or
// an offscreen framebuffer through EGL (headless: scripted screenshots on a
// GPU server with no display). Either way an OpenGL 3.3 core context is
// current after init() and the GL functions are loaded.
#pragma once

#include <memory>
#include <string>

namespace ts::ui {

struct AppOptions;

class Platform {
 public:
  virtual ~Platform() = default;
  // Creates the context; returns an error message, empty on success.
  virtual std::string init(const AppOptions& options) = 0;
  virtual void init_imgui() = 0;      // after ImGui::CreateContext
  virtual void shutdown_imgui() = 0;  // before ImGui::DestroyContext
  virtual void poll_events() = 0;
  // Sleeps until an event arrives or `seconds` pass (nothing on screen is
  // moving); returns true if it woke for an event.
  virtual bool wait_events(double seconds) = 0;
  // Ends a wait_events() from another thread (a finished recording).
  virtual void wake() = 0;
  virtual bool should_close() = 0;
  virtual bool minimised() = 0;
  virtual void new_frame() = 0;  // the platform half of ImGui's new frame
  virtual void framebuffer_size(int& width, int& height) = 0;
  virtual void present() = 0;
  virtual void set_fullscreen(bool on) = 0;
  virtual const char* name() const = 0;
};

std::unique_ptr<Platform> make_window_platform();
std::unique_ptr<Platform> make_headless_platform();

}  // namespace ts::ui
