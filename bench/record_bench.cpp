// record_bench.cpp — how fast tilescope records, and how much a trace weighs.
//
//   record_bench [--json FILE] [--workers N] [--counters-only] [--device gpu|cpu]
//
// For each recorder present (the GPU, the CPU emulator) and each scene (N = 64
// and N = 256, TILE 16), times recording + indexing end to end inside one
// running process (the CUDA context is created by a warm-up recording first),
// and reports bytes per event in memory (trace, trace + index) and on disk.
// Targets (the foundation issue): GPU N=64 <= 50 ms, GPU N=256 <= 1 s,
// emulator N=256 <= 3 s on 2 cores, <= 16 bytes per event (in memory, index
// included, and on disk: an event record is 12 bytes).
// Then the whole-launch counters (kernels/counter.h), which keep no events:
// events per second and peak memory, on the emulator (N = 256) and the GPU
// (N = 1024, 4096). No target: the figures are what the issue asks to know.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/core/trace_file.h"
#include "app/core/trace_index.h"
#include "kernels/counter.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/recorder.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct Figures {
  std::vector<double> record_ms, index_ms, total_ms;
  std::uint64_t events = 0;
  double trace_bytes_per_event = 0, with_index_bytes_per_event = 0, file_bytes_per_event = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

Figures measure(ts::DeviceChoice device, int n, int runs, unsigned workers) {
  ts::RecordParams p;
  p.kernel = ts::KernelKind::Tiled;
  p.tile = 16;
  p.m = p.n = p.k = n;
  p.device = device;
  p.cpu_workers = workers;
  Figures f;
  { const ts::Trace warm = ts::record(p); }  // context, allocations, page cache
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    const ts::Trace t = ts::record(p);
    const double rec = ms_since(t0);
    const auto t1 = Clock::now();
    const ts::TraceIndex index(t);
    const double idx = ms_since(t1);
    f.record_ms.push_back(rec);
    f.index_ms.push_back(idx);
    f.total_ms.push_back(rec + idx);
    if (r == runs - 1) {
      f.events = t.events.size();
      f.trace_bytes_per_event = double(t.memory_bytes()) / f.events;
      f.with_index_bytes_per_event = double(t.memory_bytes() + index.memory_bytes()) / f.events;
      const auto path = std::filesystem::temp_directory_path() / "record_bench.tstrace";
      ts::save_trace(t, path);
      f.file_bytes_per_event = double(std::filesystem::file_size(path)) / f.events;
      std::filesystem::remove(path);
    }
  }
  return f;
}

struct CounterFigures {
  std::vector<double> ms;
  std::uint64_t events = 0, peak_bytes = 0;
};

