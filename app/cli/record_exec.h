// record_exec.h — `tilescope record --exec -- PROGRAM ARGS...`: trace one
// kernel launch of any program with the tracer (tracer/, docs/tracer.md).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts::cli {

struct ExecOptions {
  bool exec = false;
  std::vector<std::string> program;  // PROGRAM ARGS..., after --
  std::string layout;                // of A, B and C: row or col (cuBLAS: col); empty: row
  std::uint64_t launch = 0;          // which matching launch
  std::string kernel_name;           // regex a launch's kernel must contain
  std::uint64_t max_records = 1ull << 25;
  std::uint32_t k_tile = 0;
  std::optional<std::uint32_t> a_alloc, b_alloc, c_alloc;
  // Set by record for a launch of its own (`tilescope launch`, launch_options.h):
  std::string source = "exec";  // TracerInfo::source
  std::string shown;            // the command as the trace shows it (empty: the program and its arguments)
  std::optional<std::uint64_t> seed;
  bool launcher = false;  // the program is `tilescope launch`: its failure is record's (it said why)
  bool all_launches = false;  // also trace each launch after the chosen one, into OUT.N.tstrace
};

// Adds --exec and its flags (and the PROGRAM positional) to `record`.
void add_exec_options(CLI::App& app, ExecOptions& o);

// Runs the program under the tracer and writes the trace; with all_launches,
// runs it again for each launch after the traced one (OUT.N.tstrace, N its
// place among all the program's launches). m, n, k: the
// product's sizes; timeout: seconds the program may run (0: no limit).
int record_exec(const ExecOptions& o, int m, int n, int k, double timeout, const std::string& out);

}  // namespace ts::cli
