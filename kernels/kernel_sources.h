// kernel_sources.h — the kernel headers (kernels/*.h) as text, compiled into
// the binary by the library tilescope_kernel_sources (kernels/CMakeLists.txt):
// the app's source panel and `stats --by-line` show them. Link that library
// to call it.
#pragma once

#include <span>

#include "trace/embedded_files.h"

namespace ts::embed {

std::span<const File> kernel_sources();

}  // namespace ts::embed
