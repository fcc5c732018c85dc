// trace_validation.h — the one check of what a trace claims, run by every
// loader before anything else sees the trace.
//
// A trace file is untrusted input (it travels between machines), and its
// checksum proves nothing: anyone can write a valid one. Every loader —
// version 1 in trace_file.cpp, and any later format's decoder — must call
// validate_launch and validate_sections before it allocates the sections, and
// validate_trace on the finished Trace before returning it. Each throws a
// TraceFileError of kind Invalid naming the first claim that is false.
//
// What a validated trace guarantees to the index, stats, analyses, replay,
// export and every panel:
//   L1 1 <= M, N, K < 2^31 and M*K, K*N, M*N < 2^32 (an event's index is 32 bits);
//      1 <= TILE <= 1024.
//   L2 the grid and block obey CUDA's limits (grid.x < 2^31, grid.y, grid.z <=
//      65535; block.x, block.y <= 1024, block.z <= 64, threads per block <=
//      1024), and grid x block threads < 2^32, counted without overflow.
//   L3 the iteration rule is the product's: rule.k = K, rule.n = N,
//      1 <= rule.tile, iterations = ceil(K / rule.tile) <= kMaxIteration, and
//      barriers_per_iteration * iterations <= kMaxEpoch.
//   L4 the memory tables: at most kMaxMemoryIds buffers and regions, each
//      named (1..kMaxMemoryName of [A-Za-z0-9_-]) with a known role, type and
//      order; a buffer has rows, cols, ld >= 1 with its inner extent <= ld,
//      spans fewer than 2^32 + 1 elements and ends below 2^64; exactly one
//      buffer each has the role A, B and C, shaped M x K, K x N and M x N
//      floats (any order, any ld); a region has rows, ld >= 1, cols <= ld,
//      ends within kMaxSharedBytes of the shared window and holds rows x ld
//      elements in its bytes.
//   L5 kernel: 1..kMaxKernelName of [A-Za-z0-9_-]; recorder "gpu" or
//      "emulator"; device name and date printable ASCII of at most
//      kMaxDeviceName / kMaxDate bytes.
//   S1 A, B, C hold the elements their buffers span (M*K, K*N, M*N for the
//      natural layouts); there are grid x block threads;
//      block timings are absent or one per block, with start <= end and SM
//      numbers below kMaxSm.
//   S2 events <= kMaxEvents (the recorder's own ceiling), so an event's
//      position fits in 32 bits with room for one more.
//   S3 blocks x (iterations + 1) <= events + blocks, counting the traced
//      blocks of a focused trace (every traced block makes at least one
//      access per iteration), which bounds the index's per-block,
//      per-iteration table by the events themselves.
//   S4 the sections' bytes are at most the file's bytes x the format's
//      expansion (1 for an uncompressed format): what a file makes us
//      allocate is bounded by what it really holds.
//   T1 thread offsets start at 0, never go backwards, end at the event count.
//   T3 source lines are absent or one per event (any value: a line number).
//   T2 every event names a buffer or region of the tables and an element
//      inside it, an iteration <= iterations, and the padding flag only on
//      shared accesses.
//   T4 a thread's barrier epochs never decrease along its events.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "trace/trace.h"
#include "app/core/trace_codec.h"  // SectionCounts: the element counts a file's header states

namespace ts {

inline constexpr std::uint64_t kMaxEvents = (8ull << 30) / sizeof(Event);  // 8 GiB of events
inline constexpr std::uint64_t kFileEventBytes = 12;                       // an event in a version 1 file
inline constexpr std::uint64_t kMaxSharedBytes = 228 * 1024;               // per block, on any GPU so far
inline constexpr std::uint32_t kMaxSm = 1024;
inline constexpr std::size_t kMaxKernelName = 64;
inline constexpr std::size_t kMaxMemoryName = 64;
inline constexpr std::size_t kMaxDeviceName = 256;
inline constexpr std::size_t kMaxDate = 64;


// L1-L5: the launch description alone.
void validate_launch(const LaunchInfo& launch);
// S1-S4: the header's counts against the (validated) launch and the file's
// real size, before any section is allocated.
void validate_sections(const LaunchInfo& launch, const SectionCounts& counts, std::uint64_t file_bytes,
                       std::uint64_t max_expansion = 1);
// T2 and T4 over the events of threads [first_thread, last_thread): the first
// malformed event, and the first thread whose barrier count goes back (at
// which event), which validate_trace reports in that order. Needs the launch
// and the thread offsets. A decoder can check its events block by block while
// they are in cache, and hand the results to validate_trace.
struct EventChecks {
  static constexpr std::uint64_t kNone = ~0ull;
  std::uint64_t malformed = kNone;
  std::uint64_t backwards_thread = kNone, backwards_event = kNone;
  void add(const EventChecks& o);  // the earlier of each
};
EventChecks check_events(const Trace& trace, std::uint64_t first_thread, std::uint64_t last_thread);

// Everything above, then T1-T4 over the offsets and every event. The entry
// point for every loader (a compressed format passes its codec's largest
// expansion ratio). checked: T2 and T4 for every thread, as check_events
// found them; null to check the events here.
void validate_trace(const Trace& trace, std::uint64_t file_bytes, std::uint64_t max_expansion = 1,
                    const EventChecks* checked = nullptr);

// The counts a finished trace holds, for validate_sections.
SectionCounts section_counts(const Trace& trace);

}  // namespace ts
