// user_kernel_gpu.cpp — compile a user kernel with NVRTC, load it with the
// driver API and record it with the GPU recorder's two passes.
#include "kernels/cuda/user_kernel_gpu.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/driver_api.h"
#include "kernels/cuda/plain_file.h"
#include "kernels/cuda/gpu_record_passes.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/user/compile_cache.h"
#include "kernels/user/user_args.h"

namespace ts::gpu {
namespace {

namespace fs = std::filesystem;
using K = UserKernelError::Kind;

// NVRTC has no C++ standard library: the kernel API's <cstdint>, <type_traits>
// and <concepts> are libcu++'s (CCCL, shipped with the toolkit), seen from namespace std.
const char* const kStdShims[][2] = {
    {"cstdint", "#pragma once\n#include <cuda/std/cstdint>\nnamespace std { using namespace ::cuda::std; }\n"},
    {"type_traits", "#pragma once\n#include <cuda/std/type_traits>\nnamespace std { using namespace ::cuda::std; }\n"},
    {"concepts", "#pragma once\n#include <cuda/std/concepts>\nnamespace std { using namespace ::cuda::std; }\n"},
};

void check_nvrtc(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) throw GpuError(std::string(what) + ": " + nvrtcGetErrorString(r));
}


// A loaded module, by CUBIN path: never unloaded (the primary context keeps it).
struct LoadedModule {
  CUmodule module = nullptr;
  CUfunction kernel = nullptr;
  CUdeviceptr launch_desc = 0;  // ts::gpu_rec::c_launch
  std::size_t launch_bytes = 0;
};
std::mutex g_modules_mutex;
std::map<fs::path, LoadedModule> g_modules;

const LoadedModule& load(const fs::path& cubin) {
  std::lock_guard lock(g_modules_mutex);
  if (auto it = g_modules.find(cubin); it != g_modules.end()) return it->second;
  TS_CUDA_CHECK(cudaFree(nullptr));  // the runtime's primary context, current on this thread, holds the module too
  std::ifstream in(cubin, std::ios::binary);
  std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LoadedModule m;
  const DriverApi& cu = driver();
  check_cu(cu.module_load_data(&m.module, image.data()), "loading the compiled user kernel");
  check_cu(cu.module_get_function(&m.kernel, m.module, "tilescope_user_kernel"), "finding the user kernel's entry");
  // The mangled name of ts::gpu_rec::c_launch (a namespace-scope variable: stable across compilers).
  check_cu(cu.module_get_global(&m.launch_desc, &m.launch_bytes, m.module, "_ZN2ts7gpu_rec8c_launchE"),
           "finding the user kernel's launch description");
  return g_modules.emplace(cubin, m).first->second;
}

}  // namespace

std::string nvrtc_version() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return "NVRTC " + std::to_string(major) + "." + std::to_string(minor);
}

CompiledGpuKernel compile_for_gpu(const UserKernelSpec& spec, int arch) {
  const auto t0 = std::chrono::steady_clock::now();
  validate_user_spec(spec);
  const std::string source = read_kernel_source(spec.file);
  const BoundArgs bound = bind_user_args(spec, source);
  const std::string wrapper = user_kernel_wrapper(spec, source, bound.literals, true);
  const std::vector<fs::path> includes = user_kernel_include_dirs();
  std::vector<std::string> options = {"--std=c++20", "-arch=sm_" + std::to_string(arch),
                                      "-default-device"};
  for (const fs::path& inc : includes) options.push_back("-I" + inc.string());
  options.push_back("-I" TILESCOPE_CUDA_INCLUDE_DIR);
  options.push_back("-I" TILESCOPE_CUDA_INCLUDE_DIR "/cccl");
  std::string joined;
  for (const std::string& o : options) joined += o + " ";
  const std::string hash = content_hash({wrapper, joined, nvrtc_version(), TILESCOPE_VERSION_STRING,
                                         kernel_api_hash(includes)});

  CompiledGpuKernel out;
  out.c_starts_zero = bound.c_starts_zero;
  const fs::path dir = kernel_cache_dir() / "kernels";
  out.cubin = dir / ("gpu-" + hash + "-sm" + std::to_string(arch) + ".cubin");
  std::error_code ec;
  out.cached = fs::exists(out.cubin, ec);
  if (!out.cached) {
    fs::create_directories(dir, ec);
    nvrtcProgram prog = nullptr;
    std::vector<const char*> header_texts, header_names;
    for (const auto& [name, text] : kStdShims) {
      header_names.push_back(name);
      header_texts.push_back(text);
    }
    check_nvrtc(nvrtcCreateProgram(&prog, wrapper.c_str(), "tilescope_wrapper.cu", static_cast<int>(header_texts.size()),
                                   header_texts.data(), header_names.data()),
                "NVRTC could not take the kernel");
    std::vector<const char*> opts;
    for (const std::string& o : options) opts.push_back(o.c_str());
    const nvrtcResult r = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
    std::size_t log_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    std::string log(log_size, '\0');
    if (log_size) nvrtcGetProgramLog(prog, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    if (r != NVRTC_SUCCESS) {
      nvrtcDestroyProgram(&prog);
      const bool only_entry = log.find(spec.file + "(") == std::string::npos && log.find(kEntryMarker) != std::string::npos;
      if (only_entry)
        throw UserKernelError(K::NoEntry, spec.file + " defines no kernel " + spec.entry + kEntrySignature +
                                              "; NVRTC said:\n" + log);
      throw UserKernelError(K::Compile, nvrtc_first_error(log) + "\n" + log);
    }
    std::size_t size = 0;
    nvrtcGetCUBINSize(prog, &size);
    std::string cubin(size, '\0');
    nvrtcGetCUBIN(prog, cubin.data());
    nvrtcDestroyProgram(&prog);
    const fs::path tmp = dir / (out.cubin.filename().string() + "." + std::to_string(getpid()) + ".tmp");
    std::ofstream(tmp, std::ios::binary) << cubin;
    publish_object(tmp, out.cubin);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

void record_user_launch(const UserKernelSpec& spec, Trace& trace, std::uint64_t event_limit) {
  int device = 0, major = 0, minor = 0;
  TS_CUDA_CHECK(cudaGetDevice(&device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  const CompiledGpuKernel compiled = compile_for_gpu(spec, major * 10 + minor);
  const LoadedModule& m = load(compiled.cubin);
  const LaunchInfo& L = trace.launch;
  InstrumentedKernel kernel;
  kernel.c_starts_zero = compiled.c_starts_zero;
  kernel.set_launch = [&](const void* desc, std::size_t bytes) {
    if (bytes != m.launch_bytes) throw GpuError("the user kernel was compiled against another kernel API");
    check_cu(driver().memcpy_htod(m.launch_desc, desc, bytes), "setting the user kernel's launch");
  };
  kernel.launch = [&](const float* a, const float* b, float* c) {
    int mm = L.m, nn = L.n, kk = L.k;
    void* args[] = {&a, &b, &c, &mm, &nn, &kk};
    check_cu(driver().launch_kernel(m.kernel, L.grid.x, L.grid.y, L.grid.z, L.block.x, L.block.y, L.block.z, 0, nullptr, args,
                            nullptr),
             "launching the user kernel");
    // With the caller's deadline (LaunchDeadline): a loop that never ends is abandoned, not waited for.
    if (const cudaError_t e = wait_for_device(); e != cudaSuccess)
      throw GpuError(std::string("running the user kernel: ") + cudaGetErrorString(e));
  };
  record_passes(trace, kernel, {}, event_limit);
}

}  // namespace ts::gpu
