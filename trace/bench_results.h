// bench_results.h — what `tilescope bench` measured: the GPU it ran on, the
// ceilings measured there, one row per kernel and size; and the arithmetic on
// them (flops, bytes, the percentages, the roofline the benchmark panel
// draws). No CUDA here: the benchmark runner (kernels/cuda) fills them, the
// app reads them, and their files are app/core/bench_results_file.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

struct BenchDevice {
  std::string name;             // e.g. "NVIDIA H200"
  int compute_capability = 0;   // e.g. 90
  int sm_count = 0;
  int fp32_lanes_per_sm = 0;    // FP32 FMA units per SM (128 on Hopper)
  double sm_clock_max_mhz = 0;  // the clock the FP32 peak is computed at
  double sm_clock_mhz = 0;      // read while the benchmark ran (0: unknown)
  double mem_clock_mhz = 0;     // (0: unknown)
  std::string driver;           // e.g. "580.159.04"
  std::string cuda_runtime;     // e.g. "13.0"
  std::string cublas;           // e.g. "13.0.2"
  std::string date;             // ISO 8601, UTC
};

// One FMA is two flops, per lane per clock.
double fp32_peak_gflops(const BenchDevice& d);

struct BenchCeilings {
  double peak_fp32_gflops = 0;    // from SM count, lanes per SM and clock
  double copy_gbytes_per_s = 0;   // measured: a large device-to-device copy, bytes read + written
  double cublas_fp32_gflops = 0;  // measured: the fastest cuBLAS SGEMM of the run
  double cublas_tf32_gflops = 0;  // measured: the same with TF32 tensor cores
};

enum class RowStatus { Ok, Failed, Refused, Skipped };
std::string_view row_status_name(RowStatus s);
std::optional<RowStatus> row_status_from_name(std::string_view name);

struct BenchRow {
  std::string kernel;     // e.g. "tiled/16", "warptile", "cublas-fp32"
  std::string family;     // "visualized", "ladder" or "cublas"
  std::string precision;  // "fp32" or "tf32"
  int m = 0, n = 0, k = 0;
  RowStatus status = RowStatus::Ok;
  std::string message;    // why it failed, was refused or skipped
  int runs = 0;           // timed runs after warm-up
  double time_ms = 0;     // median of the timed runs
  double time_min_ms = 0, time_max_ms = 0;
  // The cuBLAS of the row's precision timed in alternating rounds with this
  // kernel (its median there), so that both ran at the same clocks and power
  // state; 0 where not paired (the cuBLAS rows themselves, files from before).
  double reference_ms = 0;
  double gflops = 0;
  double pct_cublas = 0;       // of cuBLAS FP32 at the same size, same run (paired where reference_ms is)
  double pct_cublas_tf32 = 0;  // of cuBLAS TF32 at the same size, same run (paired where reference_ms is)
  double pct_peak = 0;         // of the FP32 peak
  double bytes = 0;            // global bytes the kernel moves by its tiling (see gemm_bytes_tiled)
  double intensity = 0;        // flops per global byte
  double rel_err_ref = 0;      // ||C - ref|| / ||ref||, ref in double precision
  double rel_err_cublas = 0;   // the same against cuBLAS of the same precision
};

struct BenchResults {
  BenchDevice device;
  BenchCeilings ceilings;
  // How the kernels were timed, in words (e.g. "each kernel in alternating
  // rounds with the cuBLAS of its precision; the L2 cache overwritten before
  // every timed run"); empty in files from before it was recorded.
  std::string timing;
  std::vector<BenchRow> rows;
};

// --- arithmetic ---------------------------------------------------------

double gemm_flops(int m, int n, int k);
// Each of A, B, C crosses global memory once: the least any kernel moves.
double gemm_bytes_compulsory(int m, int n, int k);
// A kernel whose blocks each own a block_m x block_n tile of C reads A once
// per block column and B once per block row, and writes C once.
double gemm_bytes_tiled(int m, int n, int k, int block_m, int block_n);

// Fills gflops, intensity, pct_peak, pct_cublas and pct_cublas_tf32 from the
// times, bytes and the cuBLAS rows of the same size; failed rows get zeros.
// The percentage against the cuBLAS of the row's own precision uses the row's
// reference_ms where it has one (timed in alternating rounds with it), else
// that cuBLAS row's time.
void derive_figures(BenchResults& results);

// The row of a kernel at a size, or null.
const BenchRow* find_row(const BenchResults& results, std::string_view kernel, int m, int n, int k);

// --- roofline -------------------------------------------------------------

struct Roofline {
  double bandwidth_gbytes_per_s;  // the slope
  double compute_gflops;          // the flat roof
  double ridge_intensity() const;                      // where they meet, flops per byte
  double attainable_gflops(double intensity) const;    // min(roof, slope * intensity)
};
// The roofline of the measured copy bandwidth under the FP32 peak.
Roofline fp32_roofline(const BenchCeilings& c);

}  // namespace ts
