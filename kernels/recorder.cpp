// recorder.cpp — the one entry point for recording, GPU or emulator.
#include "kernels/recorder.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <limits>
#include <random>
#include <thread>

#include "trace/checked_math.h"
#include "kernels/catalog.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/emu/emulator.h"
#include "kernels/seeds.h"
#include "kernels/user/user_record.h"

namespace ts {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(kGiB));
  return buf;
}

// The inputs come in chunks of 2^20 values, each drawn from its own generator
// seeded from (seed, matrix, chunk), so that the chunks fill in parallel and a
// seed gives the same matrices on any machine, whatever its core count (at
// N = 4096 the 33 M values took a third of a second on one core).
void fill_inputs(Trace& t, const RecordParams& p, std::uint64_t seed) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  auto fill_chunk = [&](std::vector<float>& v, std::uint64_t matrix, std::size_t chunk) {
    std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                      static_cast<std::uint32_t>(matrix), static_cast<std::uint32_t>(chunk),
                      static_cast<std::uint32_t>(std::uint64_t{chunk} >> 32)};
    std::mt19937_64 rng(seq);
    const std::size_t end = std::min(v.size(), (chunk + 1) * kChunk);
    // The values straight from the generator's bits: seed_seq and mt19937_64
    // are the standard's to the bit, its distributions are each library's own
    // (libc++, the browser build's, draws other numbers than libstdc++).
    if (p.inputs == InputKind::SmallIntegers) {
      for (std::size_t i = chunk * kChunk; i < end; ++i) v[i] = static_cast<float>(rng() % 5);  // 0..4
    } else {  // [-1, 1) in steps of 2^-23: 24 bits, exact in a float
      for (std::size_t i = chunk * kChunk; i < end; ++i)
        v[i] = static_cast<float>(rng() >> 40) * 0x1.0p-23f - 1.0f;
    }
  };
  t.a.resize(std::size_t(p.m) * p.k);
  t.b.resize(std::size_t(p.k) * p.n);
  t.c.assign(std::size_t(p.m) * p.n, std::numeric_limits<float>::quiet_NaN());
  struct Job {
    std::vector<float>* v;
    std::uint64_t matrix;
    std::size_t chunk;
  };
  std::vector<Job> jobs;
  for (std::size_t c = 0; c * kChunk < t.a.size(); ++c) jobs.push_back({&t.a, 0, c});
  for (std::size_t c = 0; c * kChunk < t.b.size(); ++c) jobs.push_back({&t.b, 1, c});
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t j; (j = next.fetch_add(1)) < jobs.size();) fill_chunk(*jobs[j].v, jobs[j].matrix, jobs[j].chunk);
  };
  const unsigned threads = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), jobs.size());
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
}

void set_layout(LaunchInfo& L, ArrayId id, std::uint64_t base, int rows, int cols, int ld) {
  L.set_array(id, {true, base, static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(cols),
                   static_cast<std::uint32_t>(ld)});
}

LaunchInfo describe(const RecordParams& p) {
  LaunchInfo L;
  L.kernel = std::string(kernel_info(p.kernel).name);
  L.tile = takes_tile(p.kernel) ? p.tile : rung_config(p.kernel).bk;  // a rung's k-step
  L.tiling = kernel_tiling(p.kernel, p.tile);
  const LaunchShape shape = launch_shape(p.kernel, p.tile, p.m, p.n);
  L.grid = shape.grid;
  L.block = shape.block;
  L.iteration_rule = iteration_rule(p.kernel, p.tile, p.m, p.n, p.k);
  set_matrix_layouts(L, p.m, p.n, p.k);
  for (const SharedTile& s : shared_tiles(p.kernel, p.tile)) set_layout(L, s.id, 0, s.rows, s.cols, s.cols);
  return L;
}

}  // namespace

void set_matrix_layouts(LaunchInfo& L, int m, int n, int k) {
  L.m = m;
  L.n = n;
  L.k = k;
  // The emulator's addresses: each matrix 256-byte aligned, like cudaMalloc's.
  auto align = [](std::uint64_t x) { return (x + 255) & ~std::uint64_t{255}; };
  const std::uint64_t a_base = 0x10000000;
  const std::uint64_t b_base = align(a_base + std::uint64_t(m) * k * 4);
  const std::uint64_t c_base = align(b_base + std::uint64_t(k) * n * 4);
  set_layout(L, ArrayId::A, a_base, m, k, k);
  set_layout(L, ArrayId::B, b_base, k, n, n);
  set_layout(L, ArrayId::C, c_base, m, n, n);
}

void fill_launch_inputs(Trace& t, const RecordParams& params) {
  std::uint64_t seed = params.seed;
  if (seed == 0) seed = fresh_seed();
  t.launch.seed = seed;
  fill_inputs(t, params, seed);
}

const char* device_choice_name(DeviceChoice d) {
  switch (d) {
    case DeviceChoice::Gpu: return "gpu";
    case DeviceChoice::Cpu: return "cpu";
    case DeviceChoice::Auto: return "auto";
  }
  return "?";
}

