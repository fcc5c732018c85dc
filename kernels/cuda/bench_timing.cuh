// bench_timing.cuh — time GPU work with CUDA events: warm-up runs first (module
// load, cuBLAS heuristics, clocks ramping up), then each timed run between its
// own pair of events, and the median of those.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "kernels/cuda/cuda_check.cuh"

namespace ts::gpu {

class CudaEvent {
 public:
  CudaEvent() { TS_CUDA_CHECK(cudaEventCreate(&event_)); }
  ~CudaEvent() {
    if (event_) cudaEventDestroy(event_);
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  CudaEvent(CudaEvent&& o) noexcept : event_(o.event_) { o.event_ = nullptr; }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int runs = 0;
};

// launch() enqueues one run on stream and checks its launch error.
template <class Launch>
Timing time_launches(Launch&& launch, int warmup, int runs, cudaStream_t stream) {
  for (int i = 0; i < warmup; ++i) launch();
  TS_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<CudaEvent> start(runs), stop(runs);
  for (int i = 0; i < runs; ++i) {
    TS_CUDA_CHECK(cudaEventRecord(start[i].get(), stream));
    launch();
    TS_CUDA_CHECK(cudaEventRecord(stop[i].get(), stream));
  }
  TS_CUDA_CHECK(cudaStreamSynchronize(stream));  // a fault in any run surfaces here
  std::vector<double> ms(runs);
  for (int i = 0; i < runs; ++i) {
    float t = 0;
    TS_CUDA_CHECK(cudaEventElapsedTime(&t, start[i].get(), stop[i].get()));
    ms[i] = t;
  }
  std::sort(ms.begin(), ms.end());
  Timing r;
  r.runs = runs;
  r.min_ms = ms.front();
  r.max_ms = ms.back();
  r.median_ms = runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
  return r;
}

}  // namespace ts::gpu
