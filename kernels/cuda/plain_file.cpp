// plain_file.cpp — compile a plain CUDA file with NVRTC and launch its entry.
#include "kernels/cuda/plain_file.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <filesystem>
#include <sstream>
#include <vector>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/driver_api.h"
#include "kernels/user/user_kernel.h"

namespace ts::gpu {
namespace {

using K = UserKernelError::Kind;

// Headers a listing includes for nvcc that NVRTC has built in (or must not
// see: their host declarations): empty here.
const char* const kBuiltinHeaders[] = {"cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "cuda_runtime_api.h"};

struct Nvrtc {
  nvrtcProgram prog = nullptr;
  ~Nvrtc() {
    if (prog) nvrtcDestroyProgram(&prog);
  }
};

void check_nvrtc(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) throw GpuError(std::string(what) + ": " + nvrtcGetErrorString(r));
}

// The CUBIN and the entry's lowered name.
std::pair<std::string, std::string> compile(const PlainKernel& kernel, int arch) {
  const std::string source = read_kernel_source(kernel.file);
  std::vector<const char*> header_names, header_texts;
  for (const char* h : kBuiltinHeaders) {
    header_names.push_back(h);
    header_texts.push_back("#pragma once\n");
  }
  Nvrtc n;
  check_nvrtc(nvrtcCreateProgram(&n.prog, source.c_str(), kernel.file.c_str(), static_cast<int>(header_names.size()),
                                 header_texts.data(), header_names.data()),
              "NVRTC could not take the file");
  check_nvrtc(nvrtcAddNameExpression(n.prog, kernel.entry.c_str()), "NVRTC could not take the entry's name");
  std::vector<std::string> options = {"--std=c++17", "-arch=sm_" + std::to_string(arch), "-lineinfo"};
  const std::filesystem::path dir = std::filesystem::absolute(kernel.file).parent_path();
  options.push_back("-I" + dir.string());
  for (const std::string& d : kernel.defines) options.push_back("-D" + d);
  std::vector<const char*> opts;
  for (const std::string& o : options) opts.push_back(o.c_str());
  const nvrtcResult r = nvrtcCompileProgram(n.prog, static_cast<int>(opts.size()), opts.data());
  std::size_t log_size = 0;
  nvrtcGetProgramLogSize(n.prog, &log_size);
  std::string log(log_size, '\0');
  if (log_size) nvrtcGetProgramLog(n.prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (r != NVRTC_SUCCESS) throw UserKernelError(K::Compile, nvrtc_first_error(log) + "\n" + log);
  const char* lowered = nullptr;
  if (nvrtcGetLoweredName(n.prog, kernel.entry.c_str(), &lowered) != NVRTC_SUCCESS || !lowered)
    throw UserKernelError(K::NoEntry, kernel.file + " has no __global__ function " + kernel.entry);
  std::size_t size = 0;
  check_nvrtc(nvrtcGetCUBINSize(n.prog, &size), "NVRTC made no CUBIN");
  std::string cubin(size, '\0');
  check_nvrtc(nvrtcGetCUBIN(n.prog, cubin.data()), "NVRTC made no CUBIN");
  return {cubin, lowered};
}

}  // namespace

std::string nvrtc_first_error(const std::string& log) {
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.find(": error") != std::string::npos || line.find("catastrophic error") != std::string::npos) return line;
  return log.substr(0, log.find('\n'));
}

PlainFileLaunch launch_plain_file(const PlainKernel& kernel, const std::vector<BoundParam>& params,
                                  const PlainFileOperands& ops) {
  int device = 0, major = 0, minor = 0;
  TS_CUDA_CHECK(cudaGetDevice(&device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  const auto [cubin, lowered] = compile(kernel, major * 10 + minor);

  TS_CUDA_CHECK(cudaFree(nullptr));  // the runtime's primary context, current on this thread, holds the module
  const DriverApi& cu = driver();
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  check_cu(cu.module_load_data(&module, cubin.data()), "loading the compiled file");
  check_cu(cu.module_get_function(&fn, module, lowered.c_str()), "finding the entry");
  if (kernel.dynamic_shared > 48 * 1024)
    check_cu(cu.func_set_attribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   static_cast<int>(kernel.dynamic_shared)),
             "allowing the dynamic shared memory asked for");

  void* matrices[3] = {ops.a, ops.b, ops.c};
  std::vector<void*> args;
  for (const BoundParam& p : params)
    args.push_back(p.matrix ? static_cast<void*>(&matrices[p.matrix - 'A'])
                            : const_cast<unsigned char*>(p.value.bytes));
  cudaEvent_t start = nullptr, stop = nullptr;
  TS_CUDA_CHECK(cudaEventCreate(&start));
  TS_CUDA_CHECK(cudaEventCreate(&stop));
  TS_CUDA_CHECK(cudaEventRecord(start));
  check_cu(cu.launch_kernel(fn, kernel.grid.x, kernel.grid.y, kernel.grid.z, kernel.block.x, kernel.block.y,
                            kernel.block.z, kernel.dynamic_shared, nullptr, args.data(), nullptr),
           ("launching " + kernel.entry).c_str());
  // A fault may surface at the next call or at the wait: either way it is the launch's.
  cudaError_t done = cudaEventRecord(stop);
  if (done == cudaSuccess) done = cudaEventSynchronize(stop);
  if (done != cudaSuccess)
    throw GpuError("the launch of " + kernel.entry + " failed: " + cudaGetErrorString(done) +
                   " (an access outside its arrays? compute-sanitizer names the access)");
  PlainFileLaunch out;
  out.lowered_name = lowered;
  float ms = 0;
  TS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  out.milliseconds = ms;
  TS_CUDA_CHECK(cudaEventDestroy(start));
  TS_CUDA_CHECK(cudaEventDestroy(stop));
  return out;
}

}  // namespace ts::gpu
