// launch_options.h — the flags of a launch tilescope makes for the tracer:
// a CUDA file as written (--cuda-file), cuBLAS's GEMM (--library cublas), or
// one of tilescope's own kernels launched plain. `tilescope launch` runs one;
// `tilescope record` with the same flags traces it (record_exec.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "app/cli/record_options.h"
#include "kernels/cuda/program_launch.h"

namespace ts::cli {

struct LaunchFlags {
  std::string cuda_file, grid;
  std::uint32_t dynamic_shared = 0;
  std::string library;        // "cublas"
  std::string math = "fp32";  // with --library cublas: fp32 or tf32
  std::string layout;         // row or col; unsaid: col for cuBLAS, row else
  // Whether any was given (record then launches rather than records).
  bool any() const {
    return !cuda_file.empty() || !library.empty() || math != "fp32" || !grid.empty() || dynamic_shared != 0;
  }
};

// --cuda-file --grid --dynamic-shared --library --math, and --layout unless
// the command has its own (record's --exec; the rest, --entry, --block, -D,
// --arg, are record's too: add_record_options).
void add_launch_flags(CLI::App& app, LaunchFlags& f, bool with_layout = true);

// The request for opts + flags; an error message, empty when valid. With
// neither --cuda-file nor --library: one of tilescope's kernels (--kernel
// --tile) launched plain.
std::string to_launch_request(const RecordOptions& opts, const LaunchFlags& f, gpu::LaunchRequest& q);

// `tilescope launch` flags that make the same request (after "launch").
std::vector<std::string> launch_arguments(const gpu::LaunchRequest& q);

}  // namespace ts::cli
