// assets.h — where tilescope finds the files it ships (the GPU results under
// assets/: benchmark, SM timelines, the Nsight Compute table). Installed,
// they are next to the executable in ../share/tilescope (cmake --install,
// the Debian package); in a build tree, in the source tree it was built from.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace ts {

// The directory holding bench/, timelines/, ncu/: $TILESCOPE_ASSET_DIR when
// set (nullopt if it is not a directory), else <executable>/../share/tilescope
// when it exists, else <source>/assets; nullopt when neither does.
std::optional<std::filesystem::path> asset_dir();

// A path as the user gives it ("assets/bench/h200.json"): as is when it
// exists (relative to the working directory), else the same file under
// asset_dir() for a path starting with "assets/", else unchanged.
std::filesystem::path resolve_asset(const std::filesystem::path& path);

}  // namespace ts
