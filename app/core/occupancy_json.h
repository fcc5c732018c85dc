// occupancy_json.h — the occupancy calculator's inputs and results as JSON
// (`tilescope occupancy --json`, timing recordings).
#pragma once

#include <nlohmann/json.hpp>

#include "trace/model/occupancy.h"

namespace ts {

nlohmann::json sm_limits_to_json(const SmLimits& sm);
nlohmann::json kernel_resources_to_json(const KernelResources& k);
// Limits a kernel does not touch are null.
nlohmann::json occupancy_to_json(const Occupancy& o);

}  // namespace ts
