// launch_json.cpp — the launch description as JSON.
#include "app/core/launch_json.h"

namespace ts {
namespace {

nlohmann::json dim_json(const Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); }

Dim3 dim_from(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 3) throw nlohmann::json::type_error::create(302, "a shape needs 3 numbers", &j);
  return {j.at(0).get<std::uint32_t>(), j.at(1).get<std::uint32_t>(), j.at(2).get<std::uint32_t>()};
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
  return {{"kernel", L.kernel},
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
            {"iterations", r.iterations}}},
          {"recorder", L.recorder},
          {"device_name", L.device_name},
          {"date", L.date},
          {"seed", L.seed},
          {"arrays", arrays}};
}

LaunchInfo launch_from_json(const nlohmann::json& j) {
  LaunchInfo L;
  L.kernel = j.at("kernel").get<std::string>();
  L.tile = j.at("tile").get<int>();
  L.m = j.at("m").get<int>();
  L.n = j.at("n").get<int>();
  L.k = j.at("k").get<int>();
  L.grid = dim_from(j.at("grid"));
  L.block = dim_from(j.at("block"));
  const auto& r = j.at("iteration_rule");
  L.iteration_rule.barriers_per_iteration = r.at("barriers_per_iteration").get<std::uint32_t>();
  L.iteration_rule.tile = r.at("tile").get<std::uint32_t>();
  L.iteration_rule.k = r.at("k").get<std::uint32_t>();
  L.iteration_rule.n = r.at("n").get<std::uint32_t>();
  L.iteration_rule.iterations = r.at("iterations").get<std::uint32_t>();
  L.recorder = j.at("recorder").get<std::string>();
  L.device_name = j.at("device_name").get<std::string>();
  L.date = j.at("date").get<std::string>();
  L.seed = j.at("seed").get<std::uint64_t>();
  const auto& arrays = j.at("arrays");
  if (!arrays.is_array() || arrays.size() != kArrayCount)
    throw nlohmann::json::type_error::create(302, "arrays: one entry per array", &arrays);
  for (int a = 0; a < kArrayCount; ++a) {
    const auto& x = arrays.at(a);
    ArrayLayout& l = L.arrays[a];
    l.present = x.at("present").get<bool>();
    l.base = x.at("base").get<std::uint64_t>();
    l.rows = x.at("rows").get<std::uint32_t>();
    l.cols = x.at("cols").get<std::uint32_t>();
    l.ld = x.at("ld").get<std::uint32_t>();
  }
  return L;
}

}  // namespace ts
