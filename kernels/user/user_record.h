// user_record.h — record a kernel the user wrote: compile it (cpu_compiler.h,
// or NVRTC on the GPU), run it on the emulator or the GPU, and derive what
// tilescope's own kernels declare in the catalog (kernels/catalog.h): the
// shared tiles (as the kernel declared them) and the k-iteration rule.
#pragma once

#include "trace/trace.h"
#include "kernels/recorder.h"

namespace ts {

// Throws RecordError for a spec or size that cannot be recorded.
void validate_user(const RecordParams& params);

// params.user is set. Throws RecordError: InvalidParams (a bad spec),
// KernelUnavailable, KernelCompile, EmulatorFailed, NoGpu, GpuFailed, TooLarge.
// With params.check on it runs on the emulator and fills *report (as record());
// a run stopped at a finding returns a trace without events.
Trace record_user_kernel(const RecordParams& params, emu::CheckReport* report = nullptr);

// The iteration rule of a kernel nobody described, from its recording:
//  - no barrier: A and B loads by the k of their element, in steps of the block
//    tile's width (as the naive kernels are stamped);
//  - barriers: the k-step is the extent of k loaded from A (else B) before the
//    first barrier, iterations = ceil(K / step); when every thread's barrier
//    count E is a multiple of it, E / iterations barriers make one iteration
//    (the tiled kernels: 2). Otherwise the loads run ahead of the barriers (a
//    pipeline): globals by their k, shared accesses one iteration per
//    E / iterations barriers after the remainder.
IterationRule derive_iteration_rule(const Trace& trace, int fallback_step);
// Stamps every event with its iteration under trace.launch.iteration_rule.
void restamp_iterations(Trace& trace);

}  // namespace ts
