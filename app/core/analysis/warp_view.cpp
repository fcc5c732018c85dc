// warp_view.cpp — one warp's requests at one step, laid out for the warp and bank views.
#include "app/core/analysis/warp_view.h"

#include <algorithm>

namespace ts {

std::vector<WarpRequestView> warp_request_views(const Trace& trace, std::uint32_t block, std::uint32_t warp,
                                                std::uint32_t step) {
  WarpAligner aligner(trace);
  aligner.align(block, warp, true);
  return warp_request_views(trace, aligner, step);
}

std::vector<WarpRequestView> warp_request_views(const Trace& trace, const WarpAligner& aligner, std::uint32_t step) {
  std::vector<WarpRequestView> out;
  for (const WarpRequest& r : aligner.requests()) {
    if (r.iter != step) continue;
    WarpRequestView v;
    v.request = r;
    const auto lanes = aligner.lanes(r);
    const auto addresses = aligner.addresses(r);
    std::vector<std::uint32_t> lane_numbers;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
      LaneView l;
      l.lane = lanes[i].lane;
      l.event = lanes[i].event;
      l.element = trace.element(r.array, trace.events[l.event].index);
      l.address = addresses[i];
      v.lanes.push_back(l);
      lane_numbers.push_back(l.lane);
    }
    if (r.space() == Space::Global) {
      v.footprint = global_footprint(addresses, r.width_bytes());
      v.sectors = touched_sectors(addresses, r.width_bytes());
      if (r.copy_to >= 0) v.copy_line_wavefronts = copy_line_wavefronts(addresses, lane_numbers, r.width_bytes());
      for (LaneView& l : v.lanes)
        l.sector = static_cast<std::uint32_t>(std::lower_bound(v.sectors.begin(), v.sectors.end(), l.address / kSectorBytes) -
                                              v.sectors.begin());
    } else {
      v.banks = shared_bank_access(addresses, r.width_bytes(), lane_numbers, r.op);
      v.wavefronts = bank_wavefronts(addresses, r.width_bytes(), lane_numbers, r.op);
      // The wavefront that delivers each lane's (first) word.
      for (LaneView& l : v.lanes) {
        l.bank = bank_of(l.address);
        const auto word = static_cast<std::int64_t>(l.address / kBankWordBytes);
        for (std::uint32_t w = 0; w < v.wavefronts.size(); ++w)
          if (v.wavefronts[w].word[l.bank] == word && (v.wavefronts[w].lanes[l.bank] >> (l.lane % 32) & 1u)) {
            l.wavefront = w;
            break;
          }
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

namespace {
bool is_global_store(const WarpRequest& r) { return r.space() == Space::Global && r.op == Op::Store; }
}  // namespace

std::vector<std::size_t> requests_at(const std::vector<WarpRequestView>& views, const ReplayStep& step,
                                     const ReplayTimeline& timeline) {
  std::vector<std::size_t> out;
  switch (step.phase) {
    case Phase::Store:
      // C's store: the global stores of the last step (the views are that step's).
      for (std::size_t i = 0; i < views.size(); ++i)
        if (is_global_store(views[i].request)) out.push_back(i);
      break;
    case Phase::Load: {
      // The copy: everything in the iteration's first epoch.
      std::uint32_t first_epoch = ~0u;
      for (const WarpRequestView& v : views) first_epoch = std::min<std::uint32_t>(first_epoch, v.request.epoch);
      for (std::size_t i = 0; i < views.size(); ++i)
        if (views[i].request.epoch == first_epoch && !is_global_store(views[i].request)) out.push_back(i);
      break;
    }
    case Phase::Mac: {
      // The loads the multiply-accumulate reads: shared ones for the staged
      // kernels, global ones for the naive kernels. Each buffer's or
      // region's requests of this step spread evenly over the iteration's k's.
      const Space space = timeline.staged() ? Space::Shared : Space::Global;
      const std::uint32_t macs = timeline.macs_in(step.iteration);
      std::vector<std::vector<std::size_t>> reads(kMaxMemoryIds);
      for (std::size_t i = 0; i < views.size(); ++i)
        if (views[i].request.space() == space && views[i].request.op == Op::Load)
          reads[static_cast<std::size_t>(views[i].request.array)].push_back(i);
      for (const std::vector<std::size_t>& r : reads) {
        if (r.empty() || macs == 0) continue;
        out.push_back(r[std::min<std::size_t>(r.size() - 1, std::size_t{step.k} * r.size() / macs)]);
      }
      std::sort(out.begin(), out.end());
      break;
    }
    default:
      break;
  }
  return out;
}

std::optional<std::size_t> costliest(const std::vector<WarpRequestView>& views, const std::vector<std::size_t>& among) {
  std::optional<std::size_t> best;
  std::uint32_t best_cost = 0;
  for (std::size_t i : among) {
    const WarpRequestView& v = views[i];
    const std::uint32_t cost = v.request.space() == Space::Global ? v.footprint.sectors : v.banks.wavefronts();
    if (!best || cost > best_cost) best = i, best_cost = cost;
  }
  return best;
}

}  // namespace ts
