// record_bench.cpp — how fast tilescope records, and how much a trace weighs.
//
//   record_bench [--json FILE] [--workers N] [--sizes 64,256,512] [--counters-only] [--device gpu|cpu]
//                [--kernel NAME] [--tile T]
//   record_bench --rungs [--json FILE] [--workers N]
//
// For each recorder present (the GPU, the CPU emulator) and each scene (tiled
// TILE 16, or --kernel at --tile, at N = 64, 256 and 512 by default), times recording + indexing end to end
// inside one running process (the CUDA context is created by a warm-up
// recording first), and reports bytes per event in memory (trace, trace +
// index). Then it saves the trace as file version 1 and version 2 and times
// loading + indexing each file, once from disk (its pages evicted first) and
// then from the page cache: bytes per event on disk and load + index times for
// each version, and the compressed bytes of each version 2 stream (version 1
// only for a kernel whose accesses are all 4-byte and synchronous: not the
// float4, cp.async and mma rungs, whose rows leave it out).
// Targets (the exit status): GPU N=64 <= 50 ms, GPU N=256 <= 1 s, emulator
// N=256 <= 3 s on 2 cores, <= kMaxBytesPerEvent (20) bytes per event in memory
// with the index and the source lines (16 a 16-byte event; 12.3 when events
// were 12 bytes, before the memory tables: docs/trace-model.md); on
// disk, version 2 <= 1.5 bytes per event at N = 256. Whether version 2 loads +
// indexes no slower than version 1 is reported per row (v2_loads_no_slower).
// Then the whole-launch counters (app/counters/counter.h), which keep no events:
// events per second and peak memory, on the emulator (N = 256) and the GPU
// (N = 1024, 4096). No target: the figures are what issue 10 asks to know.
//
// --rungs instead: record + index of every recorded rung of the ladder at
// 256^3 on the emulator against tiled TILE 16 at the same size, in one
// process; target (issue 9): each within 2x of tiled's time.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <span>
#include <thread>
#include <tuple>
#include <vector>

#include "app/core/safe_file.h"
#include "app/core/trace_codec.h"
#include "app/core/trace_file.h"
#include "app/core/trace_index.h"
#include "kernels/catalog.h"
#include "app/counters/counter.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/recorder.h"

