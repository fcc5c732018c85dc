// timing_file.cpp — timing recordings to and from JSON.
#include "app/core/timing_file.h"

#include <algorithm>
#include <fstream>
#include <optional>

#include "trace/json_integer.h"
#include "trace/launch_json.h"
#include "app/core/occupancy_json.h"
#include "app/core/safe_file.h"

namespace ts {
namespace {

using nlohmann::json;

// An integer field within [lo, hi]: a hostile file gets a message, not a wrap-around.
template <class T>
T bounded(const json& j, const char* key, long long lo, long long hi) {
  const std::optional<std::int64_t> v = json_integer<std::int64_t>(j.at(key));
  if (!v || *v < lo || *v > hi)
    throw TimingFileError(std::string("'") + key + "' is not an integer in " + std::to_string(lo) + ".." +
                          std::to_string(hi));
  return static_cast<T>(*v);
}

}  // namespace

json timing_to_json(const TimingRecording& r, bool with_blocks) {
  json j{{"format", "tilescope-timing"},
         {"version", 1},
         {"launch", launch_to_json(r.launch)},
         {"sm_count", r.sm_count},
         {"compute_capability", r.compute_capability},
         {"max_warps_per_sm", r.max_warps_per_sm},
         {"timed_kernel", kernel_resources_to_json(r.timed_kernel)},
         {"api_blocks_per_sm", r.api_blocks_per_sm},
         {"elapsed_ms", r.elapsed_ms},
         {"check", {{"cells", r.checked_cells}, {"worst_error_to_bound", r.worst_error_to_bound}}}};
  if (with_blocks) {
    std::uint64_t t0 = ~0ull;
    for (const BlockTiming& b : r.blocks) t0 = std::min(t0, b.start_ns);
    json sm = json::array(), start = json::array(), end = json::array();
    for (const BlockTiming& b : r.blocks) {
      sm.push_back(b.sm);
      start.push_back(b.start_ns - t0);
      end.push_back(b.end_ns - t0);
    }
    j["blocks"] = {{"sm", std::move(sm)}, {"start_ns", std::move(start)}, {"end_ns", std::move(end)}};
  }
  return j;
}

TimingRecording timing_from_json(const json& j) {
  TimingRecording r;
  try {
    if (!j.is_object() || j.value("format", "") != "tilescope-timing")
      throw TimingFileError("not a tilescope timing recording");
    if (j.at("version") != 1) throw TimingFileError("unsupported timing recording version " + j.at("version").dump());
    try {
      r.launch = launch_from_json(j.at("launch"));
    } catch (const json::exception& e) {
      throw TimingFileError(std::string("bad 'launch': ") + e.what());
    }
    r.sm_count = bounded<int>(j, "sm_count", 1, 1 << 16);
    r.compute_capability = bounded<int>(j, "compute_capability", 0, 1000);
    r.max_warps_per_sm = bounded<int>(j, "max_warps_per_sm", 1, 1024);
    const json& k = j.at("timed_kernel");
    r.timed_kernel.threads_per_block = bounded<int>(k, "threads_per_block", 1, 1 << 20);
    r.timed_kernel.registers_per_thread = bounded<int>(k, "registers_per_thread", 0, 1 << 16);
    r.timed_kernel.static_shared_bytes = bounded<int>(k, "static_shared_bytes", 0, 1 << 30);
    r.timed_kernel.dynamic_shared_bytes = bounded<int>(k, "dynamic_shared_bytes", 0, 1 << 30);
    r.timed_kernel.barriers = bounded<int>(k, "barriers", 0, 64);
    r.timed_kernel.source = k.at("source").get<std::string>();
    r.api_blocks_per_sm = bounded<int>(j, "api_blocks_per_sm", 0, 1 << 16);
    r.elapsed_ms = j.at("elapsed_ms").get<double>();
    r.checked_cells = bounded<int>(j.at("check"), "cells", 0, 1 << 30);
    r.worst_error_to_bound = j.at("check").at("worst_error_to_bound").get<double>();
    if (r.timed_kernel.threads_per_block != static_cast<int>(r.launch.block.count()))
      throw TimingFileError("the timed kernel's block size does not match the launch");
    const json& b = j.at("blocks");
    const json &sm = b.at("sm"), &start = b.at("start_ns"), &end = b.at("end_ns");
    if (!sm.is_array() || !start.is_array() || !end.is_array() || sm.size() != start.size() ||
        sm.size() != end.size())
      throw TimingFileError("the block arrays are missing or of different lengths");
    if (sm.size() != r.launch.grid.count())
      throw TimingFileError("the file times " + std::to_string(sm.size()) + " blocks but the grid has " +
                            std::to_string(r.launch.grid.count()));
    r.blocks.resize(sm.size());
    for (std::size_t i = 0; i < sm.size(); ++i) {
      BlockTiming& t = r.blocks[i];
      const auto id = json_integer<std::uint64_t>(sm[i]), start_ns = json_integer<std::uint64_t>(start[i]),
                 end_ns = json_integer<std::uint64_t>(end[i]);
      if (!id || !start_ns || !end_ns)
        throw TimingFileError("block " + std::to_string(i) + " has a non-integer entry");
      if (*id >= static_cast<std::uint64_t>(r.sm_count))
        throw TimingFileError("block " + std::to_string(i) + " ran on SM " + std::to_string(*id) + " of " +
                              std::to_string(r.sm_count));
      t.sm = static_cast<std::uint32_t>(*id);
      t.start_ns = *start_ns;
      t.end_ns = *end_ns;
      if (t.end_ns < t.start_ns) throw TimingFileError("block " + std::to_string(i) + " ends before it starts");
    }
  } catch (const json::exception& e) {
    throw TimingFileError(std::string("bad timing recording: ") + e.what());
  }
  return r;
}

void save_timing(const TimingRecording& r, const std::string& path) {
  try {
    write_file_atomically(path, timing_to_json(r, true).dump() + '\n');
  } catch (const SafeFileError& e) {
    throw TimingFileError(e.what());
  }
}

TimingRecording load_timing(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TimingFileError("cannot open " + path);
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw TimingFileError(path + " is not JSON: " + e.what());
  }
  return timing_from_json(j);
}

}  // namespace ts
