// counter.cpp — whole-launch counters on the emulator (blocks streamed through
// the analysis) or the GPU (the counting build of the kernels).
#include "app/counters/counter.h"

#include <sys/resource.h>

#include <algorithm>
#include <limits>
#include <mutex>
#include <thread>

#include "trace/checked_math.h"
#include "trace/launch_json.h"
#include "kernels/catalog.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/emu/emulator.h"

namespace ts {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

std::string gib(std::uint64_t bytes) {
  if (bytes == std::numeric_limits<std::uint64_t>::max()) return "2^64 bytes or more";  // saturated
  char buf[32];
  if (bytes >= kGiB) std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(kGiB));
  else std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(1u << 20));
  return buf;
}

// Saturating at 2^64 - 1 (as EventCounts do), so that the limit check cannot wrap.
std::uint64_t inputs_bytes(const RecordParams& p) {
  const std::uint64_t m = p.m, n = p.n, k = p.k;
  return saturating_mul(saturating_add(saturating_add(m * k, k * n), m * n), sizeof(float));
}

std::uint64_t element_counts_bytes(const RecordParams& p) {
  return saturating_mul(std::uint64_t(p.m) * p.k + std::uint64_t(p.k) * p.n, sizeof(std::uint32_t));
}

// No more workers than blocks: the emulator starts no more (run_workers).
unsigned resolve_workers(unsigned workers, std::uint64_t blocks) {
  const unsigned asked = workers ? workers : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(asked, blocks)));
}

// What one emulator worker adds up from the blocks it ran.
struct WorkerSums {
  explicit WorkerSums(const LaunchInfo& launch) : reuse(launch) {}
  TraceCounts counts;
  MemoryStats memory;
  ReuseAccumulator reuse;
};

void count_on_emulator(const RecordParams& params, Trace& t, LaunchCounters& out, const CountedBlockHook& on_block) {
  const unsigned workers = resolve_workers(params.cpu_workers, t.launch.grid.count());
  std::vector<std::uint32_t> a_loads(t.a.size(), 0), b_loads(t.b.size(), 0);
  std::vector<WorkerSums> sums(workers, WorkerSums(t.launch));
  std::mutex hook_mutex;
  try {
    out.block_buffers_bytes = emu::stream_launch(
        params.kernel, t, workers, [&](unsigned w, std::uint32_t block, const Trace& one) {
          WorkerSums& s = sums[w];
          count_block_events(one, 0, s.counts);
          s.memory.add(analyze_block(one, 0));
          s.reuse.add_block(one, 0, a_loads, b_loads, true);
          if (on_block) {
            std::lock_guard lock(hook_mutex);
            on_block(block, one);
          }
        },
        {}, params.timeout_seconds);
  } catch (const emu::TimedOutError& e) {
    throw RecordError(RecordError::Kind::TimedOut, std::string("the emulator stopped: ") + e.what());
  } catch (const emu::EmulatorError& e) {
    throw RecordError(RecordError::Kind::EmulatorFailed, std::string("the emulator stopped: ") + e.what());
  }
  // Per worker: one block's events and its thread offsets.
  out.block_buffers_bytes = (out.block_buffers_bytes + (t.launch.threads_per_block() + 1) * sizeof(std::uint64_t)) * workers;
  TraceStats& st = out.stats;
  for (std::size_t w = 1; w < sums.size(); ++w) sums[0].reuse.merge(sums[w].reuse);
  for (const WorkerSums& s : sums) {
    add_counts(st.counts, s.counts);
    st.memory.add(s.memory);
  }
  st.reuse = sums[0].reuse.finish(t.launch, std::move(a_loads), std::move(b_loads));
  t.launch.recorder = "emulator";
  t.launch.device_name = "CPU emulator";
}

