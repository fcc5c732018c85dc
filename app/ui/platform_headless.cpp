// platform_headless.cpp — no window: an OpenGL 3.3 core context through EGL
// (the GPU's own driver on a server, or Mesa), frames drawn into an
// offscreen framebuffer that screenshots read. No input; time advances one
// 60th of a second per frame, so scripted scenes are reproducible.
#include <glad/egl.h>
#include <glad/gl.h>
#include <imgui.h>

#include <vector>

#include "app/ui/app.h"
#include "app/ui/platform.h"

namespace ts::ui {
namespace {

GLADapiproc egl_proc(const char* name) { return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name)); }

bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  const std::string_view all(list), want(name);
  for (std::size_t pos = 0; (pos = all.find(want, pos)) != std::string_view::npos; pos += want.size()) {
    const bool starts = pos == 0 || all[pos - 1] == ' ';
    const bool ends = pos + want.size() == all.size() || all[pos + want.size()] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

class HeadlessPlatform : public Platform {
 public:
  ~HeadlessPlatform() override {
    if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
    if (color_) glDeleteRenderbuffers(1, &color_);
    if (display_ != EGL_NO_DISPLAY) {
      eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
      if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
      eglTerminate(display_);
    }
    gladLoaderUnloadEGL();
  }

  std::string init(const AppOptions& o) override {
    width_ = o.width;
    height_ = o.height;
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) return "cannot load libEGL.so.1 (headless rendering needs EGL)";
    if (!open_display()) return "no EGL display could be initialised (no GPU driver with EGL, no Mesa)";
    gladLoaderLoadEGL(display_);  // the display's extensions
    if (!eglBindAPI(EGL_OPENGL_API)) return "this EGL has no desktop OpenGL";
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    if (!eglChooseConfig(display_, config_attribs, &config, 1, &count) || count == 0)
      return "no EGL configuration for OpenGL";
    const EGLint pbuffer_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    surface_ = eglCreatePbufferSurface(display_, config, pbuffer_attribs);
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, context_attribs);
    if (context_ == EGL_NO_CONTEXT) return "cannot create an OpenGL 3.3 core context through EGL";
    if (!eglMakeCurrent(display_, surface_, surface_, context_)) return "cannot make the EGL context current";
    if (!gladLoadGL(egl_proc)) return "cannot load the OpenGL 3.3 functions through EGL";
    // The frames' target, bound for the whole run: drawing and screenshots use it.
    glGenFramebuffers(1, &framebuffer_);
    glGenRenderbuffers(1, &color_);
    glBindRenderbuffer(GL_RENDERBUFFER, color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width_, height_);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return "the offscreen framebuffer is incomplete";
    return {};
  }

  void init_imgui() override {
    ImGuiIO& io = ImGui::GetIO();
    io.BackendPlatformName = "tilescope_headless";
    io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  }
  void shutdown_imgui() override { ImGui::GetIO().BackendPlatformName = nullptr; }
  void poll_events() override {}
  bool wait_events(double) override { return false; }
  void wake() override {}
  bool should_close() override { return false; }
  bool minimised() override { return false; }
  void new_frame() override {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    io.DeltaTime = 1.0f / 60.0f;
  }
  void framebuffer_size(int& w, int& h) override {
    w = width_;
    h = height_;
  }
  void present() override { glFinish(); }
  void set_fullscreen(bool) override {}  // the offscreen size is the --window size
  const char* name() const override { return "headless (EGL)"; }

 private:
  // A GPU's device display first (no display server needed), then Mesa's
  // surfaceless platform, then the default display.
  bool open_display() {
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (has_extension(client, "EGL_EXT_platform_device") && eglQueryDevicesEXT && eglGetPlatformDisplayEXT) {
      EGLint n = 0;
      eglQueryDevicesEXT(0, nullptr, &n);
      std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(std::max(n, 0)));
      if (n > 0 && eglQueryDevicesEXT(n, devices.data(), &n))
        for (EGLint i = 0; i < n; ++i)
          if (try_display(eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr))) return true;
    }
    if (has_extension(client, "EGL_MESA_platform_surfaceless") && eglGetPlatformDisplayEXT &&
        try_display(eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)))
      return true;
    return try_display(eglGetDisplay(EGL_DEFAULT_DISPLAY));
  }
  bool try_display(EGLDisplay d) {
    if (d == EGL_NO_DISPLAY) return false;
    EGLint major = 0, minor = 0;
    if (!eglInitialize(d, &major, &minor)) return false;
    display_ = d;
    return true;
  }

  int width_ = 1600, height_ = 1000;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLSurface surface_ = EGL_NO_SURFACE;
  EGLContext context_ = EGL_NO_CONTEXT;
  GLuint framebuffer_ = 0, color_ = 0;
};

}  // namespace

std::unique_ptr<Platform> make_headless_platform() { return std::make_unique<HeadlessPlatform>(); }

}  // namespace ts::ui
