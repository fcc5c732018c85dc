// cpu_compiler.cpp — compile, cache and load a user kernel for the emulator.
#include "kernels/user/cpu_compiler.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "kernels/emu/mode_emulator.h"
#include "kernels/user/compile_cache.h"
#include "kernels/user/user_args.h"

extern char** environ;

namespace ts {
namespace {

namespace fs = std::filesystem;
using K = UserKernelError::Kind;

// The flags, in the hash too. -O1: the emulator spends its time in the sink, not in the
// kernel's arithmetic, and -O1 compiles in about half the time of -O2.
const std::vector<std::string> kFlags = {"-std=c++20", "-O1", "-fPIC", "-shared", "-x", "c++"};

struct RunResult {
  int status = -1;      // the exit status; -1: killed or not started
  int spawn_error = 0;  // errno of posix_spawnp
  std::string output;   // stdout and stderr together
};

// Runs argv, its output captured, stdin from /dev/null.
RunResult run(const std::vector<std::string>& argv) {
  RunResult r;
  int pipe_fd[2];
  if (pipe2(pipe_fd, O_CLOEXEC) != 0) {
    r.spawn_error = errno;
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  r.spawn_error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fd[1]);
  if (r.spawn_error == 0) {
    char buf[4096];
    for (ssize_t got; (got = read(pipe_fd[0], buf, sizeof buf)) != 0;) {
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) break;
      r.output.append(buf, static_cast<std::size_t>(got));
    }
  }
  close(pipe_fd[0]);
  if (r.spawn_error != 0) return r;
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {}
  r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
  return r;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

// Compiler output about the wrapper names the wrapper's temporary path: say what it is instead.
std::string tidy(std::string text, const std::string& wrapper_path) {
  for (std::size_t at; (at = text.find(wrapper_path)) != std::string::npos;)
    text.replace(at, wrapper_path.size(), "<tilescope wrapper>");
  return text;
}

// The loaded objects, by path: never unloaded (a recording may still run in one).
std::mutex g_loaded_mutex;
std::map<fs::path, void*> g_loaded;
std::mutex g_version_mutex;
std::map<std::vector<std::string>, std::string> g_versions;

emu::KernelEntry load(const fs::path& object, const UserKernelSpec& spec) {
  std::lock_guard lock(g_loaded_mutex);
  void*& handle = g_loaded[object];
  if (!handle) handle = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    g_loaded.erase(object);
    throw UserKernelError(K::Compile, "cannot load the compiled kernel " + object.string() + ": " +
                                          (why ? why : "dlopen failed") +
                                          " (this tilescope binary may not export its emulator: "
                                          "cmake/emulator_exports.list)");
  }
  auto entry = reinterpret_cast<emu::KernelEntry>(dlsym(handle, "tilescope_user_entry"));
  auto thread_index = reinterpret_cast<const void* (*)()>(dlsym(handle, "tilescope_thread_index"));
  if (!entry || !thread_index)
    throw UserKernelError(K::Compile, "the compiled kernel " + object.string() + " has no entry point");
  // Its threadIdx must be the emulator's: a private copy would read 0 in every thread.
  if (thread_index() != static_cast<const void*>(&emu::threadIdx))
    throw UserKernelError(K::Compile, "the compiled kernel for " + spec.label() +
                                          " does not share the emulator's threadIdx: this tilescope binary does not "
                                          "export its emulator (link it with cmake/emulator_exports.list)");
  return entry;
}

// The first "error" line, for a one-line summary; the whole text follows it.
std::string first_error(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find(": error") != std::string::npos || line.find(": fatal error") != std::string::npos) return line;
  return text.substr(0, text.find('\n'));
}

}  // namespace

std::vector<std::string> cpu_compiler_command() {
  const char* env = std::getenv("TILESCOPE_CXX");
  if (!env || !*env) env = std::getenv("CXX");
  std::vector<std::string> cmd;
  std::istringstream words(env && *env ? env : "c++");
  for (std::string w; words >> w;) cmd.push_back(w);
  if (cmd.empty()) cmd.push_back("c++");
  return cmd;
}

