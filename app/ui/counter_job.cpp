// counter_job.cpp — one worker thread per count; a stop is an exception
// thrown from the per-block hook, which the emulator's workers pass on.
#include "app/ui/counter_job.h"

#include <chrono>
#include <new>

#include "app/ui/trace_loader.h"
#include "kernels/catalog.h"

namespace ts::ui {
namespace {

struct Stopped {};

}  // namespace

CounterJob::~CounterJob() { stop(); }

void CounterJob::join() {
  if (worker_.joinable()) worker_.join();
}

void CounterJob::stop() {
  stop_ = true;
  join();
  stop_ = false;
}

bool CounterJob::running() const { return running_.load(); }

double CounterJob::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

void CounterJob::start(const RecordParams& params) {
  stop();
  {
    std::lock_guard lock(mutex_);
    result_.reset();
    error_.clear();
  }
  params_ = params;
  done_ = 0;
  total_ = launch_shape(params.kernel, params.tile, params.m, params.n).grid.count();
  started_ = std::chrono::steady_clock::now();
#if defined(__EMSCRIPTEN__)
  // The browser build has one thread, and counting a launch too large to
  // trace takes minutes on it: the desktop counts it.
  {
    std::lock_guard lock(mutex_);
    error_ = "not in the browser (no threads): `tilescope counters` on the desktop counts it";
  }
  return;
#endif
  running_ = true;
  worker_ = std::thread([this, params] {
    std::shared_ptr<const LaunchCounters> result;
    std::string error;
    try {
      gpu::DeviceStatus status;
      if (choose_gpu(params, status)) {
        result = std::make_shared<const LaunchCounters>(count_launch(params));  // the device counts; no blocks to follow
      } else {
        result = std::make_shared<const LaunchCounters>(count_launch(params, [this](std::uint32_t, const Trace&) {
          if (stop_) throw Stopped{};
          ++done_;
        }));
      }
    } catch (const Stopped&) {
      error = "stopped";
    } catch (const std::bad_alloc&) {
      error = "out of memory while counting";
    } catch (const std::exception& e) {
      error = e.what();
    }
    std::lock_guard lock(mutex_);
    result_ = std::move(result);
    error_ = std::move(error);
    running_ = false;
  });
}

std::shared_ptr<const LaunchCounters> CounterJob::result_for(const RecordParams& params) const {
  std::lock_guard lock(mutex_);
  if (!result_ || !same_recording(params_, params)) return nullptr;
  return result_;
}

std::string CounterJob::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

}  // namespace ts::ui
