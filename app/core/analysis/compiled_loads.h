// compiled_loads.h — a warp's shared loads as the compiler issues them.
//
// The trace records each float the source reads: `As[ty][k]` in an unrolled
// k loop is one 4-byte load per k. ptxas reads four adjacent words of one
// thread with one LDS.128 (two with LDS.64) when it can see that they are
// adjacent and 16- (8-) byte aligned, which is what Nsight Compute counts.
// The model of that, the same here and in the GPU's counting build
// (kernels/cuda/mode_counted.cuh):
//
// Per warp, barrier epoch and shared array, the epoch's first 4-byte load of
// the array sets a family: its lanes and their words b[l]. A later 4-byte
// load of the array joins the family when it has the same lanes and its words
// are b[l] + d for one d (the same base register and an immediate offset, as
// the compiler sees it), with |d| < 2^15 words, d not yet in the family and
// fewer than kFamilyLoads offsets in it. At the end of the epoch the family's
// offsets are read in ascending order: four offsets d..d+3 whose words are
// 16-byte aligned in every lane (b[l] + d a multiple of 4, counted from the
// start of the array: the compiler places a shared array at a 16-byte
// boundary) become one 16-byte load, two whose words are 8-byte aligned one
// 8-byte load, and any other offset stays a 4-byte load. Every other shared
// load (vector loads, loads that do not join) is counted as it is.
//
// A model, not the compiler: it does not know what ptxas can prove (a dynamic
// index that happens to be aligned is merged here; the compiler may not) or
// where it stops unrolling.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/warp_requests.h"

namespace ts {

// The most offsets a family holds and the largest offset, kFamilyLoads and
// kFamilyReach, are in trace/model/memory_counts.h: the counting build checks its own against them.

// A merged shared load: the request (width and iter set) and what it costs,
// as count_request counts it.
using CompiledLoadSink = std::function<void(const WarpRequest& request, const AccessTotals& cost)>;

// One warp's shared loads, fed in the order a WarpAligner gives them (epoch by
// epoch). Kept across warps, so that its buffers are reused.
class CompiledLoads {
 public:
  CompiledLoads();
  ~CompiledLoads();
  CompiledLoads(const CompiledLoads&) = delete;
  CompiledLoads& operator=(const CompiledLoads&) = delete;

  // A new warp of a launch laid out as `launch` (its shared arrays' bases).
  void start(const LaunchInfo& launch);
  // A shared load: false when it counts as compiled as it is; true when it
  // joined its family, whose loads `merged` receives, merged, when its epoch
  // ends (at a later load's new epoch, or at finish). A family's loads differ
  // only by a shift common to all lanes, which moves every lane's words to
  // other banks alike: they cost the same, counted once per width.
  bool join(const WarpRequest& request, std::span<const std::uint64_t> addresses, std::span<const std::uint32_t> lanes,
            const CompiledLoadSink& merged);
  // The warp is done: its last epoch's families go to `merged`.
  void finish(const CompiledLoadSink& merged);

 private:
  struct Family;
  void open(Family& f, const WarpRequest& r, std::span<const std::uint64_t> addresses,
            std::span<const std::uint32_t> lanes);
  void close(Family& f, const CompiledLoadSink& merged);
  void end_epoch(const CompiledLoadSink& merged);

  std::uint16_t epoch_ = 0;
  std::uint64_t array_base_[kMaxMemoryIds] = {};  // where each buffer or region starts
  std::unique_ptr<Family[]> families_;            // per memory id
  std::vector<std::uint8_t> open_;                // the ids whose family is open
  std::vector<std::uint64_t> addresses_;
};

}  // namespace ts
