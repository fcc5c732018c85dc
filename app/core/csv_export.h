// csv_export.h — one row per event, so anyone can check a trace with their own tools.
#pragma once

#include <cstdio>

#include "app/core/trace.h"

namespace ts {

// Columns: block_x, block_y, thread_x, thread_y, warp, seq, iter, epoch, op,
// space, array, row, col, addr, value, padding. Returns false on a write error.
bool export_csv(const Trace& trace, std::FILE* out);

}  // namespace ts
