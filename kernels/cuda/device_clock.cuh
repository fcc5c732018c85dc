// device_clock.cuh — where and when a block runs, read inside a kernel:
// %globaltimer (nanoseconds, one clock for every SM) and %smid.
#pragma once

#include <cstdint>

namespace ts::gpu {

__device__ __forceinline__ std::uint64_t global_timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ std::uint32_t sm_id() {
  std::uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

}  // namespace ts::gpu
