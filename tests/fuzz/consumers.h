// consumers.h — everything tilescope does with a trace once it has loaded,
// run on one trace: the fuzzers call it after every successful load, so a
// file that passes validation but breaks a later stage is found there.
//   index; stats with every analysis (memory, reuse, per block and warp) and
//   its JSON; the replay across all steps (highlights, shared tiles, every
//   block's tiles, element descriptions, partial sums, warp views); the
//   comparison of the trace with itself; CSV export.
// Work is capped per input (a few blocks, cells and steps sampled evenly) so
// that a fuzzer keeps its pace; every step of the replay is still visited.
#pragma once

#include "trace/trace.h"
#include "app/core/trace_index.h"

namespace ts::fuzz {

// Returns a checksum of what it computed, so nothing is optimised away.
std::uint64_t run_consumers(const Trace& trace, const TraceIndex& index);

}  // namespace ts::fuzz
