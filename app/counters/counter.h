// counter.h — whole-launch counters at any size, without keeping the launch's
// events: `tilescope counters` and the counters next to a focused trace.
//
// The emulator streams the blocks through the analysis (each worker records
// one block into a block-sized buffer, analyses it and adds it up); the GPU
// runs the counting build of the kernels, which groups each warp's accesses on
// the device. Either way the numbers are those `tilescope stats` computes from
// a full trace of the same launch, under the same JSON keys.
//
// It runs the kernels (kernels/) and counts with the analysis (app/core), so
// it sits above both; the command line and the app show what it counts.
#pragma once

#include <cstdint>
#include <functional>

#include <nlohmann/json.hpp>

#include "app/core/stats.h"
#include "trace/trace.h"
#include "kernels/recorder.h"

namespace ts {

struct LaunchCounters {
  LaunchInfo launch;  // as for a trace: recorder, device, date, seed, shared bases
  std::uint64_t events = 0, threads = 0;
  TraceStats stats;
  std::vector<float> c;  // the kernel's result
  // Memory this path holds at its largest, by what holds it: the inputs and C,
  // the per-element load counts, and per worker one block's events (emulator)
  // or the device's counters (GPU).
  std::uint64_t peak_bytes = 0, inputs_bytes = 0, element_counts_bytes = 0, block_buffers_bytes = 0;
  bool shared_reuse_counted = true;  // the GPU counts no per-slot reads of staged values
  // GPU: requests a warp counted before all its lanes had joined (too many
  // partial requests open at once); 0 means every request is grouped as a
  // trace's analysis groups it.
  std::uint64_t split_requests = 0;
};

// The memory the counters need for params, before running (for the up-front refusal).
std::uint64_t counters_memory_estimate(const RecordParams& params, unsigned workers);

// Checks params (not against the event limit: no events are kept) and memory;
// throws RecordError. on_block, when set, also sees each block of an emulator
// run as a one-block trace (a focused trace keeps the blocks it wants).
using CountedBlockHook = std::function<void(std::uint32_t block, const Trace& one_block)>;
LaunchCounters count_launch(const RecordParams& params, const CountedBlockHook& on_block = {});

// `tilescope stats --json`'s keys, plus "counted": true and "peak_memory".
nlohmann::json counters_to_json(const LaunchCounters& counters);

}  // namespace ts
