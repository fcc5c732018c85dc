// large_frame_bench.cpp — how fast the app draws a launch too large to trace
// whole (issue 10): N = 4096, or any M, N, K, as the app shows it, a focused
// trace of one block with the rest of the launch counted, not traced.
//
//   xvfb-run -a -s "-screen 0 1920x1080x24" large_frame_bench [--m M --n N --k K] [--frames F] [--json FILE]
//
// Runs the real app (every panel, vsync off) in a 1600 x 1000 window with the
// block of cell (2M/5, N/7) traced and that cell selected, and times frames
//   - still, the whole launch fitted (cells a tenth of a pixel);
//   - zooming: from the fitted view to 40 pixels per cell and back, around
//     the selected cell, a new zoom every frame (every level of detail);
//   - panning at 0.5 pixels per cell, a new centre every frame;
//   - stepping the replay every frame, fitted;
//   - stepping the replay every frame at 0.5 pixels per cell, where panning
//     ended (what "stepping" measured before it was fitted, see the doc).
// Target: 60 frames a second (16.7 ms) at 1600 x 1000 on Mesa's llvmpipe.
// Each scene also reports the main thread's CPU time, the time the process's
// threads spent ready but waiting for a CPU (the kernel's schedstat), the
// share of the machine's CPU other processes used, and every frame over
// 16.7 ms with those figures: a slow frame that waited is the machine's, not
// the app's.
// Also reports the process's peak memory: nothing in this path grows with
// N^3 (the inputs, C, one offset per thread, one block's events, colours).
#include <dirent.h>
#include <glad/gl.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/ui/app.h"
#include "app/ui/app_state.h"
#include "kernels/focused.h"

namespace {

using Clock = std::chrono::steady_clock;

// CPU time of the process (all its threads) or of the calling thread.
double cpu_ms(clockid_t clock = CLOCK_PROCESS_CPUTIME_ID) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one;
  in >> one;
  return one.empty() ? "?" : one;
}

// Time this process's threads have spent runnable but not running (waiting
// for a CPU), summed over its threads: /proc/self/task/*/schedstat's second field.
double run_queue_wait_ms() {
  double ns = 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (const dirent* e = readdir(d)) {
      if (e->d_name[0] == '.') continue;
      std::ifstream in(std::string("/proc/self/task/") + e->d_name + "/schedstat");
      double run = 0, wait = 0;
      if (in >> run >> wait) ns += wait;
    }
    closedir(d);
  }
  return ns / 1e6;
}

// The machine's busy and total CPU ticks, and this process's (from /proc/stat, /proc/self/stat).
struct Ticks {
  double busy = 0, total = 0, own = 0;
  static Ticks now() {
    Ticks t;
    std::ifstream stat("/proc/stat");
    std::string cpu;
    double v[8] = {};
    stat >> cpu;
    for (double& x : v) stat >> x;
    for (double x : v) t.total += x;
    t.busy = t.total - v[3] - v[4];  // less idle and iowait
    std::ifstream self("/proc/self/stat");
    std::string line;
    std::getline(self, line);
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::string field;
    for (int i = 3; i <= 15 && rest >> field; ++i)
      if (i == 14 || i == 15) t.own += std::atof(field.c_str());  // utime, stime
    return t;
  }
};

std::uint64_t peak_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::uint64_t>(u.ru_maxrss) * 1024;
}

struct Frame {
  double ms = 0, cpu_ms = 0, main_cpu_ms = 0, wait_ms = 0;
  int index = 0;     // in its scene
  std::string step;  // the replay step it showed, e.g. "42: multiply-accumulate, iteration 2"
};

struct Stage {
  std::string name;
  std::vector<double> ms;
  double cpu_ms = 0;
  std::vector<Frame> frames;
  double other_cpu_share = 0;  // of the machine's CPU time, used by other processes during the scene
};

constexpr double kFrameBudgetMs = 1000.0 / 60.0;

nlohmann::json summary(const Stage& s) {
  std::vector<double> v = s.ms;
  std::sort(v.begin(), v.end());
  double mean = 0;
  for (double x : v) mean += x;
  mean /= std::max<std::size_t>(1, v.size());
  const auto pick = [&](std::size_t i) { return v.empty() ? 0.0 : v[std::min(i, v.size() - 1)]; };
  double main_cpu = 0, wait = 0;
  nlohmann::json slow = nlohmann::json::array();
  for (const Frame& f : s.frames) {
    main_cpu += f.main_cpu_ms;
    wait += f.wait_ms;
    if (f.ms > kFrameBudgetMs)
      slow.push_back({{"ms", f.ms}, {"cpu_ms_all_threads", f.cpu_ms}, {"main_thread_cpu_ms", f.main_cpu_ms},
                      {"run_queue_wait_ms", f.wait_ms}, {"frame", f.index}, {"step", f.step}});
  }
  const double n = static_cast<double>(std::max<std::size_t>(1, s.frames.size()));
  return {{"mean_ms", mean},
          {"median_ms", pick(v.size() / 2)},
          {"p95_ms", pick(v.size() * 95 / 100)},
          {"max_ms", v.empty() ? 0.0 : v.back()},
          {"frames", v.size()},
          {"cpu_ms_per_frame_all_threads", s.cpu_ms / std::max<std::size_t>(1, v.size())},
          {"main_thread_cpu_ms_per_frame", main_cpu / n},
          {"run_queue_wait_ms_per_frame", wait / n},
          {"other_processes_cpu_share", s.other_cpu_share},
          {"frames_over_16_7_ms", slow}};
}

