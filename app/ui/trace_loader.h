// trace_loader.h — recording, opening and saving traces off the UI thread,
// so the window stays responsive while the emulator records N = 256 or a
// large file loads. One job runs at a time; a request made while one runs
// waits, and only the newest waiting request is kept.
//
// Recent recordings stay in memory (a few, up to a memory cap), keyed by what
// was recorded including the seed of the inputs, and after a recording at
// TILE 16 or 32 the other of the two is recorded in the background while the
// app is idle: the TILE 16 <-> 32 toggle, the comparison everyone makes, then
// shows the new trace on the next frame.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/core/analysis/line_stats.h"
#include "app/core/child_process.h"
#include "trace/trace.h"
#include "app/core/trace_index.h"
#include "kernels/emu/sanitizer.h"
#include "kernels/recorder.h"

namespace ts::ui {

// The same launch on the same inputs (the seed included).
bool same_recording(const RecordParams& a, const RecordParams& b);

// Whether a full trace of params is within the recording limit (past it,
// the app shows focused traces and counts the rest of the launch).
bool fits_full_trace(const RecordParams& params);

// A trace with its index, built together and never changed afterwards.
struct LoadedTrace {
  Trace trace;
  std::unique_ptr<TraceIndex> index;  // refers to `trace`: a LoadedTrace never moves
  std::string origin;                 // "recorded live" or "opened t.tstrace"
  double record_ms = 0.0, index_ms = 0.0;
  std::string wrong_result;           // a user kernel's C against A x B (reference.h); empty: right
  emu::CheckReport checks;            // what the emulator's checks found (a user kernel's run with them)
  // The source panel's figures per line (stats --by-line), or why there are none.
  std::vector<LineStats> line_stats;
  std::string line_stats_note;

  std::uint64_t memory_bytes() const { return trace.memory_bytes() + (index ? index->memory_bytes() : 0); }

  // Records (or loads) and indexes; throws RecordError / TraceFileError.
  // With focus blocks (linear ids, ascending), or when a full trace of params
  // is beyond the recording limit (then block 0), a focused trace: every
  // event of those blocks only (kernels/focused.h); the rest of the launch
  // is not traced. A user kernel runs with the emulator's checks
  // (continue) unless params says otherwise or it is to run on the GPU.
  static std::shared_ptr<LoadedTrace> record(const RecordParams& params, std::vector<std::uint32_t> focus = {});
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

  // With a non-zero seed, a recording still in memory is reused at once
  // (focused recordings are not kept: each asks for other blocks).
  void record(const RecordParams& params, std::vector<std::uint32_t> focus = {});
  void open(const std::filesystem::path& path);
  // Runs `tilescope record ARGS -o TEMP` (this executable, in its own process:
  // the tracer needs one) and opens what it wrote; its failure's last line
  // (what record said) is the job's error.
  void record_command(std::vector<std::string> args);
  // The tilescope executable record_command runs (default: this process's own).
  void set_executable(std::string path) { executable_ = std::move(path); }
  void save(std::shared_ptr<const LoadedTrace> trace, const std::filesystem::path& path);

  // A job the user asked for is running or waiting (background prefetches do not count).
  bool busy() const;
  // A job is still running and the user waits for it (or for the job queued behind it).
  bool working_for_user() const;
  std::string busy_what() const;
  double busy_seconds() const;
  // The finished job's result, without blocking; starts the waiting request.
  std::optional<Result> take();
  // Blocks until take() has something for the user's job; false if idle.
  bool wait();

  // Background prefetching of the other TILE (on by default; tests turn it off).
  void set_prefetch(bool on);
  // Called on the worker thread whenever a job finishes (the app wakes its loop).
  void set_on_finished(std::function<void()> on_finished);
  // A recording of exactly these parameters (seed included) is in memory.
  bool in_memory(const RecordParams& params) const;

 private:
  struct Job {
    enum class Kind { Record, Open, Save, Command } kind = Kind::Record;
    std::vector<std::string> command;  // Command: the executable, then record's arguments
    RecordParams params;
    std::vector<std::uint32_t> focus;  // Record: a focused trace of these blocks
    std::filesystem::path path;
    std::shared_ptr<const LoadedTrace> trace;  // Save
    std::string what;                           // for the busy indicator
    bool deliver = true;                        // false: a prefetch, or superseded
  };
  void submit(Job job);  // mutex held
  void start(Job job);   // mutex held
  void maybe_prefetch(const LoadedTrace& done);  // mutex held
  std::shared_ptr<const LoadedTrace> cached(const RecordParams& params) const;  // mutex held
  void remember(const RecordParams& params, std::shared_ptr<const LoadedTrace> trace);  // mutex held
  static Result run(const Job& job);
  void run_here(bool now);  // mutex held; the browser build's jobs run on the UI thread (trace_loader.cpp)

  mutable std::mutex mutex_;
  std::thread worker_;
  bool running_ = false, finished_ = false;
  Job current_;
  std::optional<Job> waiting_;
  Result result_;
  std::optional<Result> ready_;  // answered from memory, no job needed
  std::chrono::steady_clock::time_point started_;
  std::deque<std::pair<RecordParams, std::shared_ptr<const LoadedTrace>>> cache_;  // newest last
#if defined(__EMSCRIPTEN__)
  bool prefetch_ = false;  // a job blocks the page's only thread: no work nobody asked for
#else
  bool prefetch_ = true;
#endif
  std::string executable_ = this_executable();
  std::function<void()> on_finished_;
  int frames_before_run_ = 0;  // the browser build: frames drawn before the job runs
};

}  // namespace ts::ui
