// launch_deadline.cpp — waiting for the GPU with a deadline: a kernel whose
// loop never ends must not hang tilescope forever.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "kernels/cuda/cuda_check.cuh"

namespace ts::gpu {
namespace {

using Clock = std::chrono::steady_clock;

// Seconds from the deadline's start; 0: none. Per thread: the app records on
// its own threads.
thread_local double t_seconds = 0;
thread_local Clock::time_point t_start;
std::atomic<bool> g_abandoned{false};

}  // namespace

bool launch_abandoned() { return g_abandoned.load(); }

LaunchDeadline::LaunchDeadline(double seconds) : previous_(t_seconds) {
  t_seconds = seconds;
  t_start = Clock::now();
}

LaunchDeadline::~LaunchDeadline() { t_seconds = previous_; }

cudaError_t wait_for_device() {
  if (t_seconds <= 0) return cudaDeviceSynchronize();
  cudaEvent_t done = nullptr;
  if (const cudaError_t e = cudaEventCreateWithFlags(&done, cudaEventDisableTiming); e != cudaSuccess) return e;
  cudaError_t status = cudaEventRecord(done, nullptr);
  const auto deadline = t_start + std::chrono::duration<double>(t_seconds);
  if (status == cudaSuccess) status = cudaEventQuery(done);
  for (; status == cudaErrorNotReady; status = cudaEventQuery(done)) {
    if (Clock::now() > deadline) {
      // The event stays: destroying it would wait for the kernel.
      g_abandoned = true;
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", t_seconds);
      throw GpuTimeout(std::string("the launch was still running after ") + seconds +
                       " s and was abandoned (a GPU kernel cannot be stopped): a loop that never ends? "
                       "Record it with --device cpu to see where its threads are");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  cudaGetLastError();  // cudaErrorNotReady is not sticky, but the runtime keeps it as the last error
  cudaEventDestroy(done);
  return status == cudaSuccess ? cudaDeviceSynchronize() : status;
}

}  // namespace ts::gpu
