// trace_loader.cpp — one worker thread per job; results handed back to the UI.
#include "app/ui/trace_loader.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <new>

#include "trace/model/reference.h"
#include "app/core/child_process.h"
#include "app/core/trace_file.h"
#include "kernels/catalog.h"
#include "kernels/focused.h"
#include "kernels/user/user_args.h"

namespace ts::ui {
namespace {

constexpr std::size_t kCacheEntries = 6;
constexpr std::uint64_t kCacheBytes = 1ull << 30;
// Prefetch only what records in well under a second on the emulator (N = 64
// is ~0.6 million events), so a request never waits long behind one.
constexpr std::uint64_t kPrefetchEvents = 4'000'000;

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The figures per source line, computed with the index, off the UI thread (a
// trace without lines re-runs its launch on the emulator), for traces that
// take a second or two at most (N = 128 is ~4 million events).
void attach_line_stats(LoadedTrace& loaded) {
  constexpr std::uint64_t kMaxEvents = std::uint64_t{1} << 23;
  const Trace& t = loaded.trace;
  if (t.events.size() > kMaxEvents) {
    loaded.line_stats_note = "figures per line are computed for traces of up to 8 million events "
                             "(tilescope stats --by-line computes them for any)";
    return;
  }
  try {
    const std::vector<std::uint16_t> lines = source_lines(t, loaded.line_stats_note);
    if (!lines.empty()) loaded.line_stats = analyze_lines(t, lines);
  } catch (const std::exception& e) {  // the emulator's re-run refused: the trace itself still shows
    loaded.line_stats_note = std::string("no figures per line: ") + e.what();
  }
}

// `TILESCOPE record ARGS -o TEMP` in a process of its own, then the file it wrote
// (command: the executable, then ARGS).
TraceLoader::Result run_record_command(const std::vector<std::string>& command) {
  namespace fs = std::filesystem;
  TraceLoader::Result r;
  static std::atomic<unsigned> count{0};
  const fs::path base = fs::temp_directory_path() / ("tilescope-app-" + std::to_string(getpid()) + "-" +
                                                     std::to_string(count++));
  const fs::path out = base.string() + ".tstrace", log = base.string() + ".log";
  const std::vector<std::string> args(command.begin() + 1, command.end());
  std::vector<std::string> argv = {command.front(), "record"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"-o", out.string()});
  std::string error;
  const auto child = run_child(argv, {}, 0, error, log.string());
  std::string said;  // record's own message: its last "tilescope: " line
  {
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);)
      if (line.starts_with("tilescope: ")) said = line.substr(11);
  }
  std::error_code ec;
  fs::remove(log, ec);
  std::string shown = "record";
  for (const std::string& a : args) shown += " " + a;
  if (!child) {
    r.error = error;
  } else if (child->status != 0 || !fs::exists(out, ec)) {
    r.error = "tilescope " + shown + " " + describe_exit(*child) + (said.empty() ? "" : ": " + said);
  }
  const bool wrong_c = child && WIFEXITED(child->status) && WEXITSTATUS(child->status) == 6;  // the trace shows how
  if (fs::exists(out, ec) && (r.error.empty() || wrong_c)) {
    r.trace = LoadedTrace::open(out);
    r.message = "traced: tilescope " + shown + (wrong_c ? "; " + said : std::string());
    r.error.clear();
  }
  fs::remove(out, ec);
  return r;
}

}  // namespace

bool same_recording(const RecordParams& a, const RecordParams& b) {
  return a.kernel == b.kernel && a.tile == b.tile && a.m == b.m && a.n == b.n && a.k == b.k && a.device == b.device &&
         a.inputs == b.inputs && a.seed == b.seed && a.user == b.user;
}

bool fits_full_trace(const RecordParams& params) {
  try {
    validate(params);
  } catch (const RecordError& e) {
    if (e.kind() == RecordError::Kind::TooLarge) return false;
  }
  return true;  // any other refusal is the recording's to report
}

