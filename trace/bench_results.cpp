// bench_results.cpp — the benchmark's arithmetic: flops, bytes, percentages, roofline.
#include "trace/bench_results.h"

#include <algorithm>
#include <cmath>

namespace ts {

// --- arithmetic ---------------------------------------------------------------

double fp32_peak_gflops(const BenchDevice& d) {
  return 2.0 * d.sm_count * d.fp32_lanes_per_sm * d.sm_clock_max_mhz * 1e-3;
}

double gemm_flops(int m, int n, int k) { return 2.0 * m * double(n) * k; }

double gemm_bytes_compulsory(int m, int n, int k) {
  return 4.0 * (double(m) * k + double(k) * n + double(m) * n);
}

double gemm_bytes_tiled(int m, int n, int k, int block_m, int block_n) {
  const double block_cols = std::ceil(double(n) / block_n), block_rows = std::ceil(double(m) / block_m);
  return 4.0 * (double(m) * k * block_cols + double(k) * n * block_rows + double(m) * n);
}

const BenchRow* find_row(const BenchResults& results, std::string_view kernel, int m, int n, int k) {
  for (const BenchRow& r : results.rows)
    if (r.kernel == kernel && r.m == m && r.n == n && r.k == k) return &r;
  return nullptr;
}

void derive_figures(BenchResults& results) {
  const double peak = results.ceilings.peak_fp32_gflops;
  for (BenchRow& r : results.rows) {
    r.intensity = r.bytes > 0 ? gemm_flops(r.m, r.n, r.k) / r.bytes : 0;
    if (r.status != RowStatus::Ok || r.time_ms <= 0) {
      r.gflops = r.pct_cublas = r.pct_cublas_tf32 = r.pct_peak = 0;
      continue;
    }
    r.gflops = gemm_flops(r.m, r.n, r.k) / (r.time_ms * 1e6);
    r.pct_peak = peak > 0 ? 100.0 * r.gflops / peak : 0;
  }
  // Percentages against the references of the same size, measured in the same run.
  for (BenchRow& r : results.rows) {
    if (r.status != RowStatus::Ok) continue;
    const BenchRow* fp32 = find_row(results, "cublas-fp32", r.m, r.n, r.k);
    const BenchRow* tf32 = find_row(results, "cublas-tf32", r.m, r.n, r.k);
    const bool own_fp32 = r.precision == "fp32";
    const auto pct = [&](const BenchRow* ref, bool own) {
      if (!ref || ref->status != RowStatus::Ok) return 0.0;
      return 100.0 * (own && r.reference_ms > 0 ? r.reference_ms : ref->time_ms) / r.time_ms;
    };
    r.pct_cublas = pct(fp32, own_fp32);
    r.pct_cublas_tf32 = pct(tf32, !own_fp32);
  }
}

std::string_view row_status_name(RowStatus s) {
  switch (s) {
    case RowStatus::Ok: return "ok";
    case RowStatus::Failed: return "failed";
    case RowStatus::Refused: return "refused";
    case RowStatus::Skipped: return "skipped";
  }
  return "ok";
}

std::optional<RowStatus> row_status_from_name(std::string_view name) {
  for (RowStatus s : {RowStatus::Ok, RowStatus::Failed, RowStatus::Refused, RowStatus::Skipped})
    if (row_status_name(s) == name) return s;
  return std::nullopt;
}

double Roofline::ridge_intensity() const {
  return bandwidth_gbytes_per_s > 0 ? compute_gflops / bandwidth_gbytes_per_s : 0;
}

double Roofline::attainable_gflops(double intensity) const {
  return std::min(compute_gflops, bandwidth_gbytes_per_s * intensity);
}

Roofline fp32_roofline(const BenchCeilings& c) { return {c.copy_gbytes_per_s, c.peak_fp32_gflops}; }

}  // namespace ts
