// no_gpu_reason.cpp — tell "no driver" from "no GPU" from "old driver".
#include "kernels/cuda/no_gpu_reason.h"

#include <dlfcn.h>
#include <unistd.h>

namespace ts::gpu {

bool nvidia_driver_present() {
  if (::access("/proc/driver/nvidia/version", F_OK) == 0) return true;
  if (void* lib = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    ::dlclose(lib);
    return true;
  }
  return false;
}

std::string no_gpu_reason(CountFailure failure, bool driver_present, const std::string& cuda_message) {
  switch (failure) {
    case CountFailure::InsufficientDriver:
      if (!driver_present) return "no NVIDIA driver found: this machine has no NVIDIA GPU driver installed";
      return "the NVIDIA driver is older than this build's CUDA runtime (" + cuda_message + "): update the driver";
    case CountFailure::NoDevice:
      if (!driver_present) return "no NVIDIA driver found: this machine has no NVIDIA GPU driver installed";
      return "no NVIDIA GPU found (the driver is installed but reports no device)";
    case CountFailure::Other: break;
  }
  return "no usable NVIDIA GPU: " + cuda_message;
}

}  // namespace ts::gpu