CounterFigures measure_counters(ts::DeviceChoice device, int n, int runs, unsigned workers) {
  ts::RecordParams p;
  p.kernel = ts::KernelKind::Tiled;
  p.tile = 16;
  p.m = p.n = p.k = n;
  p.device = device;
  p.cpu_workers = workers;
  CounterFigures f;
  if (device == ts::DeviceChoice::Gpu) ts::count_launch(p);  // warm-up: context, allocations
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    const ts::LaunchCounters c = ts::count_launch(p);
    f.ms.push_back(ms_since(t0));
    f.events = c.events;
    f.peak_bytes = c.peak_bytes;
  }
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  std::string json_path;
  unsigned workers = 2;  // the emulator's target is stated for 2 cores
  bool counters_only = false;
  std::string device = "auto";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) json_path = argv[++i];
    else if (a == "--workers" && i + 1 < argc) workers = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--counters-only") counters_only = true;
    else if (a == "--device" && i + 1 < argc) device = argv[++i];
    else {
      std::fprintf(stderr, "usage: record_bench [--json FILE] [--workers N] [--counters-only] [--device gpu|cpu]\n");
      return 2;
    }
  }
  const ts::gpu::DeviceStatus gpu = ts::gpu::probe();
  nlohmann::json out = {{"benchmark", "record"},
                        {"date", ts::utc_now_iso8601()},
                        {"gpu", gpu.available ? gpu.name : "none"},
                        {"host_threads", std::thread::hardware_concurrency()},
                        {"emulator_workers", workers},
                        {"rows", nlohmann::json::array()}};
  struct Target {
    ts::DeviceChoice device;
    const char* name;
    int n, runs;
    double target_ms;
  };
  std::vector<Target> targets;
  const bool use_gpu = gpu.available && device != "cpu", use_cpu = device != "gpu";
  if (device == "gpu" && !gpu.available) {
    std::fprintf(stderr, "record_bench: --device gpu: %s\n", gpu.reason.c_str());
    return 1;
  }
  if (use_gpu) {
    targets.push_back({ts::DeviceChoice::Gpu, "gpu", 64, 20, 50});
    targets.push_back({ts::DeviceChoice::Gpu, "gpu", 256, 5, 1000});
  } else {
    std::printf("no GPU (%s): emulator figures only\n", gpu.reason.c_str());
  }
  if (use_cpu) {
    targets.push_back({ts::DeviceChoice::Cpu, "emulator", 64, 20, 0});
    targets.push_back({ts::DeviceChoice::Cpu, "emulator", 256, 5, 3000});
  }
  if (counters_only) targets.clear();

  std::printf("%-9s %5s %11s %10s %10s %10s %9s %8s %8s %8s  %s\n", "recorder", "N", "events", "record_ms",
              "index_ms", "total_ms", "target", "B/ev", "B/ev+ix", "B/ev disk", "verdict");
  bool all_met = true;
  for (const Target& t : targets) {
    const Figures f = measure(t.device, t.n, t.runs, workers);
    const double total = median(f.total_ms);
    const bool met = (t.target_ms == 0 || total <= t.target_ms) && f.with_index_bytes_per_event <= 16.0 &&
                     f.file_bytes_per_event <= 16.0;
    all_met = all_met && met;
    std::printf("%-9s %5d %11llu %10.1f %10.1f %10.1f %9s %8.2f %8.2f %8.2f  %s\n", t.name, t.n,
                static_cast<unsigned long long>(f.events), median(f.record_ms), median(f.index_ms), total,
                t.target_ms > 0 ? (std::to_string(int(t.target_ms)) + " ms").c_str() : "-", f.trace_bytes_per_event,
                f.with_index_bytes_per_event, f.file_bytes_per_event, met ? "met" : "MISSED");
    out["rows"].push_back({{"recorder", t.name},
                           {"kernel", "tiled"},
                           {"tile", 16},
                           {"n", t.n},
                           {"runs", t.runs},
                           {"events", f.events},
                           {"record_ms_median", median(f.record_ms)},
                           {"index_ms_median", median(f.index_ms)},
                           {"total_ms_median", total},
                           {"total_ms_min", *std::min_element(f.total_ms.begin(), f.total_ms.end())},
                           {"total_ms_max", *std::max_element(f.total_ms.begin(), f.total_ms.end())},
                           {"target_ms", t.target_ms},
                           {"bytes_per_event_trace", f.trace_bytes_per_event},
                           {"bytes_per_event_trace_and_index", f.with_index_bytes_per_event},
                           {"bytes_per_event_file", f.file_bytes_per_event},
                           {"met", met}});
  }
  struct CounterScene {
    ts::DeviceChoice device;
    const char* name;
    int n, runs;
  };
  std::vector<CounterScene> scenes;
  if (use_gpu) scenes.insert(scenes.end(), {{ts::DeviceChoice::Gpu, "gpu", 1024, 3}, {ts::DeviceChoice::Gpu, "gpu", 4096, 3}});
  if (use_cpu) scenes.push_back({ts::DeviceChoice::Cpu, "emulator", 256, 3});
  std::printf("\ncounters (no events kept), tiled TILE 16:\n%-9s %5s %13s %10s %12s %12s\n", "counter", "N", "events",
              "ms", "events/s", "peak MiB");
  out["counters"] = nlohmann::json::array();
  for (const CounterScene& c : scenes) {
    const CounterFigures f = measure_counters(c.device, c.n, c.runs, workers);
    const double ms = median(f.ms);
    const double rate = ms > 0 ? double(f.events) / (ms / 1000) : 0;
    std::printf("%-9s %5d %13llu %10.1f %12.4g %12.1f\n", c.name, c.n, static_cast<unsigned long long>(f.events), ms,
                rate, double(f.peak_bytes) / (1 << 20));
    out["counters"].push_back({{"counter", c.name}, {"kernel", "tiled"}, {"tile", 16}, {"n", c.n}, {"runs", c.runs},
                               {"events", f.events}, {"ms_median", ms}, {"events_per_second", rate},
                               {"peak_bytes", f.peak_bytes}});
  }
  if (!json_path.empty()) std::ofstream(json_path) << out.dump(2) << "\n";
  return all_met ? 0 : 1;
}