namespace {

// A 16-byte event, the index's 0.25-0.5 bytes and the emulator's source line
// (2 bytes): 16.3 on the GPU and 18.3 on the emulator at N = 256 (H200,
// 2026-11-28).
constexpr double kMaxBytesPerEvent = 20.0;

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct FileFigures {
  double bytes_per_event = 0, save_ms = 0, load_ms = 0, index_ms = 0, load_index_ms = 0;
  double cold_load_index_ms = 0;  // the file's pages evicted from the page cache first
  nlohmann::json stream_bytes;  // version 2 only
};

struct Figures {
  std::vector<double> record_ms, index_ms, total_ms;
  std::uint64_t events = 0;
  double trace_bytes_per_event = 0, with_index_bytes_per_event = 0;
  FileFigures v1, v2;
  bool has_v1 = true;  // version 1 holds this kernel's accesses
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

nlohmann::json v2_streams(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::uint32_t json_bytes = 0;
  std::memcpy(&json_bytes, file.data() + 12, 4);
  const auto body = std::as_bytes(std::span(file)).subspan(64 + json_bytes, file.size() - 72 - json_bytes);
  const std::vector<std::uint64_t> sizes = ts::v2_stream_sizes(body);
  const std::vector<std::string> names = ts::v2_stream_names(sizes.size());
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t i = 0; i < sizes.size(); ++i) out[names[i]] = sizes[i];
  return out;
}

// Drops a file's pages from the page cache, as after a copy from another
// machine or a reboot (this file's pages only; nothing else is evicted).
void evict(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

double load_and_index_ms(const std::filesystem::path& path) {
  const auto t0 = Clock::now();
  const ts::Trace t = ts::load_trace(path);
  const ts::TraceIndex ix(t);
  return ms_since(t0);
}

// Loads and indexes a saved file: once from disk, then `runs` times from the
// page cache; the medians go into f.
void time_loading(const std::filesystem::path& path, int runs, FileFigures& f) {
  evict(path);
  f.cold_load_index_ms = load_and_index_ms(path);
  std::vector<double> load, index, both;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    const ts::Trace t = ts::load_trace(path);
    const double l = ms_since(t0);
    const auto t1 = Clock::now();
    const ts::TraceIndex ix(t);
    const double i = ms_since(t1);
    load.push_back(l);
    index.push_back(i);
    both.push_back(l + i);
  }
  f.load_ms = median(load);
  f.index_ms = median(index);
  f.load_index_ms = median(both);
}

// The kernel every row measures: tiled, TILE 16, unless --kernel and --tile say otherwise.
ts::KernelKind g_kernel = ts::KernelKind::Tiled;
int g_tile = 16;

// The launch every row measures: the kernel at N^3.
ts::RecordParams benchmark_launch(ts::DeviceChoice device, int n, unsigned workers) {
  ts::RecordParams p;
  p.kernel = g_kernel;
  p.tile = g_tile;
  p.m = p.n = p.k = n;
  p.device = device;
  p.cpu_workers = workers;
  return p;
}

Figures measure(ts::DeviceChoice device, int n, int runs, unsigned workers) {
  const ts::RecordParams p = benchmark_launch(device, n, workers);
  Figures f;
  { const ts::Trace warm = ts::record(p); }  // context, allocations, page cache
  const auto dir = std::filesystem::temp_directory_path();
  const auto path1 = dir / ("record_bench_v1_" + std::to_string(::getpid()) + ".tstrace");
  const auto path2 = dir / ("record_bench_v2_" + std::to_string(::getpid()) + ".tstrace");
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
      f.has_v1 = std::all_of(t.events.span().begin(), t.events.span().end(),
                             [](const ts::Event& e) { return e.width == 0 && !e.async; });
      for (auto [version, path, out] : {std::tuple{1u, &path1, &f.v1}, std::tuple{2u, &path2, &f.v2}}) {
        if (version == 1 && !f.has_v1) continue;
        const auto t2 = Clock::now();
        ts::save_trace(t, *path, version);
        out->save_ms = ms_since(t2);
        out->bytes_per_event = double(std::filesystem::file_size(*path)) / f.events;
      }
    }
  }
  // The recorded trace is gone: only one loaded trace at a time is in memory.
  const int load_runs = std::max(1, std::min(runs, 3));
  if (f.has_v1) time_loading(path1, load_runs, f.v1);
  time_loading(path2, load_runs, f.v2);
  f.v2.stream_bytes = v2_streams(path2);
  std::filesystem::remove(path1);
  std::filesystem::remove(path2);
  return f;
}

nlohmann::json file_json(const FileFigures& f) {
  nlohmann::json j = {{"bytes_per_event", f.bytes_per_event},
                      {"save_ms", f.save_ms},
                      {"load_ms_median", f.load_ms},
                      {"index_ms_median", f.index_ms},
                      {"load_index_ms_median", f.load_index_ms},
                      {"load_index_from_disk_ms", f.cold_load_index_ms}};
  if (!f.stream_bytes.is_null()) j["stream_bytes"] = f.stream_bytes;
  return j;
}

std::vector<int> parse_sizes(const std::string& list) {
  std::vector<int> sizes;
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    sizes.push_back(std::stoi(list.substr(at, comma - at)));
    at = comma + 1;
  }
  return sizes;
}

// The 1-minute load average: on a shared machine, what the times competed with.
double load_average() {
  double one = -1;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &one) != 1) one = -1;
    std::fclose(f);
  }
  return one;
}

struct CounterFigures {
  std::vector<double> ms;
  std::uint64_t events = 0, peak_bytes = 0;
};

// Record + index of one launch on the emulator, `runs` times: the median total and the events.
std::pair<double, std::uint64_t> record_and_index_ms(const ts::RecordParams& p, int runs) {
  { const ts::Trace warm = ts::record(p); }
  std::vector<double> total;
  std::uint64_t events = 0;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    const ts::Trace t = ts::record(p);
    const ts::TraceIndex index(t);
    total.push_back(ms_since(t0));
    events = t.events.size();
  }
  return {median(total), events};
}

