// recorded_thread.cuh — what every instrumented kernel does around the kernel
// body, tilescope's own (gpu_recorder.cu) and a user's (NVRTC): find this
// thread's slot for its events, note the block's SM and start/end times, and
// check afterwards that the thread made as many accesses as it counted.
#pragma once

#include "kernels/cuda/device_clock.cuh"
#include "kernels/cuda/mode_recorded.cuh"

namespace ts::gpu_rec {

__device__ __forceinline__ std::uint64_t block_of_thread(std::uint64_t me) {
  return me / (std::uint64_t{blockDim.x} * blockDim.y * blockDim.z);
}

__device__ __forceinline__ void begin_recorded_thread() {
  const std::uint64_t me = global_thread_id();
  const std::uint64_t block = block_of_thread(me);
  if (c_launch.timing) {
    atomicMin(reinterpret_cast<unsigned long long*>(&c_launch.timing[block].start_ns), ::ts::gpu::global_timer_ns());
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) c_launch.timing[block].sm = ::ts::gpu::sm_id();
  }
  ThreadState s{};
  if (c_launch.events) {
    s.out = c_launch.events + c_launch.offsets[me];
    s.capacity = c_launch.offsets[me + 1] - c_launch.offsets[me];
  }
  c_launch.state[me] = s;
}

__device__ __forceinline__ void end_recorded_thread() {
  const std::uint64_t me = global_thread_id();
  const std::uint64_t seq = c_launch.state[me].seq;
  if (c_launch.counts) c_launch.counts[me] = seq;
  if (c_launch.events && seq != c_launch.state[me].capacity) atomicOr(c_launch.errors, kErrUnderflow);
  if (c_launch.timing)
    atomicMax(reinterpret_cast<unsigned long long*>(&c_launch.timing[block_of_thread(me)].end_ns),
              ::ts::gpu::global_timer_ns());
}

}  // namespace ts::gpu_rec

// A user kernel's instrumented entry point (kernels/user/user_kernel.cpp's wrapper
// ends with it): extern "C", so that the driver API finds it by name. The
// arguments after ENTRY, if any, follow M, N, K: the literals of the entry's
// scalars bound with --arg (kernels/user/user_args.h).
#define TS_USER_RECORDED_KERNEL(ENTRY, ...)                                                                 \
  extern "C" __global__ void tilescope_user_kernel(const float* a, const float* b, float* c, int m, int n,  \
                                                   int k) {                                                 \
    using namespace ::ts::gpu_rec;                                                                          \
    begin_recorded_thread();                                                                                \
    ENTRY(InMatrix{a, ::ts::ArrayId::A}, InMatrix{b, ::ts::ArrayId::B}, OutMatrix{c, ::ts::ArrayId::C}, m, n, \
          k __VA_OPT__(, ) __VA_ARGS__);                                                                    \
    end_recorded_thread();                                                                                  \
  }
