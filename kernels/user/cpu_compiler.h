// cpu_compiler.h — build a user kernel for the emulator: the system C++
// compiler makes a shared object of the generated wrapper, which is loaded
// with dlopen. The object resolves the emulator's sink and built-ins
// (ts::emu::*) against the running executable, which exports them
// (cmake/emulator_exports.list).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kernels/emu/kernel_args.h"
#include "kernels/user/user_kernel.h"

namespace ts {

struct CompiledCpuKernel {
  emu::KernelEntry entry = nullptr;
  std::filesystem::path object;  // the shared object in the cache
  bool cached = false;           // found in the cache: no compiler ran
  double seconds = 0.0;          // compile (or look-up) and load
  bool c_starts_zero = false;    // the entry takes a beta: C starts at 0, not NaN (user_args.h)
};

// The compiler command: $TILESCOPE_CXX, else $CXX, else c++ (split at spaces: "ccache g++" works).
std::vector<std::string> cpu_compiler_command();
// Its first line of `--version`; throws UserKernelError(NoCompiler) when it cannot be run.
std::string cpu_compiler_version();

// Throws UserKernelError (compiler errors keep the user's FILE:LINE; an --arg
// the entry cannot take is BadSpec, before any compiler runs).
CompiledCpuKernel compile_for_emulator(const UserKernelSpec& spec);

}  // namespace ts
