// memory_widgets.h — what the memory panels share: work on a whole trace done
// off the UI thread, tables of counters side by side, and a heat ramp.
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render/renderer.h"

namespace ts::ui {

// A value computed on a worker thread from a trace (the whole-trace analysis
// of an N = 256 trace takes a few hundred milliseconds: longer than a frame).
// The job must keep what it reads alive (capture the trace's shared_ptr).
template <class T>
class BackgroundValue {
 public:
  // Starts computing for `key` unless that key is already computed or running.
  void request(std::uint64_t key, std::function<T()> job) {
    if (key == key_ && (value_ || pending_.valid())) return;
    key_ = key;
    value_.reset();
    error_.clear();
    pending_ = std::async(std::launch::async, std::move(job));
  }
  // The value, once ready; never blocks.
  const T* get() {
    if (pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      try {
        value_ = pending_.get();
      } catch (const std::exception& e) {
        error_ = e.what();
      }
    }
    return value_ ? &*value_ : nullptr;
  }
  bool running() const { return pending_.valid(); }
  const std::string& error() const { return error_; }  // why the last job failed

 private:
  std::uint64_t key_ = ~0ull;
  std::optional<T> value_;
  std::future<T> pending_;
  std::string error_;
};

// A table of counters: one row per key of the first column's object, one
// column per object (missing keys show "-"); `ratio_of` adds a last column
// with column[1] / column[0].
struct CounterColumn {
  std::string title;
  const nlohmann::json* values = nullptr;
};
void counter_table(const char* id, std::span<const CounterColumn> columns, bool ratio_of_two = false);

// A readable name for a counter key: "global_load_sectors" -> "global load sectors".
std::string counter_label(const std::string& key);

// Dark blue (low) to yellow (high), t in [0, 1].
render::Rgba8 heat_color(float t);

}  // namespace ts::ui
