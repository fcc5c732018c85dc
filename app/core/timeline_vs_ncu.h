// timeline_vs_ncu.h — a timing recording's SM timeline next to Nsight
// Compute's view of the same launch (`ncu --csv --print-units base`):
// achieved and theoretical occupancy, the SMs' active time, the duration,
// and each occupancy limit against the calculator's.
#pragma once

#include <istream>

#include <nlohmann/json.hpp>

#include "app/core/timeline.h"
#include "trace/timing_recording.h"

namespace ts {

// Picks the last profiled launch of the timed kernel with the recording's
// grid and block. Metrics ncu did not report are null. Throws
// NcuImportError when the CSV has no such launch or does not parse.
nlohmann::json timeline_vs_ncu(const TimingRecording& r, const Timeline& tl, std::istream& ncu_csv);

}  // namespace ts
