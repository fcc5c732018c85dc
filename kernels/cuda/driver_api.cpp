// driver_api.cpp — the driver API's entry points, looked up once.
#include "kernels/cuda/driver_api.h"

#include <cuda_runtime.h>

#include <string>

#include "kernels/cuda/cuda_check.cuh"

namespace ts::gpu {
namespace {

template <class F>
void entry_point(const char* name, F& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult found{};
  TS_CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found));
  if (!p || found != cudaDriverEntryPointSuccess) throw GpuError(std::string("the CUDA driver has no ") + name);
  fn = reinterpret_cast<F>(p);
}

}  // namespace

const DriverApi& driver() {
  static const DriverApi api = [] {
    DriverApi d;
    entry_point("cuModuleLoadData", d.module_load_data);
    entry_point("cuModuleGetFunction", d.module_get_function);
    entry_point("cuModuleGetGlobal", d.module_get_global);
    entry_point("cuMemcpyHtoD", d.memcpy_htod);
    entry_point("cuLaunchKernel", d.launch_kernel);
    entry_point("cuFuncSetAttribute", d.func_set_attribute);
    entry_point("cuFuncGetAttribute", d.func_get_attribute);
    entry_point("cuGetErrorString", d.get_error_string);
    return d;
  }();
  return api;
}

void check_cu(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  driver().get_error_string(r, &name);
  throw GpuError(std::string(what) + ": " + (name ? name : "CUDA driver error " + std::to_string(r)));
}

}  // namespace ts::gpu
