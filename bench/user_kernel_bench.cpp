// user_kernel_bench.cpp — how long a user kernel takes to compile, the first
// time and from the cache (kernels/user/cpu_compiler.h).
//
//   user_kernel_bench [--json FILE] [--repeats N] [--file F --entry E -D NAME=VALUE ...]
//
// First compile: a fresh, empty cache directory each time, so the system C++
// compiler runs and the shared object is loaded (what the first
// `record --kernel-file` of a file pays). Cached: the same request again in
// the same process (read the source, hash it with the kernel API headers, find
// the object). Cold load: dlopen of a copy of the cached object at a new path
// (what a new process pays on top of the look-up). Medians over the repeats.
// A 40^3 recording with the compiled object checks that it works.
// No target: the figures are what issue 13 asks to know.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "trace/model/reference.h"
#include "trace/trace.h"
#include "kernels/recorder.h"
#include "kernels/user/compile_cache.h"
#include "kernels/user/cpu_compiler.h"

namespace fs = std::filesystem;
using ts::CompiledCpuKernel;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

double seconds_of(auto&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("first and cached compile times of a user kernel");
  std::string json_path, file = std::string(TILESCOPE_SOURCE_TREE) + "/examples/kernels/first_tiled.cu";
  std::string entry = "matmul_tiled";
  std::vector<std::string> defines = {"TILE=16"};
  int repeats = 5;
  app.add_option("--json", json_path, "Write the figures as JSON");
  app.add_option("--repeats", repeats, "Compiles of each kind")->capture_default_str();
  app.add_option("--file", file, "The kernel file")->capture_default_str();
  app.add_option("--entry", entry, "Its entry")->capture_default_str();
  app.add_option("-D", defines, "Its defines");
  CLI11_PARSE(app, argc, argv);

  ts::UserKernelSpec spec{file, entry, {16, 16, 1}, 0, 0, defines, 0, {}};
  const fs::path root = fs::temp_directory_path() / ("user_kernel_bench_" + std::to_string(getpid()));
  std::vector<double> first, cached, cold;
  try {
    const std::string version = ts::cpu_compiler_version();
    for (int i = 0; i < repeats; ++i) {
      const fs::path dir = root / ("first" + std::to_string(i));
      setenv("TILESCOPE_CACHE_DIR", dir.c_str(), 1);
      CompiledCpuKernel c;
      first.push_back(seconds_of([&] { c = ts::compile_for_emulator(spec); }));
      if (c.cached) throw std::runtime_error("a fresh cache directory already held the object");
    }
    // The object works: a small recording (and C against the reference) with the last one.
    ts::RecordParams p;
    p.user = spec;
    p.m = p.n = p.k = 40;
    p.device = ts::DeviceChoice::Cpu;
    const ts::Trace t = ts::record(p);
    if (const std::string wrong = ts::check_matmul(t.a, t.b, t.c, p.m, p.n, p.k); !wrong.empty())
      throw std::runtime_error("the compiled kernel computed a wrong C: " + wrong);
    for (int i = 0; i < repeats; ++i) {
      CompiledCpuKernel c;
      cached.push_back(seconds_of([&] { c = ts::compile_for_emulator(spec); }));
      if (!c.cached) throw std::runtime_error("the second compile missed the cache");
      const fs::path copy = root / ("cold" + std::to_string(i) + ".so");
      fs::copy_file(c.object, copy);
      cold.push_back(seconds_of([&] {
        if (!dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL)) throw std::runtime_error(dlerror());
      }));
    }
    fs::remove_all(root);
    const nlohmann::json j = {{"file", fs::path(file).filename().string()},
                              {"entry", entry},
                              {"defines", defines},
                              {"compiler", version},
                              {"repeats", repeats},
                              {"first_compile_ms", median(first) * 1e3},
                              {"cached_lookup_ms", median(cached) * 1e3},
                              {"cold_load_ms", median(cold) * 1e3},
                              {"first_compile_ms_all", [&] {
                                 std::vector<double> ms;
                                 for (double x : first) ms.push_back(x * 1e3);
                                 return ms;
                               }()},
                              {"cores", std::thread::hardware_concurrency()},
                              {"load_average_1min", [] {
                                 double l[1] = {0};
                                 return getloadavg(l, 1) == 1 ? l[0] : -1.0;
                               }()},
                              {"date", ts::utc_now_iso8601()}};
    std::printf("%s (%s): first compile %.0f ms, cached look-up %.2f ms, load of a cached object %.2f ms (medians of %d; %s)\n",
                j["file"].get<std::string>().c_str(), entry.c_str(), median(first) * 1e3, median(cached) * 1e3,
                median(cold) * 1e3, repeats, version.c_str());
    if (!json_path.empty()) std::ofstream(json_path) << j.dump(2) << "\n";
  } catch (const std::exception& e) {
    fs::remove_all(root);
    std::fprintf(stderr, "user_kernel_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
