// compile_cache.h — where compiled user kernels are kept, and the content hash
// that names them: the wrapper (the user's source and defines), the compiler's
// flags and version, tilescope's version and the kernel API headers. A file
// that changes gets a new name; nothing is ever reused by date.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

// $TILESCOPE_CACHE_DIR, else $XDG_CACHE_HOME/tilescope, else ~/.cache/tilescope
// (else a directory under /tmp); created on demand by the compilers.
std::filesystem::path kernel_cache_dir();

// 32 hex digits naming everything in parts (two independent 64-bit FNV-1a hashes).
std::string content_hash(const std::vector<std::string_view>& parts);

// A hash of the kernel API headers under the include directories (what a
// compiled user kernel was built against: a changed header is a new object).
std::string kernel_api_hash(const std::vector<std::filesystem::path>& include_dirs);

// Moves a finished object into place so that a reader never sees half a file.
void publish_object(const std::filesystem::path& tmp, const std::filesystem::path& final_path);

}  // namespace ts
