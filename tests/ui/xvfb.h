// xvfb.h — a virtual X server for the window tests.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace ts::test {

// A virtual X server (Xvfb) with one screen of the given size; it picks a
// free display number and reports it. Stopped when destroyed.
class Xvfb {
 public:
  Xvfb(int width, int height) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      close(fds[0]);
      const std::string fd = std::to_string(fds[1]);
      const std::string screen = std::to_string(width) + "x" + std::to_string(height) + "x24";
      execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", screen.c_str(), "-nolisten", "tcp",
             static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    char c;
    while (read(fds[0], &c, 1) == 1 && c != '\n') number_ += c;
    close(fds[0]);
  }
  ~Xvfb() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  Xvfb(const Xvfb&) = delete;
  Xvfb& operator=(const Xvfb&) = delete;
  // ":N", or empty when it did not start.
  std::string display() const { return number_.empty() ? std::string() : ":" + number_; }

 private:
  pid_t pid_ = -1;
  std::string number_;
};

}  // namespace ts::test
