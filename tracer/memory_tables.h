// memory_tables.h — the assembler's first half (assemble.h): which
// allocations are A, B and C, the buffers and regions tables of the trace, and
// looking an address up in them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/memory.h"
#include "tracer/assemble.h"

namespace ts::tracer {

// Where an access landed: a memory id and the element index of its first byte.
struct Located {
  std::uint32_t id = 0;
  std::uint32_t index = 0;
};

class MemoryTables {
 public:
  // Chooses A, B, C (assemble.h says how) and lays out the tables; throws
  // AssembleError(Operands) with describe_launches when they cannot be found.
  MemoryTables(const RawLaunch& raw, const AssembleOptions& options, AssembleReport& report);

  std::vector<Buffer> buffers;
  std::vector<Region> regions;
  std::uint32_t allocation_of[3] = {0, 0, 0};  // of A, B, C
  std::uint32_t shared_base = 0;

  // The buffer holding [address, address + bytes), or nothing.
  std::optional<Located> global(std::uint64_t address, std::uint32_t bytes) const;
  // The region holding window bytes [offset, offset + bytes), or nothing.
  std::optional<Located> shared(std::uint64_t offset, std::uint32_t bytes) const;
  // The allocation (index into RawLaunch::allocations) behind buffer id.
  std::uint32_t allocation_of_buffer(std::uint32_t id) const { return buffer_allocation_[id]; }

 private:
  std::vector<std::uint32_t> buffer_allocation_;  // per buffer id
  struct Span {
    std::uint64_t begin, end;
    std::uint32_t id;
  };
  std::vector<Span> global_spans_, shared_spans_;  // sorted by begin
};

}  // namespace ts::tracer
