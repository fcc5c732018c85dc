// device_buffer.cuh — a grow-only device allocation, kept between recordings
// so that re-recording in a running app does not pay cudaMalloc each time.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/cuda/cuda_check.cuh"

namespace ts::gpu {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);  // at exit the runtime may be gone already: nothing to report
  }
  template <class T>
  T* get(std::size_t count) {
    const std::size_t bytes = count * sizeof(T);
    if (bytes > bytes_) {
      if (ptr_) TS_CUDA_CHECK(cudaFree(ptr_));
      ptr_ = nullptr;
      bytes_ = 0;
      TS_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
      bytes_ = bytes;
    }
    return static_cast<T*>(ptr_);
  }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace ts::gpu
