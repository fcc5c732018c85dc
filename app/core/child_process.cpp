// child_process.cpp — fork, exec, wait (with a deadline).
#include "app/core/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

extern char** environ;

namespace ts {

std::optional<ChildResult> run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env_extra,
                                     double timeout, std::string& error, const std::string& output) {
  if (argv.empty()) {
    error = "no program to run";
    return std::nullopt;
  }
  std::vector<std::string> env_strings(env_extra);
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    const std::string key = kv.substr(0, kv.find('='));
    if (std::any_of(env_extra.begin(), env_extra.end(), [&](const std::string& x) { return x.starts_with(key + "="); }))
      continue;
    env_strings.push_back(kv);
  }
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : env_strings) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  int out_fd = -1;
  if (!output.empty()) {
    out_fd = open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out_fd < 0) {
      error = "cannot write " + output + ": " + std::strerror(errno);
      return std::nullopt;
    }
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    if (out_fd >= 0) close(out_fd);
    error = "cannot start " + argv[0] + ": fork failed";
    return std::nullopt;
  }
  if (pid == 0) {
    if (out_fd >= 0) {
      dup2(out_fd, STDOUT_FILENO);
      dup2(out_fd, STDERR_FILENO);
    }
    execvpe(args[0], args.data(), envp.data());
    std::fprintf(stderr, "tilescope: cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  if (out_fd >= 0) close(out_fd);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
  ChildResult c;
  for (;;) {
    const pid_t done = waitpid(pid, &c.status, timeout > 0 ? WNOHANG : 0);
    if (done == pid) return c;
    if (done < 0 && errno != EINTR) {
      error = "waiting for " + argv[0] + " failed";
      return std::nullopt;
    }
    if (timeout > 0 && std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &c.status, 0);
      c.timed_out = true;
      return c;
    }
    if (timeout > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string this_executable() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("tilescope") : self.string();
}

std::string describe_exit(const ChildResult& r) {
  if (r.timed_out) return "ran past its time limit and was stopped";
  if (WIFSIGNALED(r.status)) return "was killed by signal " + std::to_string(WTERMSIG(r.status));
  return "exited with status " + std::to_string(WEXITSTATUS(r.status));
}

}  // namespace ts
