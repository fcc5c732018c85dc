// embedded_files.h — text files compiled into the binary (cmake/EmbedFiles.cmake):
// the GLSL shaders of the renderer, the kernel headers the source panel shows,
// the shipped kernel resources. Each set is a function the build generates;
// its declaration sits with the code that reads it (app/render/gl_program.cpp,
// kernels/kernel_sources.h, kernels/kernel_resources.cpp).
#pragma once

#include <span>
#include <string_view>

namespace ts::embed {

struct File {
  std::string_view name;  // the file's name without its directory, e.g. "grid.vert"
  std::string_view text;
};

// The file called `name`, or nullptr.
inline const File* find_file(std::span<const File> files, std::string_view name) {
  for (const File& f : files)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace ts::embed
