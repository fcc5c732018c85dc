// raw_file.h — the tracer's output: one traced launch as the injection library
// saw it (tracer/inject/), before tilescope turns it into a trace
// (tracer/assemble.h). A small binary file: magic, version, then the fields in
// the order RawLaunch lists them, each string and array prefixed by its length.
//
// The library writes one even when no launch matched its filter (traced =
// false), so that tilescope can list the kernels that did launch.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace/dim3.h"
#include "tracer/raw_record.h"

namespace ts::tracer {

inline constexpr char kRawMagic[8] = {'T', 'S', 'T', 'R', 'A', 'C', 'E', 'R'};
inline constexpr std::uint32_t kRawVersion = 2;  // 2: the function's PC range and its module's cubin

// A device allocation the resource callbacks reported, in allocation order
// (freed ones are kept until the traced launch: a launch uses live ones).
struct RawAllocation {
  std::uint64_t address = 0, bytes = 0;
  std::string name;  // empty: tilescope names it alloc<position>
  friend bool operator==(const RawAllocation&, const RawAllocation&) = default;
};

// A static __shared__ variable of the traced kernel, from its cubin's symbol
// table (tracer/cubin_shared.h): offset within the kernel's static shared
// section.
struct RawSharedSymbol {
  std::string name;
  std::uint32_t offset = 0, bytes = 0;
  friend bool operator==(const RawSharedSymbol&, const RawSharedSymbol&) = default;
};

// The bytes of one allocation, copied before the traced launch or after it
// (at the synchronization that read the records back).
struct RawSnapshot {
  std::uint32_t allocation = 0;  // index into RawLaunch::allocations
  bool after = false;
  std::vector<std::uint8_t> bytes;
  friend bool operator==(const RawSnapshot&, const RawSnapshot&) = default;
};

struct RawLaunch {
  bool traced = false;               // false: no launch matched the filter (only `launches` is meaningful)
  std::vector<std::string> launches;  // every kernel the program launched (up to the traced one, if it did not exit)
  std::uint32_t launch_index = 0;    // the traced launch's position in `launches`
  std::string kernel;                // its function name as the driver gives it (mangled)
  std::string device_name;
  Dim3 grid, block;
  std::uint32_t static_shared_bytes = 0;  // the function's static shared memory (driver attribute)
  std::uint64_t records_needed = 0;       // what the device counter reached
  std::uint64_t capacity = 0;             // records the device log held
  // The traced function's first PC and size in bytes (sanitizerGetFunctionPcAndSize):
  // a record's pc minus function_pc is its instruction's offset, as a disassembler numbers it.
  std::uint64_t function_pc = 0, function_size = 0;
  std::vector<std::uint8_t> cubin;  // the ELF of the module holding the traced function (empty: not kept)
  std::vector<RawAllocation> allocations;
  std::vector<RawSharedSymbol> shared_symbols;
  std::vector<RawSnapshot> snapshots;
  std::vector<RawRecord> records;  // min(records_needed, capacity) of them, in append order
};

class RawFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws RawFileError (with the path and what went wrong) on any failure.
void write_raw_launch(const RawLaunch& launch, const std::string& path);
RawLaunch read_raw_launch(const std::string& path);

}  // namespace ts::tracer
