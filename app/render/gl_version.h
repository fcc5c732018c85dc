// gl_version.h — the GL dialect, the one place it differs: OpenGL 3.3 core on
// the desktop, WebGL2 (OpenGL ES 3.0) in the browser build. The shaders in
// shaders/ are written once; on WebGL2 their #version line (and anything
// before it: ES wants #version first) becomes kGlslEsHeader.
#pragma once

namespace ts::render {

#if defined(__EMSCRIPTEN__)
inline constexpr bool kGlslEs = true;
inline constexpr const char* kImGuiGlslVersion = "#version 300 es";
#else
inline constexpr bool kGlslEs = false;
inline constexpr const char* kImGuiGlslVersion = "#version 330 core";
#endif
inline constexpr const char kGlslEsHeader[] =
    "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n";

}  // namespace ts::render
