// ncu_import.h — read what Nsight Compute and cuobjdump print, for the table
// that puts the trace's memory counters next to the hardware's.
//
//   ncu --csv --print-units base --metrics ... PROGRAM    one row per (launch, metric)
//   cuobjdump -sass PROGRAM                               the instructions of each kernel
#pragma once

#include <istream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace/dim3.h"

namespace ts {

class NcuImportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One profiled launch: its metrics by full name ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum").
struct NcuLaunch {
  int id = 0;
  std::string kernel_name;
  Dim3 block, grid;
  std::map<std::string, double> metrics;
};

// The launches in the order ncu profiled them. Lines that are not part of the
// CSV table (ncu's ==PROF== notes, the program's own output) are skipped;
// numbers may carry thousands separators. Throws NcuImportError when there is
// no table or a row does not parse.
std::vector<NcuLaunch> parse_ncu_csv(std::istream& in);

// Static counts of the memory instructions in each plain kernel, by opcode
// with its modifiers ("LDS.128", "LDG.E.CONSTANT", "LDGSTS.E.BYPASS.128", ...).
// Two kinds of instruction are also counted under their own keys:
//   "@!PT LDS"     an instruction whose guard is never true (not in "LDS"): the
//                  compiler puts three such LDS before each cp.async (LDGSTS);
//   "@P STS RZ"    a store of the zero register under a guard predicate (also
//                  in "STS"): the out-of-bounds branch of a tile copy.
// The plain kernels are plain_kernel<KernelKind, TILE> and plain_rung<KernelKind>
// (the ladder's rungs); kind is the enum's value.
struct SassCounts {
  int kind = 0;
  int tile = 0;  // 0: compiled once for every TILE (the naive kernels' block edge is a launch parameter; a rung)
  std::map<std::string, int> opcodes;
};
std::vector<SassCounts> parse_sass(std::istream& in);
// The counts for one kernel and TILE, or for the kernel's TILE-0 build.
std::optional<SassCounts> find_sass(const std::vector<SassCounts>& all, int kind, int tile);

}  // namespace ts
