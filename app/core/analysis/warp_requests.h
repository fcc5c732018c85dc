// warp_requests.h — rebuild the warp-level memory requests a GPU issues from
// a trace's per-thread events.
//
// A trace stores each thread's accesses in program order, but not which
// instruction made them. The lanes of a warp run the same instruction stream,
// so within one barrier epoch the n-th access a lane makes to an (array, op)
// pair comes from the same instruction as the n-th such access of every other
// lane: that access, over the warp's lanes, is one request. Lanes that a
// branch switched off make no access. When a lane made fewer accesses of a
// kind than another lane in the same epoch, it skipped some instructions, and
// which ones is not recorded: the lane is matched to the instructions at which
// its addresses keep one constant distance from a lane that made them all (the
// kernels' indices are affine in the lane), or, failing that, to the first ones.
// A vector access (8 or 16 bytes) is one lane's part of one instruction: its
// elements' events count once, and a request's lane event and address are
// those of the access's first element. An mma A fragment (ldmatrix.x4, see
// event.h) is one request too, and its addresses are the rows the lanes point
// at, as the banks see them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "app/core/analysis/coalescing.h"
#include "app/core/analysis/epoch_runs.h"
#include "trace/model/memory_counts.h"
#include "trace/trace.h"

namespace ts {

struct LaneEvent {
  std::uint32_t lane = 0;   // lane in the warp, 0..31
  std::uint64_t event = 0;  // index into Trace::events
};

struct WarpRequest {
  ArrayId array = ArrayId::A;  // its memory id: a buffer or region of the launch (ArrayId's names are own kernels')
  Space memory_space = Space::Global;  // of that memory id
  Space space() const { return memory_space; }
  Op op = Op::Load;
  std::uint16_t epoch = 0;   // barriers passed
  std::uint16_t iter = 0;    // k-iteration (the step), from the first lane's event
  std::uint32_t ordinal = 0;  // n-th access of this (array, op) in the epoch
  std::uint32_t first = 0, count = 0;  // into WarpAligner::lanes() and addresses()
  Width width = Width::B4;    // bytes each lane moves
  bool async = false;         // a cp.async copy's global read or shared write
  // A cp.async copy's global read: the shared region its lanes write (memory id), -1 for any other request.
  std::int16_t copy_to = -1;
  std::uint32_t width_bytes() const { return bytes_of(width); }
};

std::uint32_t warps_per_block(const LaunchInfo& launch);

class WarpAligner {
 public:
  explicit WarpAligner(const Trace& trace) : trace_(&trace) {}

  // Rebuilds the requests of one warp. program_order sorts them the way the
  // warp issued them (the viewer steps through them); totals do not need it.
  void align(std::uint32_t block, std::uint32_t warp, bool program_order = false);

  std::span<const WarpRequest> requests() const { return requests_; }
  // The active lanes of a request, ascending, and their byte addresses (global:
  // device addresses; shared: offsets in the block's shared window), each the
  // first of width_bytes() bytes.
  std::span<const LaneEvent> lanes(const WarpRequest& r) const { return {lanes_.data() + r.first, r.count}; }
  std::span<const std::uint64_t> addresses(const WarpRequest& r) const { return {addresses_.data() + r.first, r.count}; }
  std::span<const std::uint32_t> lane_numbers(const WarpRequest& r) const { return {lane_numbers_.data() + r.first, r.count}; }

  // Accumulated over every align() call.
  const AlignmentCounts& alignment() const { return alignment_; }
  const Trace& trace() const { return *trace_; }

 private:
  void align_epoch(std::uint16_t epoch);
  template <class Slot>
  void emit_rows(std::uint16_t epoch, int combo, std::uint32_t rows, Slot&& slot);
  void realign_partial_lanes(std::uint64_t* rows, std::uint32_t row_count, const std::uint32_t* lane_counts);
  void ldmatrix_addresses(const WarpRequest& req);
  std::int16_t copy_destination(const WarpRequest& req) const;

  const Trace* trace_;
  std::uint64_t first_thread_ = 0;
  std::uint32_t lane_count_ = 0;
  EpochRuns runs_;
  // An epoch's kinds of access: its memory ids ranked, and per combo the rows and counts.
  std::array<std::int16_t, kMaxMemoryIds> rank_{};
  std::vector<std::uint8_t> memory_of_rank_;
  int combos_ = 0;
  std::vector<std::uint32_t> counts_, rows_, first_row_, next_;  // counts_, next_: [combo][lane]
  std::vector<std::uint64_t> offset_, fill_;                     // [combo][lane], the sparse path's
  std::vector<std::uint64_t> slots_;  // [combo rows][lane] -> event + 1, 0 = none
  std::vector<std::uint64_t> sparse_;  // [combo][lane] -> its events, when slots_ would be too large
  std::vector<std::uint64_t> order_;  // per request: where the warp issued it in its epoch
  std::vector<std::int64_t> ref_index_, lane_index_;
  std::vector<std::uint32_t> matched_rows_;
  std::vector<std::uint64_t> moved_;
  std::vector<WarpRequest> requests_;
  std::vector<LaneEvent> lanes_;
  std::vector<std::uint64_t> addresses_;
  std::vector<std::uint32_t> lane_numbers_;
  AlignmentCounts alignment_;
};

}  // namespace ts
