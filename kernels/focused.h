// focused.h — a focused trace: every event of chosen blocks only, at any N.
//
// The emulator runs just those blocks (blocks are independent), each into a
// block-sized buffer, or the GPU launches the grid with only those blocks
// running the instrumented kernel, and the trace keeps their events; the other blocks'
// threads have none, and LaunchInfo::traced_blocks says which are there. C
// holds the traced blocks' cells (the others stay NaN). The whole-launch
// numbers of the same launch come from count_launch (app/counters/counter.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.h"
#include "kernels/recorder.h"

namespace ts {

// blocks: linear ids, ascending (parse_block_selection). Throws RecordError.
// params.device chooses the GPU or the emulator, as for record().
Trace record_focused(const RecordParams& params, const std::vector<std::uint32_t>& blocks);

// Blocks per wave on a GPU preset (trace/model/gpu_presets.h): the occupancy
// calculator's blocks per SM times its SMs; 0, with why, when it is not known.
std::uint64_t blocks_per_wave(KernelKind kind, int tile, const std::string& preset, std::string& why);

}  // namespace ts
