// tf32_wgmma_ws.h — `tf32-wgmma-ws` (kernels/ladder/tf32_wgmma_ws.cuh): TF32
// on Hopper with TMA, a warp-specialised producer/consumer pipeline and
// persistent CTAs. Each compiled variant (tf32_wgmma_ws_variants.h) can be
// run by index, with a schedule (data-parallel, stream-k or split-k), so
// that the tests can check each one and tf32_ws_tune can time them side by
// side; the ladder's entry runs the plan the rule picks for the shape
// (tf32_wgmma_ws_plan.h), variant 0 data-parallel on large square ones. Any M, N, K: where k or n
// is not a multiple of 4 (TMA needs 16-byte row strides), the launch first
// copies A and/or B into a padded workspace, kept for the next call (so
// calls on streams that overlap must not need it), and that copy is part of
// the launch and of its timing.
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
// the CTAs are shared out by k-tile (ws::WorkSchedule). tail > 1
// (persistent variants): the tail split instead (ws::tail_schedule).
// splits > 1: split-k instead, each unit's k cut in that many pieces, their
// copies of C added by a second kernel. Checks the launches, does not
// synchronize. Needs an sm_90 GPU.
void launch_tf32_ws_variant(int index, const float* a, const float* b, float* c, int m, int n, int k,
                            cudaStream_t stream, int grid_limit = 0, bool stream_k = false, int splits = 1,
                            int tail = 1);

// Clusters of variant `index` resident at once on the current GPU (asked of
// the driver once per variant and device). The kernel's dynamic shared memory
// limit must have been raised: it is, by the variant's first launch or here.
int tf32_ws_resident_clusters(int index);

// The plan `tf32-wgmma-ws` runs at this shape on the current GPU (tf32_wgmma_ws_plan.h).
Tf32WsPlan tf32_ws_current_plan(int m, int n, int k);

// The compiled kernel's registers per thread and local memory (spills) per thread.
cudaFuncAttributes tf32_ws_variant_attributes(int index);

}  // namespace ts::ladder
