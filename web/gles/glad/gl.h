// glad/gl.h for the browser build: the desktop generates an OpenGL 3.3 core
// loader here with glad (third_party/CMakeLists.txt); WebGL2 is OpenGL ES
// 3.0, whose functions emscripten links directly, so its header stands in.
#pragma once
#include <GLES3/gl3.h>