// Each rung against tiled TILE 16 at 256^3 on the emulator; false if one misses 2x.
bool compare_rungs(unsigned workers, nlohmann::json& out) {
  constexpr int kSize = 256, kRuns = 5;
  constexpr double kMostTimesTiled = 2.0;
  ts::RecordParams p = benchmark_launch(ts::DeviceChoice::Cpu, kSize, workers);
  p.kernel = ts::KernelKind::Tiled;  // the baseline, whatever --kernel says
  p.tile = 16;
  const auto [tiled_ms, tiled_events] = record_and_index_ms(p, kRuns);
  std::printf("record + index on the emulator (%u workers), %d^3, median of %d:\n%-14s %12s %10s %9s  %s\n", workers,
              kSize, kRuns, "kernel", "events", "ms", "x tiled", "verdict");
  std::printf("%-14s %12llu %10.1f %9s\n", "tiled TILE 16", static_cast<unsigned long long>(tiled_events), tiled_ms, "1.00");
  out["rungs"] = {{"size", kSize}, {"runs", kRuns}, {"tiled_t16_ms", tiled_ms}, {"tiled_t16_events", tiled_events},
                  {"rows", nlohmann::json::array()}};
  bool all_met = true;
  for (const ts::KernelKind kind : ts::kRungKernels) {
    const std::string name(ts::kernel_info(kind).name);
    if (const std::string refusal = ts::size_refusal(kind, kSize, kSize, kSize); !refusal.empty()) {
      std::printf("%-14s skipped: %s\n", name.c_str(), refusal.c_str());
      continue;
    }
    p.kernel = kind;
    p.tile = 0;
    const auto [ms, events] = record_and_index_ms(p, kRuns);
    const double ratio = ms / tiled_ms;
    const bool met = ratio <= kMostTimesTiled;
    all_met = all_met && met;
    std::printf("%-14s %12llu %10.1f %9.2f  %s\n", name.c_str(), static_cast<unsigned long long>(events), ms, ratio,
                met ? "met" : "MISSED");
    out["rungs"]["rows"].push_back({{"kernel", name}, {"events", events}, {"record_index_ms_median", ms},
                                    {"times_tiled", ratio}, {"met", met}});
  }
  return all_met;
}

