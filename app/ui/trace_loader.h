// trace_loader.h — recording, opening and saving traces off the UI thread,
// so the window stays responsive while the emulator records N = 256 or a
// large file loads. One job runs at a time; a request made while one runs
// waits, and only the newest waiting request is kept.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/core/trace.h"
#include "app/core/trace_index.h"
#include "kernels/recorder.h"

namespace ts::ui {

// A trace with its index, built together and never changed afterwards.
struct LoadedTrace {
  Trace trace;
  std::unique_ptr<TraceIndex> index;  // refers to `trace`: a LoadedTrace never moves
  std::string origin;                 // "recorded live" or "opened t.tstrace"
  double record_ms = 0.0, index_ms = 0.0;

  // Records (or loads) and indexes; throws RecordError / TraceFileError.
  static std::shared_ptr<LoadedTrace> record(const RecordParams& params);
  static std::shared_ptr<LoadedTrace> open(const std::filesystem::path& path);
};

class TraceLoader {
 public:
  struct Result {
    std::shared_ptr<const LoadedTrace> trace;  // set by record and open
    std::string error;                         // set on failure
    std::string message;                       // what finished, for a notice
  };

  TraceLoader() = default;
  ~TraceLoader();
  TraceLoader(const TraceLoader&) = delete;
  TraceLoader& operator=(const TraceLoader&) = delete;

  void record(const RecordParams& params);
  void open(const std::filesystem::path& path);
  void save(std::shared_ptr<const LoadedTrace> trace, const std::filesystem::path& path);

  bool busy() const;
  std::string busy_what() const;
  double busy_seconds() const;
  // The finished job's result, without blocking; starts the waiting request.
  std::optional<Result> take();
  // Blocks until the running job finished (take() then returns it); false if idle.
  bool wait();

 private:
  struct Job {
    enum class Kind { Record, Open, Save } kind = Kind::Record;
    RecordParams params;
    std::filesystem::path path;
    std::shared_ptr<const LoadedTrace> trace;  // Save
    std::string what;                           // for the busy indicator
  };
  void submit(Job job);
  void start(Job job);  // mutex held
  static Result run(const Job& job);

  mutable std::mutex mutex_;
  std::thread worker_;
  bool running_ = false, finished_ = false;
  Job current_;
  std::optional<Job> waiting_;
  Result result_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace ts::ui
