// trace_loader.cpp — one worker thread per job; results handed back to the UI.
#include "app/ui/trace_loader.h"

#include <new>

#include "app/core/trace_file.h"

namespace ts::ui {
namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::shared_ptr<LoadedTrace> LoadedTrace::record(const RecordParams& params) {
  auto loaded = std::make_shared<LoadedTrace>();
  auto t0 = std::chrono::steady_clock::now();
  loaded->trace = ts::record(params);
  loaded->record_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  loaded->index = std::make_unique<TraceIndex>(loaded->trace);
  loaded->index_ms = ms_since(t0);
  loaded->origin = "recorded live";
  return loaded;
}

std::shared_ptr<LoadedTrace> LoadedTrace::open(const std::filesystem::path& path) {
  auto loaded = std::make_shared<LoadedTrace>();
  auto t0 = std::chrono::steady_clock::now();
  loaded->trace = load_trace(path);
  loaded->record_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  loaded->index = std::make_unique<TraceIndex>(loaded->trace);
  loaded->index_ms = ms_since(t0);
  loaded->origin = "opened " + path.filename().string();
  return loaded;
}

TraceLoader::~TraceLoader() {
  std::unique_lock lock(mutex_);
  waiting_.reset();
  lock.unlock();
  if (worker_.joinable()) worker_.join();
}

void TraceLoader::record(const RecordParams& params) {
  Job j;
  j.kind = Job::Kind::Record;
  j.params = params;
  j.what = "recording";
  submit(std::move(j));
}

void TraceLoader::open(const std::filesystem::path& path) {
  Job j;
  j.kind = Job::Kind::Open;
  j.path = path;
  j.what = "opening " + path.filename().string();
  submit(std::move(j));
}

void TraceLoader::save(std::shared_ptr<const LoadedTrace> trace, const std::filesystem::path& path) {
  Job j;
  j.kind = Job::Kind::Save;
  j.path = path;
  j.trace = std::move(trace);
  j.what = "saving " + path.filename().string();
  submit(std::move(j));
}

void TraceLoader::submit(Job job) {
  std::lock_guard lock(mutex_);
  if (running_) {
    waiting_ = std::move(job);  // a newer request replaces an older waiting one
    return;
  }
  start(std::move(job));
}

void TraceLoader::start(Job job) {
  if (worker_.joinable()) worker_.join();
  current_ = std::move(job);
  running_ = true;
  finished_ = false;
  started_ = std::chrono::steady_clock::now();
  worker_ = std::thread([this, job = current_] {
    Result r = run(job);
    std::lock_guard lock(mutex_);
    result_ = std::move(r);
    finished_ = true;
  });
}

TraceLoader::Result TraceLoader::run(const Job& job) {
  Result r;
  try {
    switch (job.kind) {
      case Job::Kind::Record: {
        auto t = LoadedTrace::record(job.params);
        char buf[96];
        std::snprintf(buf, sizeof buf, "recorded in %.0f ms, indexed in %.0f ms", t->record_ms, t->index_ms);
        r.message = buf;
        r.trace = std::move(t);
        break;
      }
      case Job::Kind::Open:
        r.trace = LoadedTrace::open(job.path);
        r.message = "opened " + job.path.string();
        break;
      case Job::Kind::Save:
        save_trace(job.trace->trace, job.path);
        r.message = "saved " + job.path.string();
        break;
    }
  } catch (const std::bad_alloc&) {
    r.error = job.what + ": out of memory";
  } catch (const std::exception& e) {
    r.error = job.what + " failed: " + e.what();
  }
  return r;
}

bool TraceLoader::busy() const {
  std::lock_guard lock(mutex_);
  return running_ || waiting_.has_value();
}

std::string TraceLoader::busy_what() const {
  std::lock_guard lock(mutex_);
  return running_ ? current_.what : std::string();
}

double TraceLoader::busy_seconds() const {
  std::lock_guard lock(mutex_);
  return running_ ? ms_since(started_) / 1000.0 : 0.0;
}

std::optional<TraceLoader::Result> TraceLoader::take() {
  std::lock_guard lock(mutex_);
  if (!running_ || !finished_) return std::nullopt;
  running_ = false;
  Result r = std::move(result_);
  result_ = {};
  const bool superseded = waiting_.has_value() && current_.kind != Job::Kind::Save && r.error.empty();
  if (waiting_) {
    Job next = std::move(*waiting_);
    waiting_.reset();
    start(std::move(next));
  }
  if (superseded) return std::nullopt;  // a newer request is on its way: skip this one
  return r;
}

bool TraceLoader::wait() {
  for (bool waited = false;; waited = true) {
    {
      std::lock_guard lock(mutex_);
      if (!running_ || finished_) return waited;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace ts::ui
