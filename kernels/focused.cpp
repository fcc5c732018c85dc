// focused.cpp — record the events of chosen blocks only.
#include "kernels/focused.h"

#include <algorithm>
#include <mutex>

#include "trace/model/gpu_presets.h"
#include "kernels/catalog.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/emu/emulator.h"
#include "kernels/kernel_resources.h"

namespace ts {

namespace {

// The instrumented kernel with only the chosen blocks running (gpu_recorder.cu).
Trace record_focused_on_gpu(const RecordParams& params, const std::vector<std::uint32_t>& blocks,
                            std::uint64_t events_per_block, const gpu::DeviceStatus& status) {
  using K = RecordError::Kind;
  const std::uint64_t need = blocks.size() * events_per_block * sizeof(Event);
  if (status.free_bytes && need > status.free_bytes * 9 / 10)
    throw RecordError(K::TooLarge, std::to_string(blocks.size()) + " blocks need about " +
                                       std::to_string(need >> 20) + " MiB of GPU memory for their events and " +
                                       status.name + " has " + std::to_string(status.free_bytes >> 20) + " MiB free");
  Trace t = prepare_launch(params);
  try {
    const gpu::LaunchDeadline deadline(params.timeout_seconds);
    gpu::record_launch(params.kernel, t, blocks);
  } catch (const gpu::GpuTimeout& e) {
    throw RecordError(K::GpuTimedOut, std::string("recording on the GPU: ") + e.what());
  } catch (const gpu::GpuError& e) {
    throw RecordError(K::GpuFailed, std::string("recording on the GPU failed: ") + e.what());
  }
  t.launch.recorder = "gpu";
  t.launch.device_name = status.name;
  t.launch.date = utc_now_iso8601();
  return t;
}

}  // namespace

Trace record_focused(const RecordParams& params, const std::vector<std::uint32_t>& blocks) {
  using K = RecordError::Kind;
  validate_shape(params);
  validate_trace_fits(params);
  const LaunchShape shape = launch_shape(params.kernel, params.tile, params.m, params.n);
  if (blocks.empty()) throw RecordError(K::InvalidParams, "a focused trace needs at least one block");
  if (!std::is_sorted(blocks.begin(), blocks.end()) || std::adjacent_find(blocks.begin(), blocks.end()) != blocks.end() ||
      blocks.back() >= shape.grid.count())
    throw RecordError(K::InvalidParams, "focused blocks must be distinct blocks of the grid, ascending");
  // The traced blocks' events (edge blocks make fewer: the mean of all bounds them
  // only on average, so twice it) and one offset per thread of the launch.
  const std::uint64_t per_block = 2 * (expected_counts(params.kernel, params.tile, params.m, params.n, params.k).total() /
                                           shape.grid.count() + 1);
  const std::uint64_t threads = shape.grid.count() * shape.block.count();
  const std::uint64_t need_events = blocks.size() * per_block + threads * sizeof(std::uint64_t) / sizeof(Event);
  const std::uint64_t limit = params.event_limit ? params.event_limit : default_event_limit();
  if (need_events > limit)
    throw RecordError(K::TooLarge, std::to_string(blocks.size()) + " blocks of M=" + std::to_string(params.m) +
                                       " N=" + std::to_string(params.n) + " K=" + std::to_string(params.k) +
                                       " need about " + std::to_string(need_events * sizeof(Event) >> 20) +
                                       " MiB (their events and the launch's thread offsets); the recording limit is " +
                                       std::to_string(limit * sizeof(Event) >> 20) + " MiB");
  gpu::DeviceStatus gpu_status;
  if (choose_gpu(params, gpu_status)) return record_focused_on_gpu(params, blocks, per_block, gpu_status);
  Trace t = prepare_launch(params);
  const std::uint32_t per = t.launch.threads_per_block();
  struct Kept {
    std::vector<std::uint64_t> counts;
    std::vector<Event> events;
  };
  std::vector<Kept> kept(blocks.size());
  std::mutex mutex;
  try {
    emu::stream_launch(
        params.kernel, t, params.cpu_workers,
        [&](unsigned, std::uint32_t block, const Trace& one) {
          const auto at = static_cast<std::size_t>(std::lower_bound(blocks.begin(), blocks.end(), block) - blocks.begin());
          Kept k;
          k.counts.resize(per);
          for (std::uint32_t i = 0; i < per; ++i) k.counts[i] = one.thread_offsets[i + 1] - one.thread_offsets[i];
          k.events.assign(one.events.data(), one.events.data() + one.thread_offsets.back());
          std::lock_guard lock(mutex);
          kept[at] = std::move(k);
          t.launch.buffers = one.launch.buffers;  // the shared tiles' offsets, as the emulator laid them out
          t.launch.regions = one.launch.regions;
        },
        blocks, params.timeout_seconds);
  } catch (const emu::TimedOutError& e) {
    throw RecordError(K::TimedOut, std::string("the emulator stopped: ") + e.what());
  } catch (const emu::EmulatorError& e) {
    throw RecordError(K::EmulatorFailed, std::string("the emulator stopped: ") + e.what());
  }
  t.thread_offsets.assign(threads + 1, 0);
  for (std::size_t i = 0; i < blocks.size(); ++i)
    for (std::uint32_t th = 0; th < per; ++th) t.thread_offsets[std::uint64_t{blocks[i]} * per + th + 1] = kept[i].counts[th];
  for (std::uint64_t th = 0; th < threads; ++th) t.thread_offsets[th + 1] += t.thread_offsets[th];
  t.events = EventBuffer(t.thread_offsets.back());
  for (std::size_t i = 0; i < blocks.size(); ++i)
    std::copy(kept[i].events.begin(), kept[i].events.end(),
              t.events.data() + t.thread_offsets[std::uint64_t{blocks[i]} * per]);
  t.launch.traced_blocks = blocks;
  t.launch.recorder = "emulator";
  t.launch.device_name = "CPU emulator";
  t.launch.date = utc_now_iso8601();
  return t;
}

std::uint64_t blocks_per_wave(KernelKind kind, int tile, const std::string& preset_name, std::string& why) {
  const auto preset = find_gpu_preset(preset_name);
  if (!preset) {
    why = "unknown GPU preset '" + preset_name + "' (choose one of " + gpu_preset_names() + ")";
    return 0;
  }
  const auto resources = compiled_kernel_resources(preset->compute_capability, kind, tile);
  if (!resources) {
    why = "no wave size: this build has no compiler resource usage for sm_" +
          std::to_string(preset->compute_capability) + " (built without the CUDA Toolkit)";
    return 0;
  }
  const Occupancy occ = compute_occupancy(preset_limits(*preset), *resources);
  if (occ.blocks_per_sm <= 0) why = "no wave size: " + occ.unlaunchable;
  return std::uint64_t(std::max(0, occ.blocks_per_sm)) * std::uint64_t(preset->sm_count);
}

}  // namespace ts
