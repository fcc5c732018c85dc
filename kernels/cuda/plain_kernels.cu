// plain_kernels.cu — the kernel headers compiled as plain CUDA: what the
// benchmark times and what the instrumented recording is checked against.
// clang-format off
#include "kernels/cuda/mode_plain.cuh"
#include "kernels/all_kernels.h"
// clang-format on

#include "kernels/catalog.h"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/no_gpu_reason.h"
#include "kernels/cuda/plain_kernels.cuh"
#include "kernels/dispatch.h"

namespace ts::gpu {
namespace {

template <KernelKind KIND, int TILE>
__global__ void plain_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  ts::plain::run_kernel<KIND, TILE>(a, b, c, m, n, k);
}

// A rung of the ladder: its block size is fixed, so the compiler may budget
// registers for exactly that many threads, as the benchmark's kernels always did.
template <KernelKind KIND>
__global__ void __launch_bounds__(rung_config(KIND).threads) plain_rung(const float* a, const float* b, float* c, int m,
                                                                         int n, int k) {
  ts::plain::run_kernel<KIND, 0>(a, b, c, m, n, k);
}

template <KernelKind KIND, int TILE>
constexpr auto plain_entry() {
  if constexpr (is_rung(KIND)) return &plain_rung<KIND>;
  else return &plain_kernel<KIND, TILE>;
}

}  // namespace

void launch_plain(KernelKind kind, int tile, const float* a, const float* b, float* c, int m, int n, int k,
                  cudaStream_t stream) {
  const LaunchShape s = launch_shape(kind, tile, m, n);
  const dim3 grid(s.grid.x, s.grid.y, s.grid.z), block(s.block.x, s.block.y, s.block.z);
  dispatch(kind, tile, [&]<KernelKind K, int T>() { plain_entry<K, T>()<<<grid, block, 0, stream>>>(a, b, c, m, n, k); });
  TS_CUDA_CHECK(cudaGetLastError());
}

const void* plain_kernel_entry(KernelKind kind, int tile) {
  return dispatch(kind, tile, [&]<KernelKind K, int T>() { return reinterpret_cast<const void*>(plain_entry<K, T>()); });
}

void run_plain(KernelKind kind, int tile, const float* a, const float* b, float* c, int m, int n, int k) {
  DeviceBuffer da, db, dc;
  const std::size_t mk = std::size_t(m) * k, kn = std::size_t(k) * n, mn = std::size_t(m) * n;
  TS_CUDA_CHECK(cudaMemcpy(da.get<float>(mk), a, mk * sizeof(float), cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(db.get<float>(kn), b, kn * sizeof(float), cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemset(dc.get<float>(mn), 0xFF, mn * sizeof(float)));  // poison
  launch_plain(kind, tile, da.get<float>(mk), db.get<float>(kn), dc.get<float>(mn), m, n, k);
  TS_CUDA_CHECK_LAUNCH();
  TS_CUDA_CHECK(cudaMemcpy(c, dc.get<float>(mn), mn * sizeof(float), cudaMemcpyDeviceToHost));
}

DeviceStatus probe() {
  DeviceStatus st;
  if (launch_abandoned()) {  // its kernel still runs: nothing else would get the GPU
    st.reason = "a launch that never ended was abandoned on the GPU and keeps it busy: restart tilescope to use it";
    return st;
  }
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear it
    // Without any driver CUDA says "driver version is insufficient": say what is missing instead.
    const CountFailure failure = err == cudaErrorInsufficientDriver           ? CountFailure::InsufficientDriver
                                 : err == cudaErrorNoDevice || err == cudaSuccess ? CountFailure::NoDevice
                                                                                  : CountFailure::Other;
    st.reason = no_gpu_reason(failure, nvidia_driver_present(), err == cudaSuccess ? "" : cudaGetErrorString(err));
    return st;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    cudaGetLastError();
    st.reason = "cannot read the GPU's properties";
    return st;
  }
  st.available = true;
  st.name = prop.name;
  st.sm_count = prop.multiProcessorCount;
  st.compute_capability = prop.major * 10 + prop.minor;
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
    st.free_bytes = free_b;
    st.total_bytes = total_b;
  } else {
    cudaGetLastError();
  }
  return st;
}

}  // namespace ts::gpu
