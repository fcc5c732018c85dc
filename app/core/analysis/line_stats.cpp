// line_stats.cpp — requests, sectors, wavefronts and reloads per source line.
#include "app/core/analysis/line_stats.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace ts {
namespace {

// A global element a line loaded: the array in the top bits.
std::uint64_t element_key(const Event& e, std::uint32_t i) {
  return (std::uint64_t{e.array} << 32) | (e.index + i);
}

std::uint64_t count_distinct(std::vector<std::uint64_t>& keys) {
  std::sort(keys.begin(), keys.end());
  return static_cast<std::uint64_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
}

struct LineWork {
  LineStats stats;
  std::vector<std::uint64_t> block_keys, launch_keys;  // global elements loaded, this block / all blocks
};

}  // namespace

double LineStats::loads_per_element() const {
  return launch_elements ? static_cast<double>(global_load_events) / static_cast<double>(launch_elements) : 0.0;
}

double LineStats::block_reloads() const {
  return block_elements ? static_cast<double>(request_elements) / static_cast<double>(block_elements) : 0.0;
}

std::vector<std::string> LineStats::findings() const {
  std::vector<std::string> out;
  char buf[200];
  for (Op op : {Op::Load, Op::Store}) {
    const AccessTotals g = memory.total(Space::Global, op);
    // A quarter more sectors than the data needs: the lanes' addresses are scattered or misaligned.
    if (g.requests && g.sectors * 4 > g.ideal_sectors * 5) {
      std::snprintf(buf, sizeof buf, "uncoalesced %ss: %.1f sectors per request where %.1f would do",
                    op_name(op), g.per_request(), double(g.ideal_sectors) / double(g.requests));
      out.emplace_back(buf);
    }
    const AccessTotals s = memory.total(Space::Shared, op);
    if (s.bank_conflicts) {
      std::snprintf(buf, sizeof buf, "up to %u-way bank conflicts on shared %ss: %llu extra wavefronts",
                    s.max_per_request(), op_name(op), static_cast<unsigned long long>(s.bank_conflicts));
      out.emplace_back(buf);
    }
  }
  if (block_reloads() > 1.0) {
    std::snprintf(buf, sizeof buf,
                  "re-loaded from global: each element by %.1f requests of the same block (staging it in shared "
                  "memory once would do)",
                  block_reloads());
    out.emplace_back(buf);
  }
  return out;
}

std::vector<LineStats> analyze_lines(const Trace& trace, std::span<const std::uint16_t> lines) {
  std::map<std::uint32_t, LineWork> by_line;
  const auto blocks = static_cast<std::uint32_t>(trace.launch.grid.count());
  const std::uint32_t warps = warps_per_block(trace.launch);
  WarpAligner aligner(trace);
  std::vector<std::uint64_t> request_keys;
  for (std::uint32_t b = 0; b < blocks; ++b) {
    for (std::uint32_t w = 0; w < warps; ++w) {
      aligner.align(b, w);
      for (const WarpRequest& r : aligner.requests()) {
        const auto lanes = aligner.lanes(r);
        LineWork& work = by_line[lines[lanes[0].event]];
        count_request(work.stats.memory, r, aligner.addresses(r), aligner.lane_numbers(r));
        if (r.space() != Space::Global || r.op != Op::Load) continue;
        request_keys.clear();
        for (const LaneEvent& l : lanes)
          for (std::uint32_t i = 0; i < floats_of(r.width); ++i) {
            request_keys.push_back(element_key(trace.events[l.event], i));
            work.block_keys.push_back(request_keys.back());
          }
        work.stats.global_load_events += request_keys.size();
        work.stats.request_elements += count_distinct(request_keys);
      }
    }
    for (auto& [line, work] : by_line) {
      if (work.block_keys.empty()) continue;
      work.stats.block_elements += count_distinct(work.block_keys);
      work.launch_keys.insert(work.launch_keys.end(), work.block_keys.begin(), work.block_keys.end());
      work.block_keys.clear();
      if (work.launch_keys.size() > (std::size_t{1} << 20)) {  // keep the launch's set small as it grows
        work.launch_keys.resize(count_distinct(work.launch_keys));
      }
    }
  }
  std::vector<LineStats> out;
  for (auto& [line, work] : by_line) {
    work.stats.line = line;
    work.stats.launch_elements = count_distinct(work.launch_keys);
    out.push_back(std::move(work.stats));
  }
  return out;
}

std::string line_memory_names(const LaunchInfo& launch, const LineStats& line) {
  std::string names;
  for (std::uint32_t id = 0; id < launch.memory_count() && id < kMaxMemoryIds; ++id) {
    if (line.memory.by_array[id][0].requests + line.memory.by_array[id][1].requests == 0) continue;
    if (!names.empty()) names += ' ';
    names += launch.memory_name(id);
  }
  return names;
}

nlohmann::json line_stats_json(const LaunchInfo& launch, std::span<const LineStats> stats,
                               std::span<const std::string> source) {
  nlohmann::json out = nlohmann::json::array();
  for (const LineStats& s : stats) {
    nlohmann::json j = memory_counters_json(s.memory);
    nlohmann::json by_array = nlohmann::json::object();
    const nlohmann::json details = memory_details_json(launch, s.memory);
    for (auto& [name, ops] : details.at("by_array").items())
      if (!ops.empty()) by_array[name] = ops;
    j["by_array"] = by_array;
    j["line"] = s.line;
    if (s.line >= 1 && s.line <= source.size()) j["source"] = source[s.line - 1];
    const AccessTotals gl = s.memory.total(Space::Global, Op::Load), gs = s.memory.total(Space::Global, Op::Store);
    j["global_ideal_sectors"] = gl.ideal_sectors + gs.ideal_sectors;
    j["global_load_events"] = s.global_load_events;
    j["loads_per_element"] = s.loads_per_element();
    j["block_reloads"] = s.block_reloads();
    j["findings"] = s.findings();
    out.push_back(j);
  }
  return out;
}

}  // namespace ts