std::shared_ptr<LoadedTrace> LoadedTrace::record(const RecordParams& params, std::vector<std::uint32_t> focus) {
  if (focus.empty() && !params.user && !fits_full_trace(params)) focus = {0};
  auto loaded = std::make_shared<LoadedTrace>();
  RecordParams p = params;
  if (p.user && !p.check.enabled() && p.device != DeviceChoice::Gpu) p.check.mode = emu::CheckMode::Continue;
  auto t0 = std::chrono::steady_clock::now();
  loaded->trace = focus.empty() ? ts::record(p, &loaded->checks) : record_focused(params, focus);
  loaded->record_ms = ms_since(t0);
  const Trace& t = loaded->trace;
  if (params.user)  // alpha A x B with a parameter named alpha bound (kernels/user/user_args.h)
    loaded->wrong_result =
        check_matmul(t.a, t.b, t.c, t.launch.m, t.launch.n, t.launch.k, result_scale(params.user->args));
  t0 = std::chrono::steady_clock::now();
  loaded->index = std::make_unique<TraceIndex>(loaded->trace);
  loaded->index_ms = ms_since(t0);
  if (focus.empty()) attach_line_stats(*loaded);
  loaded->origin = focus.empty() ? "recorded live" : "focused: " + std::to_string(focus.size()) + " block(s) recorded live";
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
  attach_line_stats(*loaded);
  loaded->origin = "opened " + path.filename().string();
  return loaded;
}

TraceLoader::~TraceLoader() {
  std::unique_lock lock(mutex_);
  waiting_.reset();
  lock.unlock();
  if (worker_.joinable()) worker_.join();
}

void TraceLoader::set_on_finished(std::function<void()> on_finished) {
  std::lock_guard lock(mutex_);
  on_finished_ = std::move(on_finished);
}

void TraceLoader::set_prefetch(bool on) {
  std::lock_guard lock(mutex_);
  prefetch_ = on;
}

void TraceLoader::record(const RecordParams& params, std::vector<std::uint32_t> focus) {
  std::lock_guard lock(mutex_);
  if (params.seed != 0 && focus.empty()) {
    if (auto hit = cached(params)) {
      if (running_) current_.deliver = false;  // an older request: its result would arrive after this one
      waiting_.reset();
      ready_ = Result{hit, "", "shown from memory (recorded earlier)"};
      return;
    }
    if (running_ && !current_.deliver && current_.kind == Job::Kind::Record && current_.focus.empty() && same_recording(current_.params, params)) {
      current_.deliver = true;  // the prefetch running now is exactly this: wait for it
      current_.what = "recording";
      waiting_.reset();
      return;
    }
  }
  Job j;
  j.kind = Job::Kind::Record;
  j.params = params;
  j.what = focus.empty() ? "recording" : "recording " + std::to_string(focus.size()) + " block(s)";
  j.focus = std::move(focus);
  submit(std::move(j));
}

void TraceLoader::open(const std::filesystem::path& path) {
  std::lock_guard lock(mutex_);
  Job j;
  j.kind = Job::Kind::Open;
  j.path = path;
  j.what = "opening " + path.filename().string();
  submit(std::move(j));
}

void TraceLoader::record_command(std::vector<std::string> args) {
  std::lock_guard lock(mutex_);
  Job j;
  j.kind = Job::Kind::Command;
  j.command = {executable_};
  j.command.insert(j.command.end(), args.begin(), args.end());
  j.what = "tracing";
  submit(std::move(j));
}

void TraceLoader::save(std::shared_ptr<const LoadedTrace> trace, const std::filesystem::path& path) {
  std::lock_guard lock(mutex_);
  Job j;
  j.kind = Job::Kind::Save;
  j.path = path;
  j.trace = std::move(trace);
  j.what = "saving " + path.filename().string();
  submit(std::move(j));
}

void TraceLoader::submit(Job job) {
  ready_.reset();  // a newer request replaces an answer not yet taken
  if (running_) {
    if (current_.kind != Job::Kind::Save) current_.deliver = false;  // superseded
    waiting_ = std::move(job);  // a newer request replaces an older waiting one
    return;
  }
  start(std::move(job));
}

void TraceLoader::start(Job job) {
  if (worker_.joinable()) worker_.join();  // finished: running_ was false
  current_ = std::move(job);
  running_ = true;
  finished_ = false;
  started_ = std::chrono::steady_clock::now();
#if defined(__EMSCRIPTEN__)
  // The browser build has no threads (they would need cross-origin isolation
  // headers that a plain static server does not send): the job runs at the
  // second take() from now (or at wait()), so that a frame saying what runs
  // is drawn first.
  frames_before_run_ = 1;
  return;
#endif
  worker_ = std::thread([this, job = current_, on_finished = on_finished_] {
    Result r = run(job);
    {
      std::lock_guard lock(mutex_);
      result_ = std::move(r);
      finished_ = true;
    }
    if (on_finished) on_finished();
  });
}

