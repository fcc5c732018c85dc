// main.cpp — `tilescope`: the app, or one of its commands.
//
//   tilescope                      the app on its default scene (tiled, TILE 16, N = 64)
//   tilescope record ...           record a trace (see `tilescope record --help`)
//   tilescope stats FILE --json    what a trace holds
//   tilescope counters ...         the same numbers at any size, without keeping events
//   tilescope export FILE --csv    one row per event
//   tilescope compare A B --json   two traces' memory counters side by side
//   tilescope occupancy ...        blocks per SM and the binding limit (see `tilescope occupancy --help`)
//   tilescope timeline ...         one full-size launch's SM timeline (see `tilescope timeline --help`)
//   tilescope bench ...            time the kernels against cuBLAS (see `tilescope bench --help`)
//   tilescope --version            the version, and whether it was built with CUDA and the GUI
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "build_info.h"  // generated: TILESCOPE_VERSION, what the build has
#include "app/cli/default_scene.h"
#include "app/core/display_text.h"
#include "app/core/assets.h"

namespace ts::cli {

int fail(const std::string& message) {
  // A message may quote a file's name or contents: never a raw control character.
  std::fprintf(stderr, "tilescope: %s\n", ts::escape_control(message).c_str());
  return kExitFailure;
}

int fail_recording(const RecordError& e) {
  if (e.kind() == RecordError::Kind::GpuTimedOut) {
    fail(e.what());
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(kExitTimedOut);
  }
  if (e.kind() == RecordError::Kind::TimedOut) return fail(e.what()), kExitTimedOut;
  return fail(e.what());
}

int fail_with_details(const std::string& text) {
  const auto nl = text.find('\n');
  fail(text.substr(0, nl));
  if (nl == std::string::npos) return kExitFailure;
  std::istringstream rest(text.substr(nl + 1));
  for (std::string line; std::getline(rest, line);) std::fprintf(stderr, "  %s\n", ts::escape_control(line).c_str());
  return kExitFailure;
}

}  // namespace ts::cli

int main(int argc, char** argv) {
  using namespace ts::cli;
  CLI::App app{"tilescope: watch tiled matrix multiplication on the GPU, access by access"};
  app.require_subcommand(0, 1);
  const auto assets = ts::asset_dir();
  app.set_version_flag("--version", std::string("tilescope ") + TILESCOPE_VERSION + "\nbuilt with: CUDA " +
                                        TILESCOPE_BUILT_CUDA + ", GUI " + TILESCOPE_BUILT_GUI + "\nassets: " +
                                        (assets ? assets->string() : "not found"));
  std::vector<Command> commands{add_record_command(app), add_stats_command(app), add_counters_command(app),
                                add_export_command(app),
                                add_compare_command(app),
                                add_bench_command(app), add_launch_command(app),
                                add_occupancy_command(app), add_timeline_command(app)};
  DefaultScene scene = add_default_scene_options(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "tilescope: %s (see --help)\n", e.what());
    return kExitUsage;
  }
  const auto chosen = std::find_if(commands.begin(), commands.end(), [](const Command& c) { return c.app->parsed(); });
  const int code = chosen != commands.end() ? chosen->run() : scene.run();
  // A command that printed its result has not succeeded until the result is
  // written (standard output on a full disk: the numbers lost, exit 0).
  errno = 0;
  if (code == 0 && (std::fflush(stdout) != 0 || std::ferror(stdout)))
    return fail(std::string("cannot write the output: ") + std::strerror(errno ? errno : EIO));
  return code;
}
