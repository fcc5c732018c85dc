// record_options.h — the flags that describe a recording, shared by
// `tilescope record` and the app's automation flags.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernels/recorder.h"

namespace ts::cli {

struct RecordOptions {
  std::string kernel = "tiled";
  int tile = 16;
  int size = 64;
  std::optional<int> m, n, k;  // unsaid: --size (a said 0 is refused, not replaced)
  std::string device = "auto";
  std::string inputs = "random";
  std::uint64_t seed = 0;
  // A kernel of the user's own (--kernel-file): replaces --kernel and --tile.
  std::string kernel_file, entry, block = "16x16", block_tile;
  std::vector<std::string> defines;
  std::vector<std::string> args;  // --arg NAME=VALUE: the entry's scalars after M, N, K
  double timeout = 60;  // seconds a launch may run (0: no limit)
};

// What ran: --kernel --tile --size --m --k --n --seed.
void add_launch_options(CLI::App& app, RecordOptions& opts);
// The launch options, plus how to record: --device --inputs, and a user's kernel:
// --kernel-file --entry --block --block-tile -D --arg, and --timeout.
void add_record_options(CLI::App& app, RecordOptions& opts);
// Fills params; returns an error message, empty when the options are valid.
std::string to_record_params(const RecordOptions& opts, RecordParams& params);

}  // namespace ts::cli
