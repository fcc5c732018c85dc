// assemble.h — turn one raw traced launch (raw_file.h: the device patches'
// records, the allocations and shared symbols the tracer saw) into a
// ts::Trace that every other part of tilescope reads. Pure C++: tested
// without a GPU from synthetic records (tests/tracer/).
//
// What the assembler decides, and why:
//   - Buffers: A, B and C first (memory ids 0, 1, 2, as tilescope's own
//     kernels have them, so that IterationRule and the comparisons of
//     tests/tracer read them alike), then every other allocation the launch
//     touched, role other, 4-byte words, by the name the program gave it or
//     alloc<i> (i: its place among the allocations seen).
//   - Which allocations are A, B, C: those named in the options, else by size
//     (M x K, K x N and M x N floats). With equal sizes (M = N = K) they go in
//     allocation order, except that C is the first candidate the launch stored
//     to when there is one (a program allocates A, B, C in that order; a
//     split-k GEMM stores none of C, so then C is the last candidate).
//   - Regions: one per static __shared__ symbol of the kernel's cubin, by its
//     name, square when its words are a square number, else one row; the rest
//     of the window that the launch touched (dynamic shared memory) as one raw
//     region "dynamic". The cubin gives offsets within the kernel's static
//     section; the window may start with a reserved block (1 KiB on sm_80 and
//     later), so the assembler tries both bases and keeps the one under which
//     more shared accesses fall inside the symbols (AssembleReport says which).
//   - Events: each thread's records in their program order (raw_record.h), a
//     vector access as one event per 4-byte element; cp.async as a global load
//     and a shared store, both async (a zero-fill source: a padding store);
//     ldmatrix as a 16-byte shared load; an atomic as a store. Local accesses,
//     pipeline commits and waits, block entry and exit make no events (counted).
//   - Epochs: barrier arrivals the thread had made. Iterations (IterationRule):
//     with --k-tile T, ceil(K / T) iterations sharing the barriers evenly; else
//     barrier intervals, two per iteration when a thread's barrier count is even
//     (load, sync, compute, sync: the textbook loop) and one otherwise.
//   - Values: the Sanitizer API gives a store's new value, and the patches read
//     a global load's bytes before the load does; a record without them takes
//     A's and B's from the copies made before the launch and C's from the copy
//     made after it. A shared load takes the last value stored to its word in an
//     earlier epoch of its block (the barrier between orders them), else 0.
//   - The launch's TracerInfo (trace.h): source "exec" (callers that know
//     better set it, and the program), the kernel's demangled name, the
//     launches the program made, and what the tracer could not see, read off
//     what it did see: elements of A or B never read (TMA), of C never stored
//     (split-k partials elsewhere), pipelined copies, ldmatrix, a cubin
//     without shared symbols, spills, accesses outside every allocation.
//   - Lines: with the function's instructions (AssembleOptions::sass), each
//     event's record PC, less the function's first PC, finds its
//     instruction. With line info (-lineinfo) the trace's lines are source
//     lines of the file most instructions come from (TracerInfo::source_file;
//     another file's line is 0); without, they number the instructions, and
//     the listing (TracerInfo::sass) is the source they refer to.
//   - Nothing is dropped silently: accesses outside every allocation and
//     region are counted and listed in the report; a log that overflowed, a
//     record of a thread outside the launch, or operands that cannot be found
//     are errors that give the numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace/trace.h"
#include "tracer/raw_file.h"
#include "tracer/sass.h"

namespace ts::tracer {

struct AssembleOptions {
  int m = 0, n = 0, k = 0;
  MatrixOrder order = MatrixOrder::RowMajor;  // of A, B and C, each dense (ld = its inner extent)
  // Explicit operands: indices into RawLaunch::allocations.
  std::optional<std::uint32_t> a_allocation, b_allocation, c_allocation;
  std::uint32_t k_tile = 0;  // the kernel's k-extent per iteration; 0: from the barriers
  // The traced function's instructions (sass.h, from its cubin), if a disassembler read them: each
  // event's source line (or instruction) comes from its record's PC.
  std::vector<SassInstruction> sass;
};

struct AssembleReport {
  std::uint64_t records = 0, events = 0;
  std::uint32_t a_allocation = 0, b_allocation = 0, c_allocation = 0;
  std::uint32_t shared_base = 0;  // window offset of the static shared section
  std::uint32_t max_barriers = 0;
  std::uint64_t outside_global = 0, outside_shared = 0;  // accesses (records) in no allocation / region
  std::vector<std::uint64_t> outside_global_addresses;   // the first few, distinct
  std::vector<std::uint64_t> outside_shared_offsets;
  std::uint64_t local = 0, atomics = 0, barriers = 0, cp_async = 0, matrix = 0, commits = 0, waits = 0,
                block_marks = 0;
  // Lines for the command line: what was mapped where and what was not.
  std::vector<std::string> lines() const;
};

class AssembleError : public std::runtime_error {
 public:
  enum class Kind { NotTraced, Overflow, Operands, Malformed, TooLarge };
  AssembleError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// Throws AssembleError. The trace satisfies validate_trace (app/core).
Trace assemble_trace(const RawLaunch& raw, const AssembleOptions& options, AssembleReport* report = nullptr);

// The kernels launched and the allocations seen, one per line: what a message
// about a launch tilescope cannot map lists.
std::string describe_launches(const RawLaunch& raw);

// A symbol (mangled or not) as a short name of [A-Za-z0-9_-], at most `limit`
// characters: the last component of its demangled name without template
// arguments or parameters ("_ZZ...E2As" -> "As").
std::string short_symbol_name(const std::string& symbol, std::size_t limit = 64);

}  // namespace ts::tracer