std::uint64_t default_event_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  std::uint64_t bytes = pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) / 4 : 2 * kGiB;
  bytes = std::min(bytes, 8 * kGiB);
  return std::min<std::uint64_t>(bytes / sizeof(Event), std::numeric_limits<std::uint32_t>::max());
}

void validate_shape(const RecordParams& p) {
  using K = RecordError::Kind;
  if (p.user) return validate_user(p);
  if (takes_tile(p.kernel) && !is_valid_tile(p.tile))
    throw RecordError(K::InvalidParams, "TILE must be a power of two from 2 to 32 (2, 4, 8, 16, 32), got " +
                                            std::to_string(p.tile));
  if (const std::string why = size_refusal(p.kernel, p.m, p.n, p.k); !why.empty())
    throw RecordError(K::InvalidParams, why);
  const IterationRule rule = iteration_rule(p.kernel, p.tile, p.m, p.n, p.k);
  // The kernel's own barrier count (the naive kernels have none), as the trace's
  // validation holds it: an event's 12-bit iteration and barrier fields.
  const std::uint64_t iterations = rule.iterations;
  const std::uint64_t barriers = std::uint64_t{rule.barriers_per_iteration} * iterations + rule.barriers_before;
  if (barriers > kMaxEpoch || iterations > kMaxIteration) {
    const std::string step = takes_tile(p.kernel) ? "TILE=" + std::to_string(p.tile)
                                                  : std::string(kernel_info(p.kernel).name) + "'s BK=" +
                                                        std::to_string(rule.tile);
    const std::string why = iterations > kMaxIteration
                                ? std::to_string(iterations) + " k-iterations, and an event counts at most " +
                                      std::to_string(kMaxIteration)
                                : std::to_string(barriers) + " barriers per thread, and an event counts at most " +
                                      std::to_string(kMaxEpoch);
    throw RecordError(K::TooLarge, "K=" + std::to_string(p.k) + " with " + step +
                                       " is beyond the recording limit: " + why);
  }
}

void validate(const RecordParams& p) {
  using K = RecordError::Kind;
  if (p.user) return validate_user(p);
  validate_shape(p);
  const EventCounts counts = expected_counts(p.kernel, p.tile, p.m, p.n, p.k);
  const std::uint64_t limit = p.event_limit ? p.event_limit : default_event_limit();
  if (counts.total() > limit) {
    // A count that saturated (2^64 - 1) stands for any larger one: not a number to print.
    const std::string need = counts.total() == std::numeric_limits<std::uint64_t>::max()
                                 ? std::string("2^64 events or more")
                                 : std::to_string(counts.total()) + " events (" +
                                       gib(saturating_mul(counts.total(), sizeof(Event))) + " at " +
                                       std::to_string(sizeof(Event)) + " bytes each)";
    throw RecordError(K::TooLarge, "M=" + std::to_string(p.m) + " N=" + std::to_string(p.n) + " K=" +
                                       std::to_string(p.k) + " needs " + need + "; the recording limit is " + std::to_string(limit) +
                                       " events (" + gib(limit * sizeof(Event)) +
                                       ": a quarter of this machine's memory, at most 8 GiB)");
  }
  validate_trace_fits(p);
}

