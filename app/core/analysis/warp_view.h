// warp_view.h — what the app draws for one warp at one step: its requests in
// program order, and for each, lane -> address -> sector (global) or lane ->
// bank -> word (shared), with the request's cost.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "app/core/analysis/bank_conflicts.h"
#include "app/core/analysis/coalescing.h"
#include "app/core/analysis/warp_requests.h"
#include "app/core/replay.h"
#include "trace/trace.h"

namespace ts {

struct LaneView {
  std::uint32_t lane = 0;
  std::uint64_t event = 0;
  ElementCoord element{};      // of the request's array
  std::uint64_t address = 0;   // global: device address; shared: offset in the block's window
  std::uint32_t sector = 0;    // global: index into WarpRequestView::sectors
  std::uint32_t bank = 0;      // shared: the bank of the word
  std::uint32_t wavefront = 0;  // shared: the wavefront (an index into WarpRequestView::wavefronts) that delivers its (first) word
};

struct WarpRequestView {
  WarpRequest request;
  std::vector<LaneView> lanes;  // the active lanes, ascending
  // Global requests.
  std::vector<std::uint64_t> sectors;  // touched sector numbers (address / 32), ascending
  GlobalFootprint footprint;
  // A cp.async copy's read: the wavefronts its write takes for the further lines it reads (bank_conflicts.h).
  std::uint32_t copy_line_wavefronts = 0;
  // Shared requests.
  BankAccess banks;
  std::vector<BankWavefront> wavefronts;  // as many as banks.wavefronts()
};

// The requests of warp `warp` of block `block` whose step (k-iteration; the
// last is C's store) is `step`, in the order the warp issued them.
std::vector<WarpRequestView> warp_request_views(const Trace& trace, std::uint32_t block, std::uint32_t warp,
                                                std::uint32_t step);
// The same from a WarpAligner that align(block, warp, true) already ran on:
// a viewer following the replay aligns the warp once, not at every step.
std::vector<WarpRequestView> warp_request_views(const Trace& trace, const WarpAligner& aligned, std::uint32_t step);

// The requests a replay step is about, to follow the replay (indices into
// views, in issue order): the copy of the tiles in a Load step (loads of A and
// B, stores to As and Bs), the loads at k in a Mac step (of As and Bs, or of A
// and B for the naive kernels), the store of C in the Store step. Empty for a
// barrier, or when the warp made no request then.
std::vector<std::size_t> requests_at(const std::vector<WarpRequestView>& views, const ReplayStep& step,
                                     const ReplayTimeline& timeline);
// Of those, the costliest (most sectors, or most wavefronts): what to show first.
std::optional<std::size_t> costliest(const std::vector<WarpRequestView>& views, const std::vector<std::size_t>& among);

}  // namespace ts
