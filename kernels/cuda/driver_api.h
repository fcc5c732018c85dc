// driver_api.h — the CUDA driver API functions tilescope calls, reached
// through the runtime's entry points rather than by linking libcuda, so that
// a CUDA build still starts (and says there is no GPU) on a machine without
// the driver. Used to load and launch kernels compiled by NVRTC.
#pragma once

#include <cuda.h>

namespace ts::gpu {

struct DriverApi {
  decltype(&::cuModuleLoadData) module_load_data = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuModuleGetGlobal) module_get_global = nullptr;
  decltype(&::cuMemcpyHtoD) memcpy_htod = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  decltype(&::cuFuncSetAttribute) func_set_attribute = nullptr;
  decltype(&::cuFuncGetAttribute) func_get_attribute = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;
};

// Throws GpuError when the driver lacks one of them.
const DriverApi& driver();

// Throws GpuError naming `what` and the driver's message unless r is CUDA_SUCCESS.
void check_cu(CUresult r, const char* what);

}  // namespace ts::gpu
