// csv_export.h — one row per event, so anyone can check a trace with their own tools.
#pragma once

#include <cstdio>

#include "trace/trace.h"

namespace ts {

// One row per event (per float element touched), each thread's rows in its
// program order, threads in block order then x-fastest. Columns:
//   block_x, block_y, thread_x, thread_y   blockIdx, threadIdx
//   warp      the thread's warp in its block (lane: its x-fastest index % 32)
//   seq       the event's position among its thread's events
//   iter      k-iteration (the step); epoch: __syncthreads() barriers passed
//   op, space, array    load/store, global/shared, A B C As Bs
//   row, col  the element in its array; addr: byte address (global: device
//             address, shared: offset in the block's shared window)
//   value     the float loaded or stored, shortest round-trip decimal
//   padding   1: a zero written into a shared slot outside the matrices (no read)
//   width     bytes of the access the element belongs to (4, 8, 16)
//   access    the seq of that access's first element: the rows of one vector
//             access (or of one mma A fragment) share it
//   async     1: part of a cp.async global -> shared copy
//   fragment  empty, or the mma.sync fragment register the element went into:
//             a0..a3 (A, one 16-byte access), b0, b1 (B, two 4-byte ones)
// Returns false on a write error.
bool export_csv(const Trace& trace, std::FILE* out);

}  // namespace ts
