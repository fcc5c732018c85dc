// user_kernel_support.h — user kernels for the tests: a copy of kernels/tiled.h
// as a user would paste it, and a cache of compiled objects shared by every
// test process of the build (the compiler is the slow part).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kernels/recorder.h"
#include "tests/kernels/refusal.h"

namespace ts::test {

// Points the compiled-kernel cache at the build tree, unless the environment names one
// (the GPU check runs these tests away from the build machine).
inline void use_test_kernel_cache() { setenv("TILESCOPE_CACHE_DIR", TILESCOPE_TEST_KERNEL_CACHE, 0); }

// The source tree: $TILESCOPE_SOURCE_TREE, else the one this test was built from.
inline std::string source_tree() {
  const char* env = std::getenv("TILESCOPE_SOURCE_TREE");
  return env && *env ? env : TILESCOPE_SOURCE_TREE;
}

// kernels/tiled.h's function, pasted into a file of its own: its template
// parameter TILE becomes a -D constant, nothing else changes.
inline std::string tiled_copy_file() {
  std::ifstream in(source_tree() + "/kernels/tiled.h");
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  const auto begin = text.find("TS_DEVICE inline void matmul_tiled(");
  const auto end = text.find("\n}\n", begin);
  if (begin == std::string::npos || end == std::string::npos) return {};
  use_test_kernel_cache();
  const std::filesystem::path dir = std::filesystem::path(std::getenv("TILESCOPE_CACHE_DIR")) / "sources";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "tiled_copy.cu";
  const std::string body = "#include <tilescope/kernel.h>\n\n" + text.substr(begin, end + 3 - begin);
  std::stringstream old;
  old << std::ifstream(file).rdbuf();
  if (old.str() != body) std::ofstream(file) << body;  // same bytes: the cached object stays valid
  return file.string();
}

inline std::string example_file(const std::string& name) {
  return source_tree() + "/examples/kernels/" + name;
}

// The message of the RecordError that recording p must end in, of kind want.
inline std::string record_error(const RecordParams& p, RecordError::Kind want) {
  return refusal_message([&] { record(p); }, want);
}

inline RecordParams user_params(const std::string& file, const std::string& entry, int tile, int m, int n, int k) {
  RecordParams p;
  p.user = UserKernelSpec{file, entry, {static_cast<std::uint32_t>(tile), static_cast<std::uint32_t>(tile), 1},
                          0, 0, {"TILE=" + std::to_string(tile)}, 0, {}};
  p.m = m;
  p.n = n;
  p.k = k;
  p.device = DeviceChoice::Cpu;
  p.seed = 0x5eed;
  p.cpu_workers = 2;
  return p;
}

}  // namespace ts::test
