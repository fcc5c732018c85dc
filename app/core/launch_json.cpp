// launch_json.cpp — the launch description as JSON.
#include "app/core/launch_json.h"

#include <optional>

#include "app/core/json_integer.h"

namespace ts {
namespace {

using nlohmann::json;

nlohmann::json dim_json(const Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); }

Dim3 dim_from(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 3) throw nlohmann::json::type_error::create(302, "a shape needs 3 numbers", &j);
  return {json_integer_or_throw<std::uint32_t>(j.at(0)), json_integer_or_throw<std::uint32_t>(j.at(1)),
          json_integer_or_throw<std::uint32_t>(j.at(2))};
}

}  // namespace

nlohmann::json launch_to_json(const LaunchInfo& L) {
  nlohmann::json arrays = nlohmann::json::array();
  for (int a = 0; a < kArrayCount; ++a) {
    const ArrayLayout& l = L.arrays[a];
    arrays.push_back({{"name", array_name(static_cast<ArrayId>(a))},
                      {"present", l.present},
                      {"base", l.base},
                      {"rows", l.rows},
                      {"cols", l.cols},
                      {"ld", l.ld}});
  }
  const IterationRule& r = L.iteration_rule;
  nlohmann::json j = {{"kernel", L.kernel},
          {"tile", L.tile},
          {"m", L.m},
          {"n", L.n},
          {"k", L.k},
          {"grid", dim_json(L.grid)},
          {"block", dim_json(L.block)},
          {"iteration_rule",
           {{"barriers_per_iteration", r.barriers_per_iteration},
            {"tile", r.tile},
            {"k", r.k},
            {"n", r.n},
            {"iterations", r.iterations},
            {"barriers_before", r.barriers_before},
            {"global_by_k", r.global_by_k}}},
          {"recorder", L.recorder},
          {"device_name", L.device_name},
          {"date", L.date},
          {"seed", L.seed},
          {"arrays", arrays}};
  const Tiling& t = L.tiling;
  j["tiling"] = {{"block_m", t.block_m}, {"block_n", t.block_n}, {"block_k", t.block_k},
                 {"thread_m", t.thread_m}, {"thread_n", t.thread_n}, {"warp_m", t.warp_m},
                 {"warp_n", t.warp_n},   {"stages", t.stages},     {"a_transposed", t.a_transposed}};
  if (L.focused()) j["traced_blocks"] = L.traced_blocks;  // absent: every block (files written before focused traces)
  return j;
}

LaunchInfo launch_from_json(const nlohmann::json& j) {
  LaunchInfo L;
  L.kernel = j.at("kernel").get<std::string>();
  L.tile = json_integer_at<int>(j, "tile");
  L.m = json_integer_at<int>(j, "m");
  L.n = json_integer_at<int>(j, "n");
  L.k = json_integer_at<int>(j, "k");
  L.grid = dim_from(j.at("grid"));
  L.block = dim_from(j.at("block"));
  const auto& r = j.at("iteration_rule");
  L.iteration_rule.barriers_per_iteration = json_integer_at<std::uint32_t>(r, "barriers_per_iteration");
  L.iteration_rule.tile = json_integer_at<std::uint32_t>(r, "tile");
  L.iteration_rule.k = json_integer_at<std::uint32_t>(r, "k");
  L.iteration_rule.n = json_integer_at<std::uint32_t>(r, "n");
  L.iteration_rule.iterations = json_integer_at<std::uint32_t>(r, "iterations");
  // Traces written before pipelined kernels existed have neither: 0 is their rule.
  if (r.contains("barriers_before")) L.iteration_rule.barriers_before = json_integer_at<std::uint32_t>(r, "barriers_before");
  if (r.contains("global_by_k")) L.iteration_rule.global_by_k = json_integer_at<std::uint32_t>(r, "global_by_k");
  // Files written before the ladder's rungs were recorded have no tiling: zeros.
  if (const auto it = j.find("tiling"); it != j.end()) {
    Tiling& t = L.tiling;
    t.block_m = json_integer_at<std::uint32_t>(*it, "block_m");
    t.block_n = json_integer_at<std::uint32_t>(*it, "block_n");
    t.block_k = json_integer_at<std::uint32_t>(*it, "block_k");
    t.thread_m = json_integer_at<std::uint32_t>(*it, "thread_m");
    t.thread_n = json_integer_at<std::uint32_t>(*it, "thread_n");
    t.warp_m = json_integer_at<std::uint32_t>(*it, "warp_m");
    t.warp_n = json_integer_at<std::uint32_t>(*it, "warp_n");
    t.stages = json_integer_at<std::uint32_t>(*it, "stages");
    t.a_transposed = it->at("a_transposed").get<bool>();
  }
  L.recorder = j.at("recorder").get<std::string>();
  L.device_name = j.at("device_name").get<std::string>();
  L.date = j.at("date").get<std::string>();
  L.seed = json_integer_at<std::uint64_t>(j, "seed");
  const auto& arrays = j.at("arrays");
  if (!arrays.is_array() || arrays.size() != kArrayCount)
    throw nlohmann::json::type_error::create(302, "arrays: one entry per array", &arrays);
  for (int a = 0; a < kArrayCount; ++a) {
    const auto& x = arrays.at(a);
    ArrayLayout& l = L.arrays[a];
    l.present = x.at("present").get<bool>();
    l.base = json_integer_at<std::uint64_t>(x, "base");
    l.rows = json_integer_at<std::uint32_t>(x, "rows");
    l.cols = json_integer_at<std::uint32_t>(x, "cols");
    l.ld = json_integer_at<std::uint32_t>(x, "ld");
  }
  if (const auto it = j.find("traced_blocks"); it != j.end()) {
    if (!it->is_array()) throw nlohmann::json::type_error::create(302, "traced_blocks: a list of blocks", &*it);
    const std::uint64_t blocks = L.grid.count();
    for (const auto& b : *it) {
      const auto block = json_integer_or_throw<std::uint32_t>(b);
      if (block >= blocks || (!L.traced_blocks.empty() && block <= L.traced_blocks.back()))
        throw nlohmann::json::type_error::create(302, "traced_blocks: ascending blocks of the grid", &*it);
      L.traced_blocks.push_back(block);
    }
  }
  return L;
}

}  // namespace ts