struct Bench {
  int frames = 120;
  ts::RecordParams params;
  std::shared_ptr<ts::ui::LoadedTrace> trace;
  ts::ElementCoord cell{};
  std::vector<Stage> stages = [] {
    std::vector<Stage> v;
    for (const char* name : {"still", "zooming", "panning", "stepping", "stepping_half_px"}) v.push_back(Stage{name, {}, 0, {}, 0});
    return v;
  }();
  std::size_t stage = 0;
  int frame_in_stage = -30;  // warm-up frames first
  bool installed = false;
  double stage_cpu_start = 0;
  Ticks stage_ticks;
  Clock::time_point last = Clock::now();
  double last_cpu = 0, last_main_cpu = 0, last_wait = 0;
  std::string renderer, load_before;

  // Pixels per cell when the launch is fitted: what the app chose.
  float fitted = 0;

  bool after_frame(ts::ui::AppState& app) {
    const Clock::time_point now = Clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
    const double cpu = cpu_ms(), main_cpu = cpu_ms(CLOCK_THREAD_CPUTIME_ID), wait = run_queue_wait_ms();
    Frame f{ms, cpu - last_cpu, main_cpu - last_main_cpu, wait - last_wait, frame_in_stage, {}};
    last_cpu = cpu;
    last_main_cpu = main_cpu;
    last_wait = wait;
    if (renderer.empty()) renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    if (!installed) {
      if (!app.trace() || app.busy()) return true;
      app.install(trace);
      ++app.view.fit_requests;
      app.select_cell(cell.row, cell.col);
      app.set_step(0);
      installed = true;
      return true;
    }
    if (fitted == 0) fitted = app.on_screen.c.cell;
    if (frame_in_stage < 0) {  // settling: the first frames upload the textures
      if (++frame_in_stage == 0) {
        load_before = load_average();
        stage_cpu_start = cpu_ms();
        stage_ticks = Ticks::now();
      }
      prepare(app, 0);
      return true;
    }
    Stage& s = stages[stage];
    s.ms.push_back(ms);
    const ts::ReplayStep shown = app.step();
    f.step = std::to_string(app.replay.step) + ": " + ts::phase_name(shown.phase) + ", iteration " + std::to_string(shown.iteration);
    s.frames.push_back(f);
    ++frame_in_stage;
    if (frame_in_stage >= frames) {
      s.cpu_ms = cpu_ms() - stage_cpu_start;
      stage_cpu_start = cpu_ms();
      const Ticks t = Ticks::now();
      if (t.total > stage_ticks.total)
        s.other_cpu_share = std::max(0.0, (t.busy - stage_ticks.busy) - (t.own - stage_ticks.own)) / (t.total - stage_ticks.total);
      stage_ticks = t;
      frame_in_stage = 0;
      if (++stage == stages.size()) return false;
    }
    prepare(app, frame_in_stage);
    return true;
  }

