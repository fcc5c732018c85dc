// default_scene.h — what `tilescope` does with no command: open the app on a
// scene (with the GUI), or record the scene and summarise it (without).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace ts::cli {

struct DefaultScene {
  std::function<int()> run;
};

DefaultScene add_default_scene_options(CLI::App& app);

}  // namespace ts::cli
