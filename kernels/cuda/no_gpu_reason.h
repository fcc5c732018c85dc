// no_gpu_reason.h — what to tell the user when CUDA finds no GPU to use.
//
// Without any NVIDIA driver, the CUDA runtime's cudaGetDeviceCount answers
// cudaErrorInsufficientDriver ("CUDA driver version is insufficient for CUDA
// runtime version") or cudaErrorNoDevice, which reads as if a driver update
// would help. Whether a driver is installed at all decides the message.
#pragma once

#include <string>

namespace ts::gpu {

// How cudaGetDeviceCount failed, in plain terms (no CUDA headers needed here).
enum class CountFailure {
  InsufficientDriver,  // cudaErrorInsufficientDriver
  NoDevice,            // cudaErrorNoDevice, or a count of 0
  Other,               // any other error
};

// An NVIDIA driver is installed: its kernel module (/proc/driver/nvidia) or
// its user-space library (libcuda.so.1) is present.
bool nvidia_driver_present();

// The sentence for DeviceStatus::reason. cuda_message is cudaGetErrorString's
// text, quoted only when it says something the plain sentence does not.
std::string no_gpu_reason(CountFailure failure, bool driver_present, const std::string& cuda_message);

}  // namespace ts::gpu
