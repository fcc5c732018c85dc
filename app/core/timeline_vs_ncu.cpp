// timeline_vs_ncu.cpp — the timeline's occupancy next to Nsight Compute's.
#include "app/core/timeline_vs_ncu.h"

#include "app/core/analysis/ncu_import.h"
#include "trace/model/occupancy.h"

namespace ts {
namespace {

using nlohmann::json;

json metric(const NcuLaunch& l, const char* name, double scale = 1.0) {
  const auto it = l.metrics.find(name);
  return it == l.metrics.end() ? json(nullptr) : json(it->second * scale);
}

}  // namespace

json timeline_vs_ncu(const TimingRecording& r, const Timeline& tl, std::istream& ncu_csv) {
  const std::vector<NcuLaunch> launches = parse_ncu_csv(ncu_csv);
  const NcuLaunch* match = nullptr;
  for (const NcuLaunch& l : launches)
    if (l.kernel_name.find("timed_kernel") != std::string::npos && l.grid == r.launch.grid && l.block == r.launch.block)
      match = &l;
  if (!match) throw NcuImportError("the ncu CSV has no launch of the timed kernel with this recording's grid and block");
  const NcuLaunch& n = *match;

  // The calculator on the recording's GPU, for the timed kernel as the runtime reported it.
  SmLimits limits;
  json calculator = nullptr;
  if (limits_for_compute_capability(r.compute_capability, limits)) {
    limits.sm_count = r.sm_count;
    const Occupancy o = compute_occupancy(limits, r.timed_kernel);
    auto or_null = [](int v) { return v >= Occupancy::kUnlimited ? json(nullptr) : json(v); };
    calculator = {{"blocks", or_null(o.by_blocks)},   {"registers", or_null(o.by_registers)},
                  {"shared_mem", or_null(o.by_shared)}, {"warps", or_null(o.by_warps)},
                  {"blocks_per_sm", o.blocks_per_sm},   {"occupancy", o.occupancy},
                  {"smallest_sufficient_carveout", o.smallest_sufficient_carveout}};
  }
  double active_ns = 0;
  for (const SmTrack& t : tl.sms) active_ns += double(t.active_ns);
  const double sm_time = double(tl.duration_ns) * double(tl.sms.size());
  const json sm_active = n.metrics.count("sm__cycles_active.avg") && n.metrics.count("sm__cycles_elapsed.avg") &&
                                 n.metrics.at("sm__cycles_elapsed.avg") > 0
                             ? json(n.metrics.at("sm__cycles_active.avg") / n.metrics.at("sm__cycles_elapsed.avg"))
                             : json(nullptr);
  const json achieved = metric(n, "sm__warps_active.avg.pct_of_peak_sustained_active", 0.01);
  json j{{"ncu_launch_id", n.id},
         {"kernel_name", n.kernel_name},
         {"achieved_occupancy", {{"ncu", achieved}, {"timeline", tl.achieved_occupancy}}},
         {"theoretical_occupancy",
          {{"ncu", metric(n, "sm__maximum_warps_per_active_cycle_pct", 0.01)},
           {"api", r.max_warps_per_sm ? double(r.api_blocks_per_sm * r.warps_per_block()) / r.max_warps_per_sm : 0.0}}},
         {"sm_active_fraction", {{"ncu", sm_active}, {"timeline", sm_time > 0 ? active_ns / sm_time : 0.0}}},
         {"occupancy_over_launch", {{"timeline", tl.occupancy_over_launch}}},
         {"duration_ns", {{"ncu", metric(n, "gpu__time_duration.sum")}, {"timeline", tl.duration_ns}}},
         {"waves_per_sm", {{"ncu", metric(n, "launch__waves_per_multiprocessor")}, {"timeline", tl.waves}}},
         {"registers_per_thread",
          {{"ncu", metric(n, "launch__registers_per_thread")}, {"runtime", r.timed_kernel.registers_per_thread}}},
         {"shared_mem_config_size", {{"ncu", metric(n, "launch__shared_mem_config_size")}}},
         {"occupancy_limits",
          {{"ncu",
            {{"blocks", metric(n, "launch__occupancy_limit_blocks")},
             {"registers", metric(n, "launch__occupancy_limit_registers")},
             {"shared_mem", metric(n, "launch__occupancy_limit_shared_mem")},
             {"warps", metric(n, "launch__occupancy_limit_warps")}}},
           {"calculator", calculator}}}};
  if (achieved.is_number()) j["achieved_occupancy"]["timeline_minus_ncu"] = tl.achieved_occupancy - achieved.get<double>();
  return j;
}

}  // namespace ts
