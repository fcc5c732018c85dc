// block_selection.h — which blocks a focused trace records, from the text a
// user types: block coordinates "x,y;x,y", a block row "row:Y", a block
// column "col:X", or "wave:W", the blocks of the W-th wave (waves of
// blocks_per_wave consecutive blocks, as the GPU's block scheduler launches
// them: the occupancy calculator's blocks per SM times the SMs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/dim3.h"

namespace ts {

struct BlockSelection {
  std::vector<std::uint32_t> blocks;  // linear ids, ascending, no repeats
  std::string error;                  // one line; empty when the text was valid
};

// blocks_per_wave: 0 when no wave size is known; then "wave:" is an error that says no_wave_why.
BlockSelection parse_block_selection(const std::string& text, const Dim3& grid, std::uint64_t blocks_per_wave,
                                     const std::string& no_wave_why = "no wave size");

// The blocks of C's block rows and columns that meet block (x, y): the blocks
// that load the same tiles of A (its row) and of B (its column).
std::vector<std::uint32_t> blocks_sharing_tiles(const Dim3& grid, std::uint32_t x, std::uint32_t y);

}  // namespace ts
