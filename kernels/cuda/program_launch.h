// program_launch.h — one kernel launched once, plain (uninstrumented), on
// seeded inputs, its C checked, nothing recorded: `tilescope launch`, the
// program that `tilescope record --cuda-file`, `--library cublas` and
// `--tracer` run under the tracer (docs/tracer.md). Three sources: one of
// tilescope's own kernels, a CUDA file as written, cuBLAS's GEMM.
//
// A, B and C are the process's first three device allocations, in that
// order (the tracer numbers allocations from 0: the recorder names them so).
// A and B hold the inputs `tilescope record --seed S` makes; C starts as NaN
// (a cell never written stays NaN), or 0 for an entry that takes a beta.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/kernel_kind.h"
#include "kernels/user/plain_kernel.h"
#include "trace/memory.h"

namespace ts::gpu {

enum class LaunchSource { Catalog, CudaFile, Cublas };

struct LaunchRequest {
  LaunchSource source = LaunchSource::Catalog;
  KernelKind kernel = KernelKind::Tiled;  // Catalog
  int tile = 16;
  PlainKernel file;                       // CudaFile
  bool tf32 = false;                      // Cublas: CUBLAS_COMPUTE_32F_FAST_TF32
  int m = 64, n = 64, k = 64;
  std::uint64_t seed = 0;                 // 0: a fresh one
  MatrixOrder order = MatrixOrder::RowMajor;  // of A, B and C in memory (dense); the catalog's kernels: row-major
};

struct LaunchOutcome {
  std::string kernel;  // what ran: "tiled TILE=16", the entry, "cuBLAS 13.0.2 SGEMM"
  std::string device;
  std::uint64_t seed = 0;
  double milliseconds = 0;  // the launch (cuBLAS: the call), timed with events
  std::string product;      // what C was held to: "A x B", "2 x A x B"
  std::string wrong;        // empty: C is right; else what is wrong
};

// Throws GpuError (no GPU, a failed or faulting launch, out of memory),
// UserKernelError (a CUDA file that does not compile or bind), RecordError
// (sizes a launch cannot take).
LaunchOutcome launch_once(const LaunchRequest& request);

}  // namespace ts::gpu