CounterFigures measure_counters(ts::DeviceChoice device, int n, int runs, unsigned workers) {
  const ts::RecordParams p = benchmark_launch(device, n, workers);
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
  std::vector<int> sizes = {64, 256, 512};
  bool counters_only = false, rungs = false;
  std::string device = "auto";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) json_path = argv[++i];
    else if (a == "--workers" && i + 1 < argc) workers = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--sizes" && i + 1 < argc) sizes = parse_sizes(argv[++i]);
    else if (a == "--counters-only") counters_only = true;
    else if (a == "--rungs") rungs = true;
    else if (a == "--device" && i + 1 < argc) device = argv[++i];
    else if (a == "--tile" && i + 1 < argc) g_tile = std::stoi(argv[++i]);
    else if (a == "--kernel" && i + 1 < argc) {
      const auto kind = ts::find_kernel(argv[++i]);
      if (!kind) {
        std::fprintf(stderr, "record_bench: unknown kernel '%s' (choose one of %s)\n", argv[i], ts::kernel_names().c_str());
        return 2;
      }
      g_kernel = *kind;
    } else {
      std::fprintf(stderr, "usage: record_bench [--json FILE] [--workers N] [--sizes 64,256,512] [--counters-only] "
                           "[--device gpu|cpu] [--kernel NAME] [--tile T] | --rungs [--json FILE] [--workers N]\n");
      return 2;
    }
  }
  const std::string kernel_name(ts::kernel_info(g_kernel).name);
  const ts::gpu::DeviceStatus gpu = ts::gpu::probe();
  nlohmann::json out = {{"benchmark", "record"},
                        {"date", ts::utc_now_iso8601()},
                        {"gpu", gpu.available ? gpu.name : "none"},
                        {"host_threads", std::thread::hardware_concurrency()},
                        {"emulator_workers", workers},
                        {"load_average_at_start", load_average()},
                        {"rows", nlohmann::json::array()}};
  // The figures, with the load the machine had at the end: false if they could not be written.
  auto write_json = [&] {
    out["load_average_at_end"] = load_average();
    if (json_path.empty()) return true;
    const std::string error = ts::try_write_file_atomically(json_path, out.dump(2) + "\n");
    if (!error.empty()) std::fprintf(stderr, "record_bench: %s\n", error.c_str());
    return error.empty();
  };
  if (rungs) {
    const bool met = compare_rungs(workers, out);
    return write_json() && met ? 0 : 1;
  }
  struct Target {
    ts::DeviceChoice device;
    const char* name;
    int n, runs;
    double target_ms;
  };
  std::vector<Target> targets;
  // Fewer runs where one recording takes seconds; targets where the issues set one.
  auto runs_at = [](int n) { return n <= 64 ? 20 : n <= 256 ? 5 : 1; };
  if (device == "gpu" && !gpu.available) {
    std::fprintf(stderr, "record_bench: --device gpu: %s\n", gpu.reason.c_str());
    return 1;
  }
  const bool use_gpu = gpu.available && device != "cpu", use_cpu = device != "gpu";
  for (const int n : sizes) {
    if (counters_only) break;
    if (use_gpu)
      targets.push_back({ts::DeviceChoice::Gpu, "gpu", n, runs_at(n), n == 64 ? 50.0 : n == 256 ? 1000.0 : 0});
    if (use_cpu) targets.push_back({ts::DeviceChoice::Cpu, "emulator", n, runs_at(n), n == 256 ? 3000.0 : 0});
  }
  if (!gpu.available) std::printf("no GPU (%s): emulator figures only\n", gpu.reason.c_str());

  std::printf("%-9s %5s %11s %10s %9s %10s %9s %8s %8s %7s %7s %9s %9s  %s\n", "recorder", "N", "events", "record_ms",
              "index_ms", "total_ms", "target", "B/ev", "B/ev+ix", "v1 disk", "v2 disk", "v1 ld+ix", "v2 ld+ix",
              "verdict");
  bool all_met = true;
  for (const Target& t : targets) {
    const Figures f = measure(t.device, t.n, t.runs, workers);
    const double total = median(f.total_ms);
    // Version 2's size target (issue 10): 1.5 bytes per event at N = 256. Its
    // load time against version 1's is reported (v2_loads_no_slower), not
    // failed on: on a shared machine one run's difference is mostly noise.
    const bool met = (t.target_ms == 0 || total <= t.target_ms) && f.with_index_bytes_per_event <= kMaxBytesPerEvent &&
                     (!f.has_v1 || f.v1.bytes_per_event <= 16.0) && (t.n != 256 || f.v2.bytes_per_event <= 1.5);
    all_met = all_met && met;
    std::printf("%-9s %5d %11llu %10.1f %9.1f %10.1f %9s %8.2f %8.2f %7.2f %7.3f %9.1f %9.1f  %s\n", t.name, t.n,
                static_cast<unsigned long long>(f.events), median(f.record_ms), median(f.index_ms), total,
                t.target_ms > 0 ? (std::to_string(int(t.target_ms)) + " ms").c_str() : "-", f.trace_bytes_per_event,
                f.with_index_bytes_per_event, f.v1.bytes_per_event, f.v2.bytes_per_event, f.v1.load_index_ms,
                f.v2.load_index_ms, met ? "met" : "MISSED");
    out["rows"].push_back({{"recorder", t.name},
                           {"kernel", kernel_name},
                           {"tile", g_tile},
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
                           {"bytes_per_event_file", f.v2.bytes_per_event},
                           {"file_v1", f.has_v1 ? file_json(f.v1) : nlohmann::json(nullptr)},
                           {"file_v2", file_json(f.v2)},
                           {"v2_loads_no_slower", !f.has_v1 || f.v2.load_index_ms <= f.v1.load_index_ms},
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
  std::printf("\ncounters (no events kept), %s TILE %d:\n%-9s %5s %13s %10s %12s %12s\n", kernel_name.c_str(), g_tile,
              "counter", "N", "events", "ms", "events/s", "peak MiB");
  out["counters"] = nlohmann::json::array();
  for (const CounterScene& c : scenes) {
    const CounterFigures f = measure_counters(c.device, c.n, c.runs, workers);
    const double ms = median(f.ms);
    const double rate = ms > 0 ? double(f.events) / (ms / 1000) : 0;
    std::printf("%-9s %5d %13llu %10.1f %12.4g %12.1f\n", c.name, c.n, static_cast<unsigned long long>(f.events), ms,
                rate, double(f.peak_bytes) / (1 << 20));
    out["counters"].push_back({{"counter", c.name}, {"kernel", kernel_name}, {"tile", g_tile}, {"n", c.n}, {"runs", c.runs},
                               {"events", f.events}, {"ms_median", ms}, {"events_per_second", rate},
                               {"peak_bytes", f.peak_bytes}});
  }
  return write_json() && all_met ? 0 : 1;
}
