// assets.cpp — the installed data directory, beside the executable, before the source tree.
#include "app/core/assets.h"

#include <cstdlib>

namespace ts {
namespace {

namespace fs = std::filesystem;

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

}  // namespace

std::optional<fs::path> asset_dir() {
  if (const char* d = std::getenv("TILESCOPE_ASSET_DIR"); d && *d) {  // a bundle, or a test
    if (is_dir(d)) return fs::path(d);
    return std::nullopt;
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = (exe.parent_path().parent_path() / "share" / "tilescope").lexically_normal();
    if (is_dir(installed)) return installed;
  }
  const fs::path source = fs::path(TILESCOPE_SOURCE_DIR) / "assets";  // a build tree: the sources it came from
  if (is_dir(source)) return source;
  return std::nullopt;
}

fs::path resolve_asset(const fs::path& path) {
  std::error_code ec;
  if (fs::exists(path, ec)) return path;
  auto it = path.begin();
  if (path.is_relative() && it != path.end() && *it == "assets") {
    if (const auto dir = asset_dir()) {
      fs::path rest;
      for (++it; it != path.end(); ++it) rest /= *it;
      if (fs::exists(*dir / rest, ec)) return *dir / rest;
    }
  }
  return path;
}

}  // namespace ts
