// cli_support.h — run the real `tilescope` binary as a user would, for the
// command-line tests: its exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ts::test {

struct Result {
  int code = -1;
  std::string out, err;
};

// env: assignments put before the command ("NAME=VALUE ..."), empty for none.
inline Result run(const std::string& args, const std::string& env = "") {
  namespace fs = std::filesystem;
  const fs::path err_file = fs::temp_directory_path() / ("ts_cli_err_" + std::to_string(::getpid()));
  const std::string cmd = (env.empty() ? "" : env + " ") + std::string(TILESCOPE_BIN) + " " + args + " 2>" + err_file.string();
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 65536> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file);
  std::stringstream ss;
  ss << in.rdbuf();
  r.err = ss.str();
  fs::remove(err_file);
  return r;
}

inline std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name);
}

inline void expect_one_line_error(const Result& r, const std::string& needle) {
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("tilescope: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

}  // namespace ts::test
