// app_state.cpp — trace installation, replay clamping, notices.
#include "app/ui/app_state.h"

#include <sstream>

#include <chrono>

#include "app/core/block_selection.h"
#include "app/core/display_text.h"
#include "kernels/catalog.h"

namespace ts::ui {
namespace {

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

AppState::AppState() : gpu_(gpu::probe()), start_time_(seconds_now()) {}
AppState::~AppState() = default;

double AppState::now() const { return seconds_now() - start_time_; }

void AppState::set_step(std::uint32_t step) { replay.step = std::min(step, timeline_.last_step()); }

void AppState::step_by(int delta) {
  const auto s = static_cast<std::int64_t>(replay.step) + delta;
  set_step(static_cast<std::uint32_t>(std::max<std::int64_t>(0, s)));
}

void AppState::toggle_playing() {
  if (!replay.playing && replay.step == timeline_.last_step()) set_step(0);
  replay.playing = !replay.playing;
}

void AppState::advance_playback(double seconds) {
  if (!replay.playing) {
    replay.play_accumulator = 0.0;
    return;
  }
  replay.play_accumulator += seconds * replay.steps_per_second;
  const auto steps = static_cast<std::uint32_t>(replay.play_accumulator);
  replay.play_accumulator -= steps;
  set_step(replay.step + steps);
  if (replay.step == timeline_.last_step()) replay.playing = false;
}

void AppState::select_cell(std::uint32_t row, std::uint32_t col) {
  if (!trace_) return;
  const LaunchInfo& L = trace_->trace.launch;
  if (row >= static_cast<std::uint32_t>(L.m) || col >= static_cast<std::uint32_t>(L.n)) return;
  selection.cell = ElementCoord{row, col};
  // A cell of a block the focused trace lacks: record that block, on the same inputs.
  const RecordParams p = trace_params();
  if (L.focused() && !L.block_traced(block_of(p, selection.cell))) loader_.record(p, focus_for(p, selection.cell));
}

std::uint32_t AppState::block_of(const RecordParams& p, std::optional<ElementCoord> cell) {
  // The catalog knows each kind's grid: 2D by block tile, naive-row's the other
  // way round, tf32-tensor-core's one-dimensional walk down groups of block rows.
  const ElementCoord c = cell.value_or(ElementCoord{0, 0});
  return block_of_cell(p.kernel, p.tile, p.m, p.n, c.row, c.col);
}

std::vector<std::uint32_t> AppState::focus_for(const RecordParams& p, std::optional<ElementCoord> cell) const {
  const std::uint32_t own = block_of(p, cell);
  if (!focus_sharing) return {own};
  return blocks_sharing_tiles_of(p.kernel, p.tile, p.m, p.n, own);  // ascending, its own among them
}

RecordParams AppState::trace_params() const {
  RecordParams p = params;
  if (!trace_) return p;
  const LaunchInfo& L = trace_->trace.launch;
  if (const auto kind = find_kernel(L.kernel)) p.kernel = *kind;
  p.tile = L.tile;
  p.m = L.m;
  p.n = L.n;
  p.k = L.k;
  p.seed = L.seed;
  return p;
}

const std::optional<CellHighlight>& AppState::highlight() {
  const bool fresh = highlight_key_.generation == generation_ && highlight_key_.step == replay.step &&
                     highlight_key_.cell == selection.cell;
  if (fresh) return highlight_;
  highlight_key_ = {generation_, replay.step, selection.cell};
  ++highlight_generation_;
  highlight_.reset();
  if (trace_ && selection.cell)
    highlight_ = highlight_cell(trace_->trace, *trace_->index, selection.cell->row, selection.cell->col, step());
  return highlight_;
}

std::uint64_t AppState::highlight_generation() {
  highlight();
  return highlight_generation_;
}

// A user's kernel is always recorded whole (its event count is known only
// after the counting pass, which refuses a launch past the limit).
bool AppState::whole_launch(const RecordParams& p) { return p.user || fits_full_trace(p); }

void AppState::record() {
  RecordParams p = params;
  if (p.seed == 0 && trace_) p.seed = trace_->trace.launch.seed;
  loader_.record(p, whole_launch(p) ? std::vector<std::uint32_t>{} : focus_for(p, selection.cell));
}

void AppState::record_new_inputs() {
  RecordParams p = params;
  p.seed = 0;
  loader_.record(p, whole_launch(p) ? std::vector<std::uint32_t>{} : focus_for(p, selection.cell));
}

bool AppState::wait_for_loader() {
  bool installed = false;
  while (loader_.busy()) {
    loader_.wait();
    installed |= poll_loader();
  }
  return installed;
}

std::vector<std::string> field_words(const char* text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<std::string> tracer_form_arguments(const TracerForm& f, int m, int n, int k) {
  std::vector<std::string> v = {"--m", std::to_string(m), "--n", std::to_string(n), "--k", std::to_string(k)};
  if (f.layout != 0) v.insert(v.end(), {"--layout", f.layout == 1 ? "row" : "col"});
  switch (f.source) {
    case 0:
      v.insert(v.end(), {"--cuda-file", f.file, "--entry", f.entry, "--grid", f.grid, "--block", f.block,
                         "--dynamic-shared", f.dynamic_shared});
      for (const std::string& d : field_words(f.defines)) v.insert(v.end(), {"-D", d});
      for (const std::string& a : field_words(f.args)) v.insert(v.end(), {"--arg", a});
      break;
    case 1: v.insert(v.end(), {"--library", "cublas", "--math", f.math ? "tf32" : "fp32"}); break;
    default: {
      v.insert(v.end(), {"--exec", "--launch", std::to_string(f.launch)});
      if (*f.kernel_name) v.insert(v.end(), {"--kernel-name", f.kernel_name});
      v.push_back("--");
      for (const std::string& w : field_words(f.command)) v.push_back(w);
    }
  }
  return v;
}

void AppState::open_kernel(UserKernelSpec spec) {
  params.user = std::move(spec);
  record();
}

void AppState::watch_kernel_file() {
  if (!params.user || now() - kernel_checked_at_ < 0.5) return;
  kernel_checked_at_ = now();
  const std::int64_t stamp = kernel_file_stamp(params.user->file);
  if (stamp == 0 || stamp == params.user->file_stamp) return;
  params.user->file_stamp = stamp;
  notify(NoticeLevel::Info, params.user->file + " changed: compiling and recording it again");
  record();
}

void AppState::open_trace(const std::filesystem::path& path) { loader_.open(path); }

void AppState::save_trace(const std::filesystem::path& path) {
  if (!trace_) {
    notify(NoticeLevel::Warning, "nothing to save yet: no trace is loaded");
    return;
  }
  loader_.save(trace_, path);
}

void AppState::notify(NoticeLevel level, std::string text) {
  // A notice may quote a file (its path, an error naming its contents): one
  // line of printable text, elided, whatever the file holds.
  notices_.push_back({level, elided(escape_control(text), kShownNotice), now()});
  if (notices_.size() > 50) notices_.erase(notices_.begin());
}

bool AppState::poll_loader() {
  std::optional<TraceLoader::Result> r = loader_.take();
  if (!r) return false;
  if (!r->error.empty()) {
    notify(NoticeLevel::Error, r->error + (trace_ ? " (still showing the previous trace)" : ""));
    return false;
  }
  if (!r->trace) {
    notify(NoticeLevel::Info, r->message);
    return false;
  }
  install(std::move(r->trace));
  notify(NoticeLevel::Info, launch_title(trace_->trace.launch) + ": " + r->message + ", " +
                                recorded_by(trace_->trace.launch));
  if (const emu::CheckReport& found = trace_->checks; !found.clean()) {
    std::string text = "check: " + emu::report_summary(found, 1);
    text = text.substr(0, text.find(" (at most"));  // the panel shows one: the first
    if (!found.findings.empty()) text += "; the first: " + found.findings.front().text;
    notify(NoticeLevel::Warning, text);
  }
  if (!trace_->wrong_result.empty())
    notify(NoticeLevel::Error, trace_->trace.launch.kernel + " computed a wrong C: " + trace_->wrong_result);
  if (const auto& t = trace_->trace.launch.tracer)  // what the tracer could not see, where the trace is shown
    for (const std::string& limit : t->limits) notify(NoticeLevel::Warning, "traced: " + limit);
  return true;
}

void AppState::install(std::shared_ptr<const LoadedTrace> trace) {
  const ReplayStep old_step = step();
  const bool first = trace_ == nullptr;
  trace_ = std::move(trace);
  ++generation_;
  timeline_ = ReplayTimeline(trace_->trace.launch);
  // Keep the place in the replay and the selected cell where they still exist.
  replay.step = first ? 0 : timeline_.step_of(old_step);
  if (selection.cell) {
    const LaunchInfo& L = trace_->trace.launch;
    if (selection.cell->row >= static_cast<std::uint32_t>(L.m) || selection.cell->col >= static_cast<std::uint32_t>(L.n))
      selection.cell.reset();
  }
  // The new trace's own parameters become the controls' (opening a file too).
  const LaunchInfo& L = trace_->trace.launch;
  if (const auto& u = L.user_kernel) {  // a user kernel: watch its file, and record it again as it was
    params.user = UserKernelSpec{u->file, u->entry, L.block, static_cast<int>(u->tile_rows),
                                 static_cast<int>(u->tile_cols), u->defines, kernel_file_stamp(u->file), u->args};
  } else {
    params.user.reset();
    if (const auto kind = find_kernel(L.kernel)) {  // a traced kernel of any name leaves the controls as they were
      params.kernel = *kind;
      params.tile = L.tile;
    }
  }
  params.m = L.m;
  params.n = L.n;
  params.k = L.k;
}

}  // namespace ts::ui
