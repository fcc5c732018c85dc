// child_process.h — run another program and wait for it, with extra
// environment variables and a time limit: how `record --exec` starts the
// program it traces, and how the app records through the tracer (it runs
// `tilescope record` and opens the file it writes).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ts {

struct ChildResult {
  int status = 0;          // waitpid's: WIFEXITED, WEXITSTATUS, WIFSIGNALED
  bool timed_out = false;  // killed (SIGKILL) at the time limit
};

// Runs argv (argv[0] looked up on PATH) with env_extra's NAME=VALUE added to
// this process's environment (replacing a variable of the same name); waits
// at most timeout seconds (0: no limit). output: a file for the child's
// stdout and stderr (empty: this process's). nullopt, with error, when it
// could not be started.
std::optional<ChildResult> run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env_extra,
                                     double timeout, std::string& error, const std::string& output = {});

// This process's executable (/proc/self/exe), to start another tilescope with.
std::string this_executable();

// "exited with status 3", "was killed by signal 9", "ran past its time limit".
std::string describe_exit(const ChildResult& r);

}  // namespace ts
