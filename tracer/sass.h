// sass.h — a traced kernel's machine code as text: nvdisasm's listing of
// its module's cubin (nvdisasm -g -c: one instruction per line, each after
// the "//## File ..., line N" comment of its source line when the cubin has
// line info), read into instructions by their offsets, which is how a
// record's PC minus the function's first PC finds its instruction.
//
//   //## File "/src/sgemm.cu", line 35
//           /*0140*/                   LDG.E.128 R4, desc[UR6][R2.64] ;
//
// Pure text handling, tested without a GPU; record_exec runs nvdisasm.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::tracer {

struct SassInstruction {
  std::uint32_t offset = 0;  // bytes from the function's first instruction
  std::string text;          // "LDG.E.128 R4, desc[UR6][R2.64]" (predicate kept, ';' dropped)
  std::string file;          // its source file ("" without line info)
  std::uint32_t line = 0;    // its source line (0 without line info)
};

// The instructions of `function` (its mangled name) in nvdisasm's listing, in
// offset order; empty when the listing has no such function.
std::vector<SassInstruction> parse_nvdisasm(std::string_view listing, const std::string& function);

// The instruction at `offset` (exact), by binary search; nullopt when none.
std::optional<std::size_t> instruction_at(const std::vector<SassInstruction>& sass, std::uint64_t offset);

// "/*0140*/ LDG.E.128 R4, desc[UR6][R2.64] ;  // line 35": one listing line for TracerInfo::sass.
std::string sass_line(const SassInstruction& s);

}  // namespace ts::tracer
