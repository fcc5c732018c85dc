// commands.h — the subcommands of `tilescope`, one file each. A command adds
// itself to the parser and returns what to run if it was chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "app/core/stats.h"

namespace ts::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // returns the process exit code
};

Command add_record_command(CLI::App& parent);
Command add_stats_command(CLI::App& parent);
Command add_export_command(CLI::App& parent);
Command add_compare_command(CLI::App& parent);
Command add_occupancy_command(CLI::App& parent);
Command add_timeline_command(CLI::App& parent);
Command add_bench_command(CLI::App& parent);
Command add_counters_command(CLI::App& parent);

// The table of `tilescope stats`, for a trace or for counted events.
void print_stats_table(const LaunchInfo& launch, std::uint64_t events, std::uint64_t threads, const TraceStats& stats);

// One line on stderr, prefixed "tilescope: ", and the exit code for failures.
int fail(const std::string& message);
// A compiler's diagnostics: the first line as fail()'s message, then the compiler's own lines, indented.
int fail_with_details(const std::string& text);
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitFindings = 3;  // `record --check` found something

}  // namespace ts::cli
