// reuse.h — how often each input element was fetched from global memory, how
// many bytes that adds up to against the minimum, and how many times each
// value staged in shared memory was read before it was overwritten.
//
// The arithmetic intensity here is the kernel's own: FLOPs (2 M N K) per byte
// its threads load from global memory, with no cache in between (seed 003's
// 0.25 FLOP/byte for the naive kernel, TILE / 4 for the tiled one). The
// ideal one divides by the minimum traffic instead: each input read once and
// C written once.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/trace.h"

namespace ts {

struct ReuseStats {
  // The heatmaps: global loads of each element of A and B (index row * ld + col).
  std::vector<std::uint32_t> a_loads, b_loads;
  std::uint32_t a_min = 0, a_max = 0, b_min = 0, b_max = 0;

  std::uint64_t global_loads = 0, global_stores = 0;  // thread-level accesses
  std::uint64_t global_bytes_loaded = 0, global_bytes_stored = 0;
  // A focused trace's: of its traced blocks (the elements of A and B they read, the cells of C they store).
  std::uint64_t min_bytes = 0;  // (M K + K N + M N) * 4
  std::uint64_t flops = 0;      // 2 M N K
  double arithmetic_intensity = 0, ideal_arithmetic_intensity = 0;

  // Shared memory: values copied from global memory into a tile, the zeros
  // written for slots outside the matrices, and the loads that read a staged
  // value before the next store to its slot.
  std::uint64_t staged_values = 0, padding_values = 0, staged_reads = 0;
  std::uint32_t staged_reads_min = 0, staged_reads_max = 0;
  double staged_reads_mean() const {
    return staged_values ? static_cast<double>(staged_reads) / static_cast<double>(staged_values) : 0.0;
  }
};

ReuseStats analyze_reuse(const Trace& trace);

// Fills what follows from the loads: per-element min and max, bytes, FLOPs,
// arithmetic intensity (global_loads, global_stores and the per-element counts set).
void complete_reuse(ReuseStats& reuse, const LaunchInfo& launch);

// analyze_reuse one block at a time, for counters taken while a launch streams
// past (app/counters/counter.h): each worker adds the blocks it ran, then the
// workers' accumulators merge. The per-element load counts are the caller's,
// shared by the workers and incremented atomically when `atomic` is set.
class ReuseAccumulator {
 public:
  explicit ReuseAccumulator(const LaunchInfo& launch);
  void add_block(const Trace& trace, std::uint32_t block, std::span<std::uint32_t> a_loads,
                 std::span<std::uint32_t> b_loads, bool atomic);
  void merge(const ReuseAccumulator& other);
  // The totals, with the per-element counts moved in.
  ReuseStats finish(const LaunchInfo& launch, std::vector<std::uint32_t> a_loads, std::vector<std::uint32_t> b_loads) const;
  std::uint64_t memory_bytes() const;

 private:
  enum class Slot : std::uint8_t { Empty, Staged, Padding };
  struct SharedTileState {
    std::vector<Slot> slot;
    std::vector<std::uint32_t> reads;
  };
  void shared_store(SharedTileState& t, std::uint32_t word, bool padding);
  void retire(SharedTileState& t, std::uint32_t word);

  std::uint32_t a_id_, b_id_;           // the memory ids of A and B (by role)
  std::vector<SharedTileState> tiles_;  // per memory id: the shared regions' words
  ReuseStats sums_;  // the scalars only
  std::uint32_t staged_min_ = 0xFFFFFFFFu;
};

// The flat counters of `tilescope stats --json` (global_bytes_loaded, min_bytes, arithmetic_intensity, ...).
nlohmann::json reuse_counters_json(const ReuseStats& reuse);

}  // namespace ts
