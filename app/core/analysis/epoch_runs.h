// epoch_runs.h — walk a group of threads (a warp, a block) one barrier epoch
// at a time: each step gives every thread's run of events in the lowest epoch
// that any of them is at. A well-formed trace never goes back an epoch; a
// damaged one still ends, since each step consumes at least one event.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "trace/trace.h"

namespace ts {

class EpochRuns {
 public:
  void reset(const Trace& trace, std::uint64_t first_thread, std::uint32_t threads) {
    events_ = trace.events.data();
    begin_.resize(threads);
    end_.resize(threads);
    stop_.resize(threads);
    for (std::uint32_t i = 0; i < threads; ++i) {
      end_[i] = trace.thread_offsets[first_thread + i];
      stop_[i] = trace.thread_offsets[first_thread + i + 1];
    }
  }

  // Moves to the next epoch; false once every thread is done.
  bool next() {
    const std::size_t n = begin_.size();
    epoch_ = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t i = 0; i < n; ++i) {
      begin_[i] = end_[i];
      if (begin_[i] < stop_[i]) epoch_ = std::min<std::uint32_t>(epoch_, events_[begin_[i]].epoch);
    }
    if (epoch_ == std::numeric_limits<std::uint32_t>::max()) return false;
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t q = begin_[i];
      while (q < stop_[i] && events_[q].epoch == epoch_) ++q;
      end_[i] = q;
    }
    return true;
  }

  std::uint32_t epoch() const { return epoch_; }
  // Thread i's events in this epoch: [begin(i), end(i)) of Trace::events.
  std::uint64_t begin(std::uint32_t i) const { return begin_[i]; }
  std::uint64_t end(std::uint32_t i) const { return end_[i]; }
  // Events of all threads in this epoch.
  std::uint64_t total() const {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < begin_.size(); ++i) n += end_[i] - begin_[i];
    return n;
  }

 private:
  const Event* events_ = nullptr;
  std::vector<std::uint64_t> begin_, end_, stop_;
  std::uint32_t epoch_ = 0;
};

}  // namespace ts
