// trace_file.h — the .tstrace file: the boundary between recording and viewing.
//
// Layout (little-endian), version 1 (still read; written on request):
//   64-byte header: magic "TSCTRACE", version, JSON length, element counts
//   launch info as JSON (kernel, sizes, shapes, recorder, date, array layouts)
//   A, B, C as float32; thread offsets as uint64; block timings (GPU only);
//   events (12 bytes each, 16-byte aligned); CRC-32 of everything before it.
// Loading checks every size against the file before it allocates, the
// checksum, and every event against the launch, so a truncated, corrupted or
// hostile file is refused with a TraceFileError, never read out of bounds.
//
// Version 2: the same header and launch JSON, then the compressed streams of
// trace_codec.h, then the same CRC-32 footer. Versions 1 and 2 know five
// arrays (A, B, C, As, Bs: the launch JSON's "arrays").
//
// Version 3 (written by default): version 2's container and streams, with the
// launch's memory tables (trace/memory.h: "buffers" and "regions") in the
// JSON; an event's memory id indexes them. Versions 1 and 2 load onto the
// same tables, so every reader of a trace sees tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>

#include "trace/trace.h"

namespace ts {

// The version save_trace writes unless asked for another; load_trace reads 1 to 3.
inline constexpr std::uint32_t kTraceFileVersion = 3;

class TraceFileError : public std::runtime_error {
 public:
  enum class Kind { CannotOpen, CannotWrite, NotATrace, UnsupportedVersion, Truncated, Corrupt, Invalid };
  TraceFileError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// Writes atomically: a temporary file next to path, renamed when complete.
void save_trace(const Trace& trace, const std::filesystem::path& path, std::uint32_t version = kTraceFileVersion);
Trace load_trace(const std::filesystem::path& path);
Trace load_trace_from_memory(std::span<const std::byte> bytes);

}  // namespace ts
