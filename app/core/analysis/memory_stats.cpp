// memory_stats.cpp — requests, sectors and wavefronts over a whole trace, a
// block or a warp.
#include "app/core/analysis/memory_stats.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "app/core/analysis/bank_conflicts.h"
#include "app/core/analysis/compiled_loads.h"

namespace ts {

void count_request(MemoryStats& stats, const WarpRequest& r, std::span<const std::uint64_t> addresses,
                   std::span<const std::uint32_t> lanes) {
  count_request(stats.of(static_cast<std::uint32_t>(r.array), r.space())[static_cast<int>(r.op)], r, addresses, lanes);
  // A copy's read: its write's wavefronts for the further source lines (bank_conflicts.h).
  if (r.copy_to >= 0)
    if (const std::uint32_t further = copy_line_wavefronts(addresses, lanes, r.width_bytes()); further != 0) {
      AccessTotals& write = stats.of(static_cast<std::uint32_t>(r.copy_to), Space::Shared)[static_cast<int>(Op::Store)];
      write.wavefronts += further;
      write.bank_conflicts += further;
    }
}

void count_request(AccessTotals& t, const WarpRequest& r, std::span<const std::uint64_t> addresses,
                   std::span<const std::uint32_t> lanes) {
  ++t.requests;
  t.accesses += addresses.size();
  if (r.space() == Space::Global) {
    const GlobalFootprint f = global_footprint(addresses, r.width_bytes());
    t.sectors += f.sectors;
    t.lines += f.lines;
    t.ideal_sectors += f.ideal_sectors();
    ++t.histogram[std::min<std::uint32_t>(f.sectors, kWarpSize)];
  } else {
    const BankAccess b = shared_bank_access(addresses, r.width_bytes(), lanes, r.op);
    t.wavefronts += b.wavefronts();
    t.bank_conflicts += b.conflicts();
    t.broadcast_lanes += b.broadcast_lanes;
    ++t.histogram[std::min<std::uint32_t>(b.ways, kWarpSize)];
  }
}

namespace {

bool is_shared_load(const WarpRequest& r) { return r.space() == Space::Shared && r.op == Op::Load; }

// One request into `at`; a shared load also into the compiled loads, unless
// it joined its family (which adds it, merged, when its epoch ends).
void add_request(MemoryStats& at, const WarpAligner& aligner, const WarpRequest& r, bool joined) {
  if (!is_shared_load(r)) return count_request(at, r, aligner.addresses(r), aligner.lane_numbers(r));
  AccessTotals one;
  count_request(one, r, aligner.addresses(r), aligner.lane_numbers(r));
  at.of(static_cast<std::uint32_t>(r.array), Space::Shared)[static_cast<int>(Op::Load)].add(one);
  if (!joined) at.compiled_of(static_cast<std::uint32_t>(r.array)).add(one);
}

// Every request of the warp `aligner` aligned, and its shared loads as
// compiled, each into at(its step): the stats to add it to, or null.
template <class At>
void count_aligned(const WarpAligner& aligner, CompiledLoads& compiled, At&& at) {
  compiled.start(aligner.trace().launch);
  const CompiledLoadSink merged = [&](const WarpRequest& r, const AccessTotals& cost) {
    if (MemoryStats* s = at(r.iter)) s->compiled_of(static_cast<std::uint32_t>(r.array)).add(cost);
  };
  for (const WarpRequest& r : aligner.requests()) {
    const bool joined = is_shared_load(r) && compiled.join(r, aligner.addresses(r), aligner.lane_numbers(r), merged);
    if (MemoryStats* s = at(r.iter)) add_request(*s, aligner, r, joined);
  }
  compiled.finish(merged);
}

// Every request of one warp (of one step), and its shared loads as compiled.
void count_warp(MemoryStats& stats, WarpAligner& aligner, CompiledLoads& compiled, std::uint32_t block,
                std::uint32_t warp, std::uint32_t step) {
  aligner.align(block, warp);
  count_aligned(aligner, compiled,
                [&](std::uint32_t iter) { return step == kAllSteps || iter == step ? &stats : nullptr; });
}

}  // namespace

MemoryStats analyze_memory(const Trace& trace, unsigned workers, std::uint32_t step) {
  const auto blocks = static_cast<std::uint32_t>(trace.launch.grid.count());
  const std::uint32_t warps = warps_per_block(trace.launch);
  if (workers == 0) workers = std::max(1u, std::thread::hardware_concurrency());
  workers = std::max(1u, std::min<unsigned>(workers, blocks));
  constexpr std::uint32_t kBlocksPerGrab = 8;  // few enough grabs to keep the counter cold
  std::atomic<std::uint32_t> next{0};
  std::vector<MemoryStats> partial(workers);
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](unsigned w) {
    try {
      WarpAligner aligner(trace);
      CompiledLoads compiled;
      for (std::uint32_t b0; (b0 = next.fetch_add(kBlocksPerGrab)) < blocks;)
        for (std::uint32_t b = b0; b < std::min(blocks, b0 + kBlocksPerGrab); ++b)
          for (std::uint32_t warp = 0; warp < warps; ++warp) count_warp(partial[w], aligner, compiled, b, warp, step);
      partial[w].alignment.add(aligner.alignment());
    } catch (...) {  // out of memory in a worker: hand it to the caller
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      next = blocks;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work, w);
  work(0);
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  MemoryStats total;
  for (const MemoryStats& p : partial) total.add(p);
  return total;
}

MemoryStats analyze_block(const Trace& trace, std::uint32_t block, std::uint32_t step) {
  MemoryStats s;
  WarpAligner aligner(trace);
  CompiledLoads compiled;
  for (std::uint32_t warp = 0, n = warps_per_block(trace.launch); warp < n; ++warp)
    count_warp(s, aligner, compiled, block, warp, step);
  s.alignment = aligner.alignment();
  return s;
}

MemoryStats analyze_warp(const Trace& trace, std::uint32_t block, std::uint32_t warp, std::uint32_t step) {
  MemoryStats s;
  WarpAligner aligner(trace);
  CompiledLoads compiled;
  count_warp(s, aligner, compiled, block, warp, step);
  s.alignment = aligner.alignment();
  return s;
}

BlockStepStats::BlockStepStats(const Trace& trace, std::uint32_t block) {
  const std::uint32_t n = warps_per_block(trace.launch);
  warps_.resize(n);
  CompiledLoads compiled;
  for (std::uint32_t w = 0; w < n; ++w) {
    WarpAligner aligner(trace);  // one per warp: its alignment counts are the warp's alone
    aligner.align(block, w);
    count_aligned(aligner, compiled, [&](std::uint32_t iter) { return &warps_[w].by_step[iter]; });
    warps_[w].alignment = aligner.alignment();
  }
}

MemoryStats BlockStepStats::warp(std::uint32_t warp, std::uint32_t step) const {
  MemoryStats s;
  if (warp >= warps_.size()) return s;
  const Warp& w = warps_[warp];
  if (step == kAllSteps)
    for (const auto& [_, stats] : w.by_step) s.add(stats);
  else if (const auto it = w.by_step.find(step); it != w.by_step.end())
    s = it->second;
  s.alignment = w.alignment;
  return s;
}

MemoryStats BlockStepStats::block(std::uint32_t step) const {
  MemoryStats s;
  for (std::uint32_t w = 0; w < warps_.size(); ++w) s.add(warp(w, step));
  return s;
}

nlohmann::json memory_counters_json(const MemoryStats& s) {
  const AccessTotals gl = s.total(Space::Global, Op::Load), gs = s.total(Space::Global, Op::Store);
  const AccessTotals sl = s.total(Space::Shared, Op::Load), ss = s.total(Space::Shared, Op::Store);
  const AccessTotals cl = s.compiled_shared_load_totals();
  return {{"global_load_requests", gl.requests},      {"global_load_sectors", gl.sectors},
          {"global_load_lines", gl.lines},            {"global_store_requests", gs.requests},
          {"global_store_sectors", gs.sectors},       {"global_store_lines", gs.lines},
          {"shared_load_requests", sl.requests},      {"shared_load_wavefronts", sl.wavefronts},
          {"shared_store_requests", ss.requests},     {"shared_store_wavefronts", ss.wavefronts},
          {"shared_bank_conflicts_load", sl.bank_conflicts},
          {"shared_bank_conflicts_store", ss.bank_conflicts},
          {"shared_load_requests_compiled", cl.requests},
          {"shared_load_wavefronts_compiled", cl.wavefronts},
          {"shared_bank_conflicts_load_compiled", cl.bank_conflicts}};
}

namespace {

nlohmann::json totals_json(Space space, const AccessTotals& t) {
  nlohmann::json histogram = nlohmann::json::object();
  for (std::size_t i = 0; i < t.histogram.size(); ++i)
    if (t.histogram[i] != 0) histogram[std::to_string(i)] = t.histogram[i];
  nlohmann::json j = {{"requests", t.requests}, {"accesses", t.accesses}};
  if (space == Space::Global) {
    j["sectors"] = t.sectors;
    j["lines"] = t.lines;
    j["ideal_sectors"] = t.ideal_sectors;
    j["sectors_per_request"] = t.per_request();
    j["requests_by_sectors"] = histogram;
  } else {
    j["wavefronts"] = t.wavefronts;
    j["bank_conflicts"] = t.bank_conflicts;
    j["broadcast_lanes"] = t.broadcast_lanes;
    j["wavefronts_per_request"] = t.per_request();
    j["requests_by_ways"] = histogram;
  }
  return j;
}

}  // namespace

nlohmann::json memory_details_json(const LaunchInfo& launch, const MemoryStats& s) {
  nlohmann::json by_array = nlohmann::json::object();
  for (std::uint32_t a = 0; a < launch.memory_count(); ++a) {
    nlohmann::json ops = nlohmann::json::object();
    for (int op = 0; op < 2; ++op)
      if (s.by_array[a][op].requests != 0) ops[op_name(static_cast<Op>(op))] = totals_json(launch.space_of_id(a), s.by_array[a][op]);
    by_array[launch.memory_name(a)] = ops;
  }
  return {{"by_array", by_array},
          {"alignment",
           {{"partial_groups", s.alignment.partial_groups},
            {"realigned_lanes", s.alignment.realigned_lanes},
            {"unresolved_lanes", s.alignment.unresolved_lanes}}}};
}

}  // namespace ts
