// launch_json.h — LaunchInfo to and from JSON (the trace file's header, and
// the "launch" object of `tilescope stats --json`).
#pragma once

#include <nlohmann/json.hpp>

#include "trace/trace.h"

namespace ts {

nlohmann::json launch_to_json(const LaunchInfo& launch);
// Throws nlohmann::json::exception on a missing or ill-typed field.
LaunchInfo launch_from_json(const nlohmann::json& j);

}  // namespace ts