TraceLoader::Result TraceLoader::run(const Job& job) {
  Result r;
  try {
    switch (job.kind) {
      case Job::Kind::Record: {
        auto t = LoadedTrace::record(job.params, job.focus);
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
      case Job::Kind::Command:
        r = run_record_command(job.command);
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

bool TraceLoader::in_memory(const RecordParams& params) const {
  std::lock_guard lock(mutex_);
  return cached(params) != nullptr;
}

std::shared_ptr<const LoadedTrace> TraceLoader::cached(const RecordParams& params) const {
  for (const auto& [key, trace] : cache_)
    if (same_recording(key, params)) return trace;
  return nullptr;
}

void TraceLoader::remember(const RecordParams& params, std::shared_ptr<const LoadedTrace> trace) {
  RecordParams key = params;
  key.seed = trace->trace.launch.seed;  // a fresh seed becomes the one that was used
  std::erase_if(cache_, [&](const auto& e) { return same_recording(e.first, key); });
  cache_.emplace_back(key, std::move(trace));
  auto total = [&] {
    std::uint64_t bytes = 0;
    for (const auto& e : cache_) bytes += e.second->memory_bytes();
    return bytes;
  };
  while (cache_.size() > 1 && (cache_.size() > kCacheEntries || total() > kCacheBytes)) cache_.pop_front();
}

void TraceLoader::maybe_prefetch(const LoadedTrace& done) {
  const LaunchInfo& L = done.trace.launch;
  if (!prefetch_ || (L.tile != 16 && L.tile != 32)) return;
  RecordParams p = current_.params;
  p.seed = L.seed;
  p.tile = L.tile == 16 ? 32 : 16;
  if (cached(p) || expected_counts(p.kernel, p.tile, p.m, p.n, p.k).total() > kPrefetchEvents) return;
  Job j;
  j.kind = Job::Kind::Record;
  j.params = p;
  j.what = "recording TILE " + std::to_string(p.tile) + " ahead";
  j.deliver = false;
  start(std::move(j));
}

bool TraceLoader::busy() const {
  std::lock_guard lock(mutex_);
  return ready_.has_value() || (running_ && current_.deliver) || waiting_.has_value();
}

bool TraceLoader::working_for_user() const {
  std::lock_guard lock(mutex_);
  return running_ && !finished_ && (current_.deliver || waiting_.has_value());
}

std::string TraceLoader::busy_what() const {
  std::lock_guard lock(mutex_);
  return running_ && current_.deliver ? current_.what : waiting_ ? waiting_->what : std::string();
}

double TraceLoader::busy_seconds() const {
  std::lock_guard lock(mutex_);
  return running_ ? ms_since(started_) / 1000.0 : 0.0;
}

void TraceLoader::run_here(bool now) {
#if defined(__EMSCRIPTEN__)
  if (!running_ || finished_) return;
  if (!now && frames_before_run_ > 0) {
    --frames_before_run_;
    return;
  }
  result_ = run(current_);
  finished_ = true;
#else
  (void)now;
#endif
}

std::optional<TraceLoader::Result> TraceLoader::take() {
  std::lock_guard lock(mutex_);
  run_here(/*now=*/false);
  if (ready_) {
    Result r = std::move(*ready_);
    ready_.reset();
    return r;
  }
  if (!running_ || !finished_) return std::nullopt;
  running_ = false;
  Result r = std::move(result_);
  result_ = {};
  const Job done = current_;
  if (r.trace && done.kind == Job::Kind::Record && !r.trace->trace.launch.focused()) remember(done.params, r.trace);
  if (waiting_) {
    Job next = std::move(*waiting_);
    waiting_.reset();
    // The waiting request may be what just finished (a prefetch, or a repeat).
    if (next.kind == Job::Kind::Record && next.params.seed != 0) {
      if (auto hit = cached(next.params)) return Result{hit, "", "shown from memory (recorded earlier)"};
    }
    start(std::move(next));
  } else if (r.trace && done.kind == Job::Kind::Record && done.deliver && !r.trace->trace.launch.focused()) {
    maybe_prefetch(*r.trace);
  }
  if (!done.deliver) return std::nullopt;
  return r;
}

bool TraceLoader::wait() {
  for (bool waited = false;; waited = true) {
    {
      std::lock_guard lock(mutex_);
      run_here(/*now=*/true);
      if (ready_ || (running_ && finished_)) return true;
      if (!running_ && !waiting_) return waited;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace ts::ui