  // What the next frame shows.
  void prepare(ts::ui::AppState& app, int i) {
    app.view.camera_request.reset();
    const float t = static_cast<float>(i) / static_cast<float>(std::max(1, frames - 1));
    switch (stage) {
      case 1: {  // fitted -> 40 px per cell -> fitted, geometric
        const float u = t < 0.5f ? 2 * t : 2 - 2 * t;
        ts::ui::ViewOptions::Camera c;
        c.pixels_per_cell = fitted * std::pow(40.0f / fitted, u);
        c.center_row = static_cast<float>(cell.row) + 0.5f;
        c.center_col = static_cast<float>(cell.col) + 0.5f;
        app.view.camera_request = c;
        break;
      }
      case 2: {  // across C at half a pixel per cell
        ts::ui::ViewOptions::Camera c;
        c.pixels_per_cell = 0.5f;
        c.center_row = static_cast<float>(params.m) * (0.25f + 0.5f * t);
        c.center_col = static_cast<float>(params.n) * (0.75f - 0.5f * t);
        app.view.camera_request = c;
        break;
      }
      case 3:  // fitted, as still (panning left the camera at 0.5 px per cell)
      case 4:  // at 0.5 px per cell, where panning ended
        if (i == 0) {
          app.set_step(0);
          if (stage == 3) ++app.view.fit_requests;
        } else if (app.replay.step >= app.timeline().last_step()) {
          app.set_step(0);
        } else {
          app.step_by(1);
        }
        if (stage == 4) {
          ts::ui::ViewOptions::Camera c;
          c.pixels_per_cell = 0.5f;
          c.center_row = static_cast<float>(params.m) * 0.75f;
          c.center_col = static_cast<float>(params.n) * 0.25f;
          app.view.camera_request = c;
        }
        break;
      default: break;
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  Bench bench;
  bench.params.kernel = ts::KernelKind::Tiled;
  bench.params.tile = 16;
  bench.params.m = bench.params.n = bench.params.k = 4096;
  bench.params.device = ts::DeviceChoice::Cpu;
  bench.params.seed = 7;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    auto next = [&] { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc) json_path = argv[++i];
    else if (!std::strcmp(argv[i], "--frames")) bench.frames = std::max(10, next());
    else if (!std::strcmp(argv[i], "--m")) bench.params.m = next();
    else if (!std::strcmp(argv[i], "--n")) bench.params.n = next();
    else if (!std::strcmp(argv[i], "--k")) bench.params.k = next();
    else {
      std::fprintf(stderr, "usage: large_frame_bench [--m M] [--n N] [--k K] [--frames F] [--json FILE]\n");
      return 2;
    }
  }
  const ts::RecordParams& p = bench.params;
  bench.cell = {static_cast<std::uint32_t>(p.m * 2 / 5), static_cast<std::uint32_t>(p.n / 7)};
  const auto t0 = Clock::now();
  try {
    bench.trace = std::make_shared<ts::ui::LoadedTrace>();
    const std::uint32_t block = (bench.cell.row / 16) * static_cast<std::uint32_t>((p.n + 15) / 16) + bench.cell.col / 16;
    bench.trace->trace = ts::record_focused(p, {block});
    bench.trace->index = std::make_unique<ts::TraceIndex>(bench.trace->trace);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "large_frame_bench: %s\n", e.what());
    return 1;
  }
  const double prepare_s = std::chrono::duration<double>(Clock::now() - t0).count();

  ts::ui::AppOptions o;
  o.params.kernel = ts::KernelKind::Tiled;
  o.params.tile = 16;
  o.params.m = o.params.n = o.params.k = 16;  // a small first scene; the bench installs its own
  o.params.device = ts::DeviceChoice::Cpu;
  o.width = 1600;
  o.height = 1000;
  o.vsync = false;
  o.after_frame = [&](ts::ui::AppState& app, std::uint64_t) { return bench.after_frame(app); };
  if (ts::ui::run_app(o) != 0 || bench.stage != bench.stages.size()) {
    std::fprintf(stderr, "large_frame_bench: the app stopped before the benchmark finished\n");
    return 1;
  }
  std::printf("large_frame_bench: 1600 x 1000, GL renderer %s; %u CPUs, load average %s\n", bench.renderer.c_str(),
              std::thread::hardware_concurrency(), bench.load_before.c_str());
  std::printf("tiled TILE 16 M=%d N=%d K=%d, one block traced (%zu events), fitted at %.3f px per cell\n", p.m, p.n, p.k,
              bench.trace->trace.events.size(), bench.fitted);
  std::printf("  %-16s %7s %7s %7s %7s  %s\n", "ms/frame", "mean", "median", "p95", "max",
              "| CPU ms/frame: all threads, main | waited ms/frame | others' CPU | frames > 16.7 ms");
  nlohmann::json j;
  for (const Stage& s : bench.stages) {
    const nlohmann::json x = summary(s);
    std::printf("  %-16s %7.2f %7.2f %7.2f %7.2f  | %6.2f %5.2f | %6.2f | %4.0f%% | %zu\n", s.name.c_str(),
                x["mean_ms"].get<double>(), x["median_ms"].get<double>(), x["p95_ms"].get<double>(),
                x["max_ms"].get<double>(), x["cpu_ms_per_frame_all_threads"].get<double>(),
                x["main_thread_cpu_ms_per_frame"].get<double>(), x["run_queue_wait_ms_per_frame"].get<double>(),
                100 * x["other_processes_cpu_share"].get<double>(), x["frames_over_16_7_ms"].size());
    j[s.name] = x;
  }
  std::printf("peak memory %.0f MiB (the trace and its index: %.0f MiB); focused recording + index %.1f s\n",
              double(peak_rss_bytes()) / (1 << 20), double(bench.trace->memory_bytes()) / (1 << 20), prepare_s);
  if (!json_path.empty()) {
    j["window"] = "1600x1000";
    j["gl_renderer"] = bench.renderer;
    j["cpus"] = std::thread::hardware_concurrency();
    j["load_average_before"] = bench.load_before;
    j["m"] = p.m;
    j["n"] = p.n;
    j["k"] = p.k;
    j["fitted_pixels_per_cell"] = bench.fitted;
    j["peak_rss_bytes"] = peak_rss_bytes();
    j["trace_and_index_bytes"] = bench.trace->memory_bytes();
    j["focused_record_and_index_s"] = prepare_s;
    std::ofstream(json_path) << j.dump(2) << "\n";
  }
  return 0;
}