void count_on_gpu(const RecordParams& params, Trace& t, LaunchCounters& out, const std::string& device) {
  gpu::DeviceCounts dc;
  try {
    const gpu::LaunchDeadline deadline(params.timeout_seconds);
    gpu::count_launch(params.kernel, t, dc);
  } catch (const gpu::GpuTimeout& e) {
    throw RecordError(RecordError::Kind::GpuTimedOut, std::string("counting on the GPU: ") + e.what());
  } catch (const gpu::GpuError& e) {
    throw RecordError(RecordError::Kind::GpuFailed, std::string("counting on the GPU failed: ") + e.what());
  }
  TraceStats& st = out.stats;
  st.memory = dc.memory;
  for (int a = 0; a < kArrayCount; ++a)
    for (int op = 0; op < 2; ++op) {
      const std::uint64_t n = dc.events[a][op];
      st.counts.by_array[a][op] = n;
      st.counts.by_space[static_cast<int>(space_of(static_cast<ArrayId>(a)))][op] += n;
    }
  st.counts.padding_stores = dc.padding_stores;
  ReuseStats& r = st.reuse;
  r.global_loads = st.counts.by_space[0][0];
  r.global_stores = st.counts.by_space[0][1];
  r.padding_values = dc.padding_stores;
  r.staged_values = st.counts.by_space[1][1] - dc.padding_stores;  // each staged store is retired once
  r.a_loads = std::move(dc.a_loads);
  r.b_loads = std::move(dc.b_loads);
  complete_reuse(r, t.launch);
  out.shared_reuse_counted = false;
  out.block_buffers_bytes = dc.device_bytes;
  out.split_requests = dc.split_requests;
  t.launch.recorder = "gpu";
  t.launch.device_name = device;
}

}  // namespace

std::uint64_t counters_memory_estimate(const RecordParams& p, unsigned workers) {
  const LaunchShape shape = launch_shape(p.kernel, p.tile, p.m, p.n);
  const std::uint64_t blocks = std::max<std::uint64_t>(1, shape.grid.count());
  // Edge blocks do less than interior ones: twice the mean bounds the largest block.
  const std::uint64_t block_events = 2 * (expected_counts(p.kernel, p.tile, p.m, p.n, p.k).total() / blocks + 1);
  return saturating_add(saturating_add(inputs_bytes(p), element_counts_bytes(p)),
                        saturating_mul(saturating_mul(resolve_workers(workers, blocks), block_events), sizeof(Event)));
}

LaunchCounters count_launch(const RecordParams& params, const CountedBlockHook& on_block) {
  validate_shape(params);
  const std::uint64_t need = counters_memory_estimate(params, params.cpu_workers);
  const std::uint64_t limit = (params.event_limit ? params.event_limit : default_event_limit()) * sizeof(Event);
  if (need > limit)
    throw RecordError(RecordError::Kind::TooLarge,
                      "M=" + std::to_string(params.m) + " N=" + std::to_string(params.n) + " K=" +
                          std::to_string(params.k) + " needs " + gib(need) +
                          " for the inputs, the per-element load counts and one block per worker; the limit is " +
                          gib(limit) + " (a quarter of this machine's memory, at most 8 GiB)");
  validate_trace_fits(params);  // a launch CUDA could run, indexed as the kernels index
  gpu::DeviceStatus status;
  const bool on_gpu = choose_gpu(params, status);
  if (on_gpu && on_block)
    throw RecordError(RecordError::Kind::InvalidParams, "a focused recording streams blocks on the emulator only");
  Trace t = prepare_launch(params);
  LaunchCounters out;
  if (on_gpu) count_on_gpu(params, t, out, status.name);
  else count_on_emulator(params, t, out, on_block);
  t.launch.date = utc_now_iso8601();
  out.launch = t.launch;
  out.threads = t.launch.thread_count();
  for (const auto& by_op : out.stats.counts.by_array) out.events += by_op[0] + by_op[1];
  out.stats.counts.a_loads_min = out.stats.reuse.a_min;
  out.stats.counts.a_loads_max = out.stats.reuse.a_max;
  out.stats.counts.b_loads_min = out.stats.reuse.b_min;
  out.stats.counts.b_loads_max = out.stats.reuse.b_max;
  out.inputs_bytes = inputs_bytes(params);
  out.element_counts_bytes = element_counts_bytes(params);
  out.peak_bytes = out.inputs_bytes + out.element_counts_bytes + out.block_buffers_bytes;
  out.c = std::move(t.c);
  return out;
}

nlohmann::json counters_to_json(const LaunchCounters& c) {
  nlohmann::json j = stats_to_json(c.launch, c.events, c.threads, c.stats);
  if (!c.shared_reuse_counted) j["shared_reads_per_staged_value"] = nullptr;
  if (c.launch.recorded_on_gpu()) j["split_requests"] = c.split_requests;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  j["counted"] = true;
  j["peak_memory"] = {{"bytes", c.peak_bytes},
                      {"inputs_bytes", c.inputs_bytes},
                      {"element_counts_bytes", c.element_counts_bytes},
                      {c.launch.recorded_on_gpu() ? "device_counters_bytes" : "block_buffers_bytes", c.block_buffers_bytes},
                      {"full_trace_bytes", c.events * sizeof(Event)},
                      {"process_max_rss_bytes", static_cast<std::uint64_t>(usage.ru_maxrss) * 1024}};
  return j;
}

}  // namespace ts
