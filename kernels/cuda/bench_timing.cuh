// bench_timing.cuh — time GPU work with CUDA events: warm-up runs first (module
// load, cuBLAS heuristics, clocks ramping up), then each timed run between its
// own pair of events, and the median of those.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"

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

// The median, least and most of a set of times (sorted in place).
inline Timing summarize(std::vector<double>& ms) {
  std::sort(ms.begin(), ms.end());
  Timing r;
  r.runs = int(ms.size());
  if (ms.empty()) return r;
  const std::size_t n = ms.size();
  r.min_ms = ms.front();
  r.max_ms = ms.back();
  r.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  return r;
}

// Nothing between timed runs: each run finds the caches as the last one left them.
struct NoFlush {
  void operator()() const {}
};

// Writes a buffer of twice the L2 cache's size before each timed run (as
// Triton's do_bench does), so that every run finds its inputs in device
// memory, as an application's GEMM would: without it, inputs that fit in the
// L2 (2048^3 in FP32 is 48 MB, an H100's L2 50 MB) are read from whatever the
// run before left there, and a kernel timed after itself is timed on its own
// leftovers (docs/ladder-notes.md, run 16).
class L2Flush {
 public:
  explicit L2Flush(cudaStream_t stream) : stream_(stream) {
    int device = 0, l2 = 0;
    TS_CUDA_CHECK(cudaGetDevice(&device));
    TS_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    bytes_ = 2 * std::size_t(l2 > 0 ? l2 : 64 << 20);
    buffer_.get<unsigned char>(bytes_);
  }
  void operator()() { TS_CUDA_CHECK(cudaMemsetAsync(buffer_.get<unsigned char>(bytes_), 0, bytes_, stream_)); }
  std::size_t bytes() const { return bytes_; }

 private:
  cudaStream_t stream_;
  std::size_t bytes_ = 0;
  DeviceBuffer buffer_;
};

// launch() enqueues one run on stream and checks its launch error; between()
// is enqueued before each timed run, outside its events (e.g. an L2Flush).
template <class Launch, class Between = NoFlush>
Timing time_launches(Launch&& launch, int warmup, int runs, cudaStream_t stream, Between&& between = {}) {
  for (int i = 0; i < warmup; ++i) launch();
  TS_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<CudaEvent> start(runs), stop(runs);
  for (int i = 0; i < runs; ++i) {
    between();
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
  return summarize(ms);
}

// Two kernels timed in alternating rounds (one run of each per round, each
// between its own events), so that both see the same clocks and power state:
// a run whose clock dips under the power cap for a while slows both alike.
// ratio_median is the median over the rounds of a's time / b's time.
struct PairedTiming {
  Timing a, b;
  double ratio_median = 0;
};

template <class LaunchA, class LaunchB, class Between = NoFlush>
PairedTiming time_paired(LaunchA&& launch_a, LaunchB&& launch_b, int warmup, int runs, cudaStream_t stream,
                         Between&& between = {}) {
  for (int i = 0; i < warmup; ++i) {
    launch_a();
    launch_b();
  }
  TS_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<CudaEvent> events(4 * std::size_t(runs));
  for (int i = 0; i < runs; ++i) {
    between();
    TS_CUDA_CHECK(cudaEventRecord(events[4 * i].get(), stream));
    launch_a();
    TS_CUDA_CHECK(cudaEventRecord(events[4 * i + 1].get(), stream));
    between();
    TS_CUDA_CHECK(cudaEventRecord(events[4 * i + 2].get(), stream));
    launch_b();
    TS_CUDA_CHECK(cudaEventRecord(events[4 * i + 3].get(), stream));
  }
  TS_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> a(runs), b(runs), ratio(runs);
  for (int i = 0; i < runs; ++i) {
    float ta = 0, tb = 0;
    TS_CUDA_CHECK(cudaEventElapsedTime(&ta, events[4 * i].get(), events[4 * i + 1].get()));
    TS_CUDA_CHECK(cudaEventElapsedTime(&tb, events[4 * i + 2].get(), events[4 * i + 3].get()));
    a[i] = ta, b[i] = tb, ratio[i] = tb > 0 ? ta / tb : 0;
  }
  PairedTiming r;
  r.a = summarize(a);
  r.b = summarize(b);
  r.ratio_median = summarize(ratio).median_ms;  // the median of the ratios (Timing's field holds any value)
  return r;
}

}  // namespace ts::gpu
