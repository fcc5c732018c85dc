// tf32_wgmma_ws.h — `tf32-wgmma-ws` (kernels/ladder/tf32_wgmma_ws.cuh): TF32
// on Hopper with TMA, a warp-specialised producer/consumer pipeline and
// persistent CTAs. Each compiled variant (tf32_wgmma_ws_variants.h) can be
// run by index, with a schedule (data-parallel, stream-k or split-k), so
// that the tests can check each one and tf32_ws_tune can time them side by
// side; the ladder's entry runs the plan the rule picks for the shape
// (tf32_wgmma_ws_plan.h), variant 0 data-parallel on large square ones. Any M, N, K: where k or n
// is not a multiple of 4 or a pointer is off 16 bytes (TMA needs 16-byte row
// strides), the variants the rule weighs read A and B in phases of every
// fourth row, whose strides are whole (tf32_wgmma_ws_layout.h); the others,
// and matrices of fewer than 4 rows, are first copied into a padded
// workspace, kept for the next call (so calls on streams that overlap must
// not need it), and that copy is part of the launch and of its timing.
#pragma once

#include <cuda_runtime.h>

#include <span>

#include "kernels/ladder/tf32_wgmma_ws_plan.h"
#include "kernels/ladder/tf32_wgmma_ws_variants.h"

namespace ts::ladder {

// kTf32WsVariants (tf32_wgmma_ws_variants.h): index 0 is the configuration `tf32-wgmma-ws` runs.
std::span<const Tf32WsVariant> tf32_ws_variants();

// Runs variant `index`; grid_limit caps the number of CTAs (0: the variant's
// own grid), which lets the tests walk several tiles per CTA at small sizes.
// stream_k (persistent variants): the units that do not fill whole rounds of
// the CTAs are shared out by k-tile (ws::WorkSchedule). splits > 1: split-k
// instead, each unit's k cut in that many pieces, their copies of C added
// by a second kernel. phases false: operands whose rows are off 16 bytes are
// copied into padded ones even where the variant could read them in phases
// (for comparison). Checks the launches, does not synchronize. Needs an
// sm_90 GPU.
void launch_tf32_ws_variant(int index, const float* a, const float* b, float* c, int m, int n, int k,
                            cudaStream_t stream, int grid_limit = 0, bool stream_k = false, int splits = 1,
                            bool phases = true);

// Clusters of variant `index` resident at once on the current GPU (asked of
// the driver once per variant and device). The kernel's dynamic shared memory
// limit must have been raised: it is, by the variant's first launch or here.
int tf32_ws_resident_clusters(int index);

// The plan `tf32-wgmma-ws` runs at this shape on the current GPU (tf32_wgmma_ws_plan.h).
Tf32WsPlan tf32_ws_current_plan(int m, int n, int k);

// Whether variant `index` reads these operands in phases (else as they are,
// or from padded copies).
bool tf32_ws_reads_in_phases(int index, const float* a, const float* b, int m, int n, int k);

// The compiled kernel's registers per thread and local memory (spills) per
// thread; phased: its data-parallel kernel that reads in phases (throws where
// the variant has none).
cudaFuncAttributes tf32_ws_variant_attributes(int index, bool phased = false);

}  // namespace ts::ladder
