// embedded_files.h — text files compiled into the binary (see embed_files.cmake):
// the GLSL shaders of the renderer and the kernel headers the source panel shows.
#pragma once

#include <span>
#include <string_view>

namespace ts::embed {

struct File {
  std::string_view name;  // the file's name without its directory, e.g. "grid.vert"
  std::string_view text;
};

// shaders/*.glsl|vert|frag, embedded by app/render.
std::span<const File> shader_files();
// kernels/*.h, embedded by app/ui for the source panel.
std::span<const File> kernel_sources();
// kernels/kernel_resources.csv, embedded by kernels/ (see kernels/kernel_resources.h).
std::span<const File> kernel_resource_data();

// The file called `name`, or nullptr.
inline const File* find_file(std::span<const File> files, std::string_view name) {
  for (const File& f : files)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace ts::embed
