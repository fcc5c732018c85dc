// platform_web.cpp — the app in a browser page (the emscripten build, web/):
// GLFW's emscripten port on the page's canvas with a WebGL2 context (OpenGL
// ES 3.0; app/render/gl_version.h), Dear ImGui's GLFW backend for input.
//
// The main loop (app.cpp) runs unchanged: built with -sASYNCIFY, waiting for
// the next frame or for input hands control back to the browser (which then
// shows the frame drawn) and resumes the loop where it was. The canvas
// follows the size of the page.
#include <GLES3/gl3.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <cstdio>

#include "app/ui/app.h"
#include "app/ui/platform.h"

namespace {

// Until the browser's next animation frame (the frame drawn is shown meanwhile).
EM_ASYNC_JS(void, ts_web_next_frame, (), {
  await new Promise(resolve => requestAnimationFrame(() => resolve()));
});

// Until input arrives (1) or ms pass (0). The page's listeners (installed by
// ts_web_listen) call Module.tsWake after GLFW's own have seen the event.
EM_ASYNC_JS(int, ts_web_wait, (int ms), {
  return await new Promise(resolve => {
    let done = false;
    const finish = woke => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      Module.tsWake = null;
      resolve(woke);
    };
    const timer = setTimeout(() => finish(0), ms);
    Module.tsWake = () => setTimeout(() => finish(1), 0);
  });
});

EM_JS(void, ts_web_listen, (), {
  const wake = () => { if (Module.tsWake) Module.tsWake(); };
  for (const type of ['keydown', 'keyup', 'mousedown', 'mouseup', 'mousemove', 'wheel', 'resize', 'touchstart',
                      'touchmove', 'touchend', 'focus', 'blur', 'drop'])
    window.addEventListener(type, wake, {passive: true});
});

EM_JS(int, ts_web_page_width, (), { return Math.max(320, Math.floor(window.innerWidth)); });
EM_JS(int, ts_web_page_height, (), { return Math.max(240, Math.floor(window.innerHeight)); });

EM_JS(void, ts_web_fullscreen, (int on), {
  // Browsers allow full screen only from the event handler of a gesture: try, and stay in the page otherwise.
  try {
    if (on && !document.fullscreenElement) document.documentElement.requestFullscreen().catch(() => {});
    if (!on && document.fullscreenElement) document.exitFullscreen().catch(() => {});
  } catch (e) {
  }
});

}  // namespace

namespace ts::ui {
namespace {

void glfw_error(int code, const char* description) {
  std::fprintf(stderr, "tilescope: GLFW error %d: %s\n", code, description);
}

class WebPlatform : public Platform {
 public:
  ~WebPlatform() override {
    if (window_) glfwDestroyWindow(window_);
    if (initialised_) glfwTerminate();
  }

  std::string init(const AppOptions&) override {
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) return "cannot start GLFW on the page";
    initialised_ = true;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);  // WebGL2
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    width_ = ts_web_page_width();
    height_ = ts_web_page_height();
    window_ = glfwCreateWindow(width_, height_, "tilescope", nullptr, nullptr);
    if (!window_) return "this browser gives the page no WebGL2 context";
    glfwMakeContextCurrent(window_);
    ts_web_listen();
    return {};
  }
  void init_imgui() override { ImGui_ImplGlfw_InitForOpenGL(window_, true); }
  void shutdown_imgui() override { ImGui_ImplGlfw_Shutdown(); }
  void poll_events() override {
    ts_web_next_frame();
    follow_page();
  }
  bool wait_events(double seconds) override {
    const bool woke = ts_web_wait(static_cast<int>(seconds * 1000.0)) != 0;
    follow_page();
    return woke;
  }
  void wake() override {}  // one thread: a finished job is seen on the next frame
  bool should_close() override { return false; }  // the page closes, not the app
  bool minimised() override { return false; }    // a hidden tab gets no animation frames
  void new_frame() override { ImGui_ImplGlfw_NewFrame(); }
  void framebuffer_size(int& w, int& h) override { glfwGetFramebufferSize(window_, &w, &h); }
  void present() override {}  // the browser shows the canvas when the loop waits
  void set_fullscreen(bool on) override { ts_web_fullscreen(on ? 1 : 0); }
  const char* name() const override { return "browser"; }

 private:
  // The canvas as large as the page.
  void follow_page() {
    const int w = ts_web_page_width(), h = ts_web_page_height();
    if (w == width_ && h == height_) return;
    width_ = w;
    height_ = h;
    glfwSetWindowSize(window_, w, h);
  }

  GLFWwindow* window_ = nullptr;
  bool initialised_ = false;
  int width_ = 0, height_ = 0;
};

}  // namespace

std::unique_ptr<Platform> make_window_platform() { return std::make_unique<WebPlatform>(); }
// The page has no offscreen mode: a scripted scene draws on the canvas too.
std::unique_ptr<Platform> make_headless_platform() { return std::make_unique<WebPlatform>(); }

}  // namespace ts::ui
