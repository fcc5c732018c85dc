// commands.h — the subcommands of `tilescope`, one file each. A command adds
// itself to the parser and returns what to run if it was chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <functional>
#include <string>

#include "app/core/stats.h"
#include "kernels/recorder.h"

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
Command add_launch_command(CLI::App& parent);

// A 64-bit seed: CLI11 reads "-1" into an unsigned 64-bit option as 2^64 - 1
// and a number past it as 2^64 - 1 too, so such an option takes only digits
// of a number that fits.
inline const CLI::Validator kWholeNumber(
    [](std::string& text) -> std::string {
      std::uint64_t value = 0;
      const char* end = text.data() + text.size();
      const auto [ptr, ec] = std::from_chars(text.data(), end, value);
      if (text.empty() || ec != std::errc{} || ptr != end) return "expects a whole number from 0 to 2^64 - 1";
      return {};
    },
    "", "whole number");

// The table of `tilescope stats`, for a trace or for counted events.
void print_stats_table(const LaunchInfo& launch, std::uint64_t events, std::uint64_t threads, const TraceStats& stats);

// One line on stderr, prefixed "tilescope: ", and the exit code for failures.
int fail(const std::string& message);
// A compiler's diagnostics: the first line as fail()'s message, then the compiler's own lines, indented.
int fail_with_details(const std::string& text);
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitFindings = 3;  // `record --check` found something
inline constexpr int kExitTimedOut = 7;  // the launch ran past --timeout
// A kernel of the user's own (README, "Your own kernel"): 4 it does not compile,
// 5 it stopped (an access outside its arrays, a divergent barrier, a fault),
// 6 C != A x B.
inline constexpr int kExitKernelCompile = 4;
inline constexpr int kExitKernelFault = 5;
inline constexpr int kExitWrongResult = 6;

// A recording that failed: its message, and kExitTimedOut for a launch that
// ran past its deadline, kExitFailure else. A GPU launch that timed out still
// runs and holds the CUDA context: then the process ends here, without the
// teardown that would wait for it.
int fail_recording(const RecordError& e);

}  // namespace ts::cli