std::string cpu_compiler_version() {
  const std::vector<std::string> cmd = cpu_compiler_command();
  {
    std::lock_guard lock(g_version_mutex);
    if (auto it = g_versions.find(cmd); it != g_versions.end()) return it->second;
  }
  std::vector<std::string> argv = cmd;
  argv.push_back("--version");
  const RunResult r = run(argv);
  if (r.spawn_error != 0 || r.status != 0)
    throw UserKernelError(K::NoCompiler,
                          "no C++ compiler to build the kernel with: '" + joined(cmd) + "' " +
                              (r.spawn_error ? std::string("cannot be run (") + std::strerror(r.spawn_error) + ")"
                                             : "failed") +
                              "; install one (apt install g++) or name one in TILESCOPE_CXX");
  std::string version = r.output.substr(0, r.output.find('\n'));
  std::lock_guard lock(g_version_mutex);
  g_versions[cmd] = version;
  return version;
}

CompiledCpuKernel compile_for_emulator(const UserKernelSpec& spec) {
  const auto t0 = std::chrono::steady_clock::now();
  validate_user_spec(spec);
  const std::string source = read_kernel_source(spec.file);
  const BoundArgs bound = bind_user_args(spec, source);
  const std::string wrapper = user_kernel_wrapper(spec, source, bound.literals, false);
  const std::vector<fs::path> includes = user_kernel_include_dirs();
  const std::vector<std::string> cmd = cpu_compiler_command();
  const std::string version = cpu_compiler_version();
  const std::string api = kernel_api_hash(includes);
  const std::string flags = joined(cmd) + " " + joined(kFlags);
  const std::string hash = content_hash({wrapper, flags, version, TILESCOPE_VERSION_STRING, api});

  CompiledCpuKernel out;
  out.c_starts_zero = bound.c_starts_zero;
  const fs::path dir = kernel_cache_dir() / "kernels";
  out.object = dir / ("emu-" + hash + ".so");
  std::error_code ec;
  out.cached = fs::exists(out.object, ec);
  if (!out.cached) {
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir, ec))
      throw UserKernelError(K::NoCompiler, "cannot create the kernel cache " + dir.string() +
                                               " (set TILESCOPE_CACHE_DIR to a writable directory)");
    const std::string tag = std::to_string(getpid()) + "-" + std::to_string(std::hash<std::string>{}(spec.file));
    const fs::path wrapper_path = dir / ("emu-" + hash + "." + tag + ".cpp");
    const fs::path tmp = dir / ("emu-" + hash + "." + tag + ".so.tmp");
    std::ofstream(wrapper_path, std::ios::binary) << wrapper;
    std::vector<std::string> argv = cmd;
    argv.insert(argv.end(), kFlags.begin(), kFlags.end());
    for (const fs::path& inc : includes) argv.push_back("-I" + inc.string());
    argv.insert(argv.end(), {wrapper_path.string(), "-o", tmp.string()});
    const RunResult r = run(argv);
    fs::remove(wrapper_path, ec);
    if (r.spawn_error != 0)
      throw UserKernelError(K::NoCompiler, "no C++ compiler to build the kernel with: '" + joined(cmd) +
                                               "' cannot be run (" + std::strerror(r.spawn_error) +
                                               "); install one (apt install g++) or name one in TILESCOPE_CXX");
    if (r.status != 0) {
      fs::remove(tmp, ec);
      const std::string text = tidy(r.output, wrapper_path.string());
      const bool only_entry = text.find(spec.file + ":") == std::string::npos &&
                              text.find(kEntryMarker) != std::string::npos;
      if (only_entry)
        throw UserKernelError(K::NoEntry, spec.file + " defines no kernel " + spec.entry + kEntrySignature +
                                              "; the compiler said:\n" + text);
      throw UserKernelError(K::Compile, first_error(text) + "\n" + text);
    }
    publish_object(tmp, out.object);
  }
  out.entry = load(out.object, spec);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace ts
