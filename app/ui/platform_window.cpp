// platform_window.cpp — the normal app: a GLFW window with an OpenGL 3.3 core
// context, and Dear ImGui's GLFW backend for input.
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <cstdio>

#include "app/ui/app.h"
#include "app/ui/platform.h"

namespace ts::ui {
namespace {

void glfw_error(int code, const char* description) {
  std::fprintf(stderr, "tilescope: GLFW error %d: %s\n", code, description);
}

class WindowPlatform : public Platform {
 public:
  ~WindowPlatform() override {
    if (window_) glfwDestroyWindow(window_);
    if (initialised_) glfwTerminate();
  }

  std::string init(const AppOptions& o) override {
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) return "cannot open a window (no display?)";
    initialised_ = true;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(o.width, o.height, "tilescope", nullptr, nullptr);
    if (!window_) return "cannot create an OpenGL 3.3 core window (the driver may be too old)";
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(o.vsync ? 1 : 0);
    if (!gladLoadGL(glfwGetProcAddress)) return "cannot load the OpenGL 3.3 functions";
    saved_ = {100, 100, o.width, o.height};
    return {};
  }
  void init_imgui() override { ImGui_ImplGlfw_InitForOpenGL(window_, true); }
  void shutdown_imgui() override { ImGui_ImplGlfw_Shutdown(); }
  void poll_events() override { glfwPollEvents(); }
  bool wait_events(double seconds) override {
    const double t0 = glfwGetTime();
    glfwWaitEventsTimeout(seconds);
    return glfwGetTime() - t0 < seconds * 0.9;
  }
  void wake() override { glfwPostEmptyEvent(); }  // thread-safe in GLFW
  bool should_close() override { return glfwWindowShouldClose(window_); }
  bool minimised() override { return glfwGetWindowAttrib(window_, GLFW_ICONIFIED) != 0; }
  void new_frame() override { ImGui_ImplGlfw_NewFrame(); }
  void framebuffer_size(int& w, int& h) override { glfwGetFramebufferSize(window_, &w, &h); }
  void present() override { glfwSwapBuffers(window_); }
  const char* name() const override { return "window"; }

  // Full screen on the primary monitor, and back to where the window was.
  void set_fullscreen(bool on) override {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    if (on && monitor && !glfwGetWindowMonitor(window_)) {
      glfwGetWindowPos(window_, &saved_.x, &saved_.y);
      glfwGetWindowSize(window_, &saved_.width, &saved_.height);
      const GLFWvidmode* mode = glfwGetVideoMode(monitor);
      glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else if (!on && glfwGetWindowMonitor(window_)) {
      glfwSetWindowMonitor(window_, nullptr, saved_.x, saved_.y, saved_.width, saved_.height, 0);
    }
  }

 private:
  struct Placement {
    int x = 100, y = 100, width = 1600, height = 1000;
  };
  GLFWwindow* window_ = nullptr;
  bool initialised_ = false;
  Placement saved_;
};

}  // namespace

std::unique_ptr<Platform> make_window_platform() { return std::make_unique<WindowPlatform>(); }

}  // namespace ts::ui
