// counter_job.h — whole-launch counters (app/counters/counter.h) off the UI
// thread, for a launch too large to trace: on the GPU in a moment, on the
// emulator block by block (minutes at N = 4096 on two cores), with progress
// and a stop that takes effect at the next block.
#pragma once

#include <atomic>
#include <cstdint>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "app/counters/counter.h"
#include "kernels/recorder.h"

namespace ts::ui {

class CounterJob {
 public:
  CounterJob() = default;
  ~CounterJob();
  CounterJob(const CounterJob&) = delete;
  CounterJob& operator=(const CounterJob&) = delete;

  // Stops any count under way and starts this one.
  void start(const RecordParams& params);
  void stop();
  bool running() const;
  // Blocks counted so far, of all (the emulator; 0 of 0 on the GPU).
  std::uint64_t blocks_done() const { return done_.load(); }
  std::uint64_t blocks_total() const { return total_; }
  double seconds() const;
  // The finished count of exactly these parameters (seed included), if any.
  std::shared_ptr<const LaunchCounters> result_for(const RecordParams& params) const;
  std::string error() const;
  const RecordParams& params() const { return params_; }

 private:
  void join();
  std::thread worker_;
  std::atomic<bool> stop_{false}, running_{false};
  std::atomic<std::uint64_t> done_{0};
  std::uint64_t total_ = 0;
  RecordParams params_;
  std::chrono::steady_clock::time_point started_;
  mutable std::mutex mutex_;
  std::shared_ptr<const LaunchCounters> result_;
  std::string error_;
};

}  // namespace ts::ui
