// occupancy_json.cpp — occupancy inputs and results as JSON.
#include "app/core/occupancy_json.h"

namespace ts {
namespace {

nlohmann::json blocks_or_null(int blocks) {
  return blocks >= Occupancy::kUnlimited ? nlohmann::json(nullptr) : nlohmann::json(blocks);
}

}  // namespace

nlohmann::json sm_limits_to_json(const SmLimits& s) {
  return {{"compute_capability", s.compute_capability},
          {"sm_count", s.sm_count},
          {"warp_size", s.warp_size},
          {"max_threads_per_block", s.max_threads_per_block},
          {"max_threads_per_sm", s.max_threads_per_sm},
          {"max_warps_per_sm", s.max_warps_per_sm()},
          {"max_blocks_per_sm", s.max_blocks_per_sm},
          {"registers_per_sm", s.registers_per_sm},
          {"max_registers_per_block", s.max_registers_per_block},
          {"max_registers_per_thread", s.max_registers_per_thread},
          {"register_allocation_unit", s.register_allocation_unit},
          {"register_sub_partitions", s.register_sub_partitions},
          {"shared_per_sm", s.shared_per_sm},
          {"max_shared_per_block", s.max_shared_per_block},
          {"max_shared_per_block_optin", s.max_shared_per_block_optin},
          {"reserved_shared_per_block", s.reserved_shared_per_block},
          {"shared_allocation_unit", s.shared_allocation_unit},
          {"carveout_steps", s.carveout_steps},
          {"barriers_per_block_slot", s.barriers_per_block_slot}};
}

nlohmann::json kernel_resources_to_json(const KernelResources& k) {
  nlohmann::json j{{"threads_per_block", k.threads_per_block},
                   {"registers_per_thread", k.registers_per_thread},
                   {"static_shared_bytes", k.static_shared_bytes},
                   {"dynamic_shared_bytes", k.dynamic_shared_bytes},
                   {"barriers", k.barriers},
                   {"source", k.source}};
  if (k.min_compute_capability > 0) j["min_compute_capability"] = k.min_compute_capability;
  return j;
}

nlohmann::json occupancy_to_json(const Occupancy& o) {
  nlohmann::json limits = nlohmann::json::object(), binding = nlohmann::json::array(),
                 carveouts = nlohmann::json::array();
  for (OccupancyLimit l : kAllOccupancyLimits) limits[limit_name(l)] = blocks_or_null(o.limit_value(l));
  for (OccupancyLimit l : o.binding) binding.push_back(limit_name(l));
  for (const CarveoutStep& c : o.carveouts)
    carveouts.push_back({{"shared_bytes", c.shared_bytes}, {"blocks", blocks_or_null(c.blocks)}});
  nlohmann::json j{{"blocks_per_sm", o.blocks_per_sm},
                   {"active_warps_per_sm", o.active_warps_per_sm},
                   {"max_warps_per_sm", o.max_warps_per_sm},
                   {"warps_per_block", o.warps_per_block},
                   {"occupancy", o.occupancy},
                   {"limiting_factor", limit_name(o.limiting_factor)},
                   {"binding", binding},
                   {"blocks_per_sm_by_limit", limits},
                   {"registers_per_warp_allocated", o.registers_per_warp},
                   {"registers_per_block_allocated", o.registers_per_block},
                   {"shared_per_block_allocated", o.shared_per_block},
                   {"shared_per_sm_assumed", o.shared_per_sm},
                   {"smallest_sufficient_carveout", o.smallest_sufficient_carveout},
                   {"carveouts", carveouts}};
  if (!o.unlaunchable.empty()) j["unlaunchable"] = o.unlaunchable;
  return j;
}

}  // namespace ts
