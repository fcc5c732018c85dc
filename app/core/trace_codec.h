// trace_codec.h — the compressed body of trace file version 2.
//
// The events of one warp instruction share their array, op and epoch and have
// regular addresses, and most values can be predicted from data the file
// already holds. So each Event field becomes its own stream of residuals
// against the same field of the previous thread's event at the same position
// (the lane's neighbour), values become runs of "as predicted" plus the
// exceptions, and every stream is compressed with zstd (trace_codec.cpp says how).
//
// Body layout (little-endian): stream count (u32), segment count (u32), the
// compressed size of each stream (u64), then the streams, in the order of
// v2_stream_names(): A, B, C, thread events, block timing, then each segment's,
// then optionally each event's source line (u16, Trace::lines; a file without
// that stream loads with no lines, and readers before it refuse a file with it).
// Decoding is bounded by the body's real size: a count the streams cannot hold
// (zstd expands at most kZstdMaxExpansion times; events at most 4096 per byte)
// is refused before anything is allocated, and a truncated or corrupted stream
// throws TraceFileError.
//
// Peak memory beyond the trace itself: the compressed body, and per worker
// thread the zstd contexts and 64 KB buffers of one segment's 8 streams (zstd's
// estimates: at most 21 MB encoding, 13 MB decoding) plus a 512 KB shadow of
// shared memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "trace/trace.h"

namespace ts {

// The section counts the file header states.
struct SectionCounts {
  std::uint64_t a = 0, b = 0, c = 0, threads = 0, timing = 0, events = 0;
};

// What a zstd frame can produce per compressed byte at most: a 3-byte block
// header plus one byte of run-length content per 128 KiB block.
inline constexpr std::uint64_t kZstdMaxExpansion = 32768;

// The names of the first `streams` streams of a v2 body, in file order (for
// messages and the benchmark).
std::vector<std::string> v2_stream_names(std::size_t streams);

// Everything after the launch description: the stream directory and streams.
std::vector<std::byte> encode_v2_body(const Trace& trace);

// Fills trace's a, b, c, thread offsets, block timing and events from a body.
// trace.launch must already hold the launch (its block shape groups threads).
// Returns the events' checks (trace_validation.h), made block by block as
// they were decoded, for validate_trace.
struct EventChecks;
EventChecks decode_v2_body(std::span<const std::byte> body, const SectionCounts& counts, Trace& trace);

// Compressed bytes of each stream of a body, in file order (for the benchmark).
std::vector<std::uint64_t> v2_stream_sizes(std::span<const std::byte> body);

}  // namespace ts