void validate_trace_fits(const RecordParams& p) {
  using K = RecordError::Kind;
  // What cannot run or be read back, refused before any work: the kernels
  // index a matrix with int (row * K + col, as a course's listing does; an
  // event's 32-bit index holds more), and CUDA limits grid.y and grid.z.
  const std::uint64_t rows_a = p.m, cols_b = p.n, depth = p.k;
  const std::pair<const char*, std::uint64_t> matrices[] = {
      {"A (M x K)", rows_a * depth}, {"B (K x N)", depth * cols_b}, {"C (M x N)", rows_a * cols_b}};
  for (const auto& [what, elements] : matrices)
    if (elements > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
      throw RecordError(K::TooLarge, std::string(what) + " would have " + std::to_string(elements) +
                                         " elements; the kernels index each matrix with int (at most " +
                                         std::to_string(std::numeric_limits<int>::max()) + ")");
  const LaunchShape shape = launch_shape(p.kernel, p.tile, p.m, p.n);
  if (shape.grid.x > 0x7FFFFFFFu || shape.grid.y > 65535 || shape.grid.z > 65535)
    throw RecordError(K::TooLarge, "M=" + std::to_string(p.m) + " N=" + std::to_string(p.n) + " with " +
                                       (takes_tile(p.kernel) ? "TILE=" + std::to_string(p.tile)
                                                             : std::string(kernel_info(p.kernel).name)) +
                                       " needs a grid of " + std::to_string(shape.grid.x) +
                                       " x " + std::to_string(shape.grid.y) + " x " + std::to_string(shape.grid.z) +
                                       " blocks; CUDA allows at most 2147483647 x 65535 x 65535");
}

bool choose_gpu(const RecordParams& params, gpu::DeviceStatus& status) {
  if (params.device == DeviceChoice::Cpu) return false;
  status = gpu::probe();
  if (!status.available && params.device == DeviceChoice::Gpu)
    throw RecordError(RecordError::Kind::NoGpu, "--device gpu: " + status.reason);
  // A GPU too old for the kernel's instructions (mma.sync on TF32: sm_80): the emulator, unless the GPU was asked for.
  const int needs = params.user ? 0 : min_compute_capability(params.kernel);
  if (status.available && status.compute_capability < needs) {
    if (params.device == DeviceChoice::Gpu)
      throw RecordError(RecordError::Kind::NoGpu,
                        "--device gpu: " + std::string(kernel_info(params.kernel).name) + " needs compute capability " +
                            std::to_string(needs / 10) + "." + std::to_string(needs % 10) + " or newer; " +
                            status.name + " has " + std::to_string(status.compute_capability / 10) + "." +
                            std::to_string(status.compute_capability % 10));
    return false;
  }
  return status.available;
}

Trace prepare_launch(const RecordParams& params) {
  Trace t;
  t.launch = describe(params);
  fill_launch_inputs(t, params);
  return t;
}

Trace record(const RecordParams& params, emu::CheckReport* report) {
  if (params.user) return record_user_kernel(params, report);
  validate(params);
  using K = RecordError::Kind;
  if (params.check.enabled() && params.device == DeviceChoice::Gpu)
    throw RecordError(K::InvalidParams, "--check runs the launch on the emulator: use --device cpu or auto");
  gpu::DeviceStatus gpu_status;
  const bool on_gpu = !params.check.enabled() && choose_gpu(params, gpu_status);
  Trace t = prepare_launch(params);
  if (on_gpu) {
    const std::uint64_t need = expected_counts(params.kernel, params.tile, params.m, params.n, params.k).total() * sizeof(Event);
    if (gpu_status.free_bytes && need > gpu_status.free_bytes * 9 / 10)
      throw RecordError(K::TooLarge, "the trace needs " + gib(need) + " of GPU memory and " + gpu_status.name +
                                         " has " + gib(gpu_status.free_bytes) + " free");
    try {
      const gpu::LaunchDeadline deadline(params.timeout_seconds);
      gpu::record_launch(params.kernel, t);
    } catch (const gpu::GpuTimeout& e) {
      throw RecordError(K::GpuTimedOut, std::string("recording on the GPU: ") + e.what());
    } catch (const gpu::GpuError& e) {
      throw RecordError(K::GpuFailed, std::string("recording on the GPU failed: ") + e.what());
    }
    t.launch.recorder = "gpu";
    t.launch.device_name = gpu_status.name;
  } else {
    try {
      emu::LaunchOptions options;
      options.workers = params.cpu_workers;
      options.check = params.check;
      options.timeout_seconds = params.timeout_seconds;
      emu::CheckReport found = emu::record_launch(params.kernel, t, options);
      if (report) *report = std::move(found);
    } catch (const emu::TimedOutError& e) {
      throw RecordError(K::TimedOut, std::string("the emulator stopped: ") + e.what());
    } catch (const emu::EmulatorError& e) {
      throw RecordError(K::EmulatorFailed, std::string("the emulator stopped: ") + e.what());
    }
    t.launch.recorder = "emulator";
    t.launch.device_name = "CPU emulator";
  }
  t.launch.date = utc_now_iso8601();
  return t;
}

std::vector<std::uint16_t> source_lines(const Trace& trace, std::string& why) {
  if (!trace.lines.empty() && trace.lines.size() == trace.events.size()) return trace.lines;
  const auto kind = find_kernel(trace.launch.kernel);
  if (!kind) {
    why = "the trace has no source lines, and its kernel '" + trace.launch.kernel + "' is not one of tilescope's";
    return {};
  }
  if (trace.launch.focused()) {
    why = "a focused trace has no source lines (record the whole launch on the emulator)";
    return {};
  }
  RecordParams p;
  p.kernel = *kind;
  p.tile = trace.launch.tile;
  p.m = trace.launch.m;
  p.n = trace.launch.n;
  p.k = trace.launch.k;
  p.seed = trace.launch.seed ? trace.launch.seed : 1;
  p.device = DeviceChoice::Cpu;
  try {
    validate(p);
    Trace again = prepare_launch(p);
    emu::record_launch(p.kernel, again, emu::LaunchOptions{});
    if (lines_fit(trace, again)) return std::move(again.lines);
    why = "the emulator's run of this launch made other events than the trace holds: no lines to borrow";
  } catch (const RecordError& e) {
    why = std::string("no source lines: ") + e.what();
  } catch (const emu::EmulatorError& e) {
    why = std::string("no source lines: the emulator stopped: ") + e.what();
  }
  return {};
}

}  // namespace ts
