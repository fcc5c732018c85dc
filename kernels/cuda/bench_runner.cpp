// bench_runner.cpp — the benchmark: for each shape, fresh inputs, the cuBLAS
// references, then every kernel checked (poisoned output, double-precision
// reference, cuBLAS) and, only if it passed, timed.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "kernels/cuda/bench_check.cuh"
#include "kernels/cuda/bench_device.cuh"
#include "kernels/cuda/bench_entries.cuh"
#include "kernels/cuda/bench_runner.h"
#include "kernels/cuda/bench_timing.cuh"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_runtime.h"

namespace ts::gpu {
namespace {

constexpr int kCeilingEdge = 8192;                 // cuBLAS's ceiling: the largest square of the sweep
constexpr std::size_t kCopyBytes = std::size_t(1) << 30;  // 1 GiB each way: far past the L2
constexpr std::size_t kMemoryMargin = std::size_t(512) << 20;  // cuBLAS workspace and the runtime's own

class Stream {
 public:
  Stream() { TS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

std::string shape_text(const GemmShape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

std::size_t free_device_bytes() {
  std::size_t free_b = 0, total_b = 0;
  TS_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return free_b;
}

// The buffers and host copies of one shape, reused across shapes (grow-only).
struct Workspace {
  DeviceBuffer a, b, c;
  std::optional<L2Flush> flush;  // before each timed run, where the options ask for it
  std::size_t held_a = 0, held_b = 0, held_c = 0;  // cells each holds on the GPU: grow-only
  double held_bytes() const { return 4.0 * double(held_a + held_b + held_c); }
  std::vector<float> host_a, host_b, host_c, cublas_fp32, cublas_tf32;
};

BenchRow make_row(const BenchEntry& e, const GemmShape& s) {
  BenchRow row;
  row.kernel = e.info.name;
  row.family = e.info.family;
  row.precision = e.info.precision;
  row.m = s.m, row.n = s.n, row.k = s.k;
  row.bytes = e.bytes(s.m, s.n, s.k);
  return row;
}

// Checks entry `index` on the shape's inputs and, if right, times it.
BenchRow run_entry(const BenchOptions& opt, const std::vector<BenchEntry>& entries, std::size_t index,
                   const GemmShape& s, const ReferenceCells& ref, Workspace& w, int cc, cudaStream_t stream) {
  const BenchEntry& e = entries[index];
  BenchRow row = make_row(e, s);
  if (std::string why = e.refusal(s.m, s.n, s.k, cc); !why.empty()) {
    row.status = RowStatus::Refused;
    row.message = why;
    return row;
  }
  const std::size_t mn = std::size_t(s.m) * s.n;
  float *a = w.a.get<float>(std::size_t(s.m) * s.k), *b = w.b.get<float>(std::size_t(s.k) * s.n), *c = w.c.get<float>(mn);
  const auto launch = [&] { e.launch(a, b, c, s.m, s.n, s.k, stream); };

  // The check run, poisoned first; its time also predicts how long the timed runs take.
  poison(c, mn, stream);
  Timing first;
  try {
    first = time_launches(launch, 0, 1, stream);
  } catch (const GpuRefusal& e) {  // a resource this GPU lacks, found before any launch
    row.status = RowStatus::Refused;
    row.message = std::string(e.what());
    return row;
  }
  w.host_c.resize(mn);
  TS_CUDA_CHECK(cudaMemcpyAsync(w.host_c.data(), c, mn * sizeof(float), cudaMemcpyDeviceToHost, stream));
  TS_CUDA_CHECK(cudaStreamSynchronize(stream));
  const bool tf32 = e.info.precision == "tf32";
  // cuBLAS FP32 is checked against the reference alone; TF32 kernels against cuBLAS TF32
  // (and cuBLAS TF32 itself against FP32); FP32 kernels against cuBLAS FP32.
  const std::vector<float>* against = index == 0 ? nullptr : (tf32 && index != 1) ? &w.cublas_tf32 : &w.cublas_fp32;
  if (against && against->size() != mn) against = nullptr;  // that cuBLAS row failed: the reference still judges
  const CheckResult check = check_output(w.host_c, s.m, s.n, ref, against, tf32 ? kTf32Tolerance : kFp32Tolerance);
  row.rel_err_ref = check.rel_err_ref;
  row.rel_err_cublas = check.rel_err_cublas;
  if (!check.ok) {
    row.status = RowStatus::Failed;
    row.message = check.message;
    return row;
  }
  if (index == 0) w.cublas_fp32 = w.host_c;
  if (index == 1) w.cublas_tf32 = w.host_c;

  const double estimate_s = first.median_ms * (opt.warmup_runs + opt.timed_runs) / 1000.0;
  if (estimate_s > opt.max_seconds_per_row) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "correct, not timed: %d runs would take about %.0f s (one took %.0f ms; limit %.0f s)",
                  opt.warmup_runs + opt.timed_runs, estimate_s, first.median_ms, opt.max_seconds_per_row);
    row.status = RowStatus::Skipped;
    row.message = buf;
    return row;
  }
  // A kernel is timed in alternating rounds with the cuBLAS of its precision
  // (where that one was right at this shape): clocks that drop under the power
  // cap partway through a run then slow both alike, and the percentage
  // compares them at the same clocks. cuBLAS rows are timed on their own.
  const std::size_t reference = tf32 ? 1 : 0;
  const bool paired = opt.paired && index > 1 && (tf32 ? w.cublas_tf32 : w.cublas_fp32).size() == mn;
  const auto between = [&] {
    if (w.flush) (*w.flush)();
  };
  Timing t;
  if (paired) {
    const BenchEntry& ref_entry = entries[reference];
    const PairedTiming p = time_paired([&] { ref_entry.launch(a, b, c, s.m, s.n, s.k, stream); }, launch,
                                       opt.warmup_runs, opt.timed_runs, stream, between);
    t = p.b;
    row.reference_ms = p.a.median_ms;
  } else {
    t = time_launches(launch, opt.warmup_runs, opt.timed_runs, stream, between);
  }
  row.runs = t.runs;
  row.time_ms = t.median_ms;
  row.time_min_ms = t.min_ms;
  row.time_max_ms = t.max_ms;
  return row;
}

void run_shape(const BenchOptions& opt, const std::vector<BenchEntry>& entries, std::size_t shape_index,
               BenchResults& results, Workspace& w, cudaStream_t stream, const ProgressFn& progress, std::size_t& done,
               std::size_t total) {
  const GemmShape& s = opt.shapes[shape_index];
  const std::size_t mk = std::size_t(s.m) * s.k, kn = std::size_t(s.k) * s.n, mn = std::size_t(s.m) * s.n;
  const double need = 4.0 * double(mk + kn + mn);
  // What is already allocated for an earlier shape counts as free for this one.
  const double have = double(free_device_bytes()) + w.held_bytes();
  if (need + kMemoryMargin > have) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "not run: needs %.1f GiB of GPU memory, %.1f GiB free", need / (1 << 30),
                  have / (1 << 30));
    for (const BenchEntry& e : entries) {
      BenchRow row = make_row(e, s);
      row.status = RowStatus::Skipped;
      row.message = buf;
      results.rows.push_back(std::move(row));
      ++done;
    }
    return;
  }
  const std::uint64_t seed = opt.seed * 0x100000001b3ull + shape_index;  // fresh inputs for every shape
  float* a = w.a.get<float>(mk);
  float* b = w.b.get<float>(kn);
  w.c.get<float>(mn);
  w.held_a = std::max(w.held_a, mk), w.held_b = std::max(w.held_b, kn), w.held_c = std::max(w.held_c, mn);
  fill_uniform(a, mk, seed * 2 + 1, stream);
  fill_uniform(b, kn, seed * 2 + 2, stream);
  w.host_a.resize(mk);
  w.host_b.resize(kn);
  TS_CUDA_CHECK(cudaMemcpyAsync(w.host_a.data(), a, mk * sizeof(float), cudaMemcpyDeviceToHost, stream));
  TS_CUDA_CHECK(cudaMemcpyAsync(w.host_b.data(), b, kn * sizeof(float), cudaMemcpyDeviceToHost, stream));
  TS_CUDA_CHECK(cudaStreamSynchronize(stream));
  const ReferenceCells ref = reference_cells(w.host_a, w.host_b, s.m, s.n, s.k, seed);
  w.cublas_fp32.clear();
  w.cublas_tf32.clear();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (progress) progress({done, total, entries[i].info.name + " " + shape_text(s)});
    results.rows.push_back(run_entry(opt, entries, i, s, ref, w, results.device.compute_capability, stream));
    ++done;
  }
}

// Copy bandwidth, and cuBLAS at 8192^3 where it fits: the roofline's ceilings.
void measure_ceilings(BenchResults& results, const std::vector<BenchEntry>& entries, cudaStream_t stream) {
  const std::size_t copy_bytes = std::min(kCopyBytes, free_device_bytes() / 4);
  results.ceilings.copy_gbytes_per_s = measure_copy_bandwidth(copy_bytes, stream);
  const std::size_t cells = std::size_t(kCeilingEdge) * kCeilingEdge;
  if (3 * cells * sizeof(float) + kMemoryMargin > free_device_bytes()) return;
  DeviceBuffer a, b, c;
  float *da = a.get<float>(cells), *db = b.get<float>(cells), *dc = c.get<float>(cells);
  fill_uniform(da, cells, 7, stream);
  fill_uniform(db, cells, 8, stream);
  const int e = kCeilingEdge;
  for (std::size_t i = 0; i < 2; ++i) {
    const Timing t = time_launches([&] { entries[i].launch(da, db, dc, e, e, e, stream); }, 3, 10, stream);
    const double gflops = gemm_flops(e, e, e) / (t.median_ms * 1e6);
    (i == 0 ? results.ceilings.cublas_fp32_gflops : results.ceilings.cublas_tf32_gflops) = gflops;
  }
  results.device.sm_clock_mhz = read_sm_clock_mhz();  // read with the GPU still warm from the products
}

std::vector<BenchEntry> select_entries(std::vector<BenchEntry> all, const std::vector<std::string>& names) {
  if (names.empty()) return all;
  std::vector<bool> keep(all.size(), false);
  keep[0] = keep[1] = true;  // cuBLAS: every percentage is against it
  for (const std::string& name : names) {
    bool found = false;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (all[i].info.name == name || all[i].info.family == name) keep[i] = found = true;
    if (!found) {
      std::string known = "visualized, ladder, cublas";
      for (const BenchEntry& e : all) known += ", " + e.info.name;
      throw std::invalid_argument("unknown kernel '" + name + "' (known: " + known + ")");
    }
  }
  std::vector<BenchEntry> chosen;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (keep[i]) chosen.push_back(std::move(all[i]));
  return chosen;
}

void validate(const BenchOptions& opt) {
  if (opt.shapes.empty()) throw std::invalid_argument("no sizes to run");
  for (const GemmShape& s : opt.shapes)
    if (s.m < 1 || s.n < 1 || s.k < 1) throw std::invalid_argument("m, n and k must be positive, got " + shape_text(s));
  if (opt.timed_runs < 1 || opt.warmup_runs < 0) throw std::invalid_argument("at least one timed run");
}

}  // namespace

BenchResults run_bench_entries(const BenchOptions& opt, const std::vector<BenchEntry>& entries,
                               const ProgressFn& progress) {
  validate(opt);
  if (entries.size() < 2 || entries[0].info.name != "cublas-fp32" || entries[1].info.name != "cublas-tf32")
    throw std::logic_error("run_bench_entries: cuBLAS FP32 and TF32 must come first");
  const Stream stream;
  BenchResults results;
  results.device = read_bench_device(CublasHandle::version());
  results.ceilings.peak_fp32_gflops = fp32_peak_gflops(results.device);
  if (opt.measure_ceilings) {
    if (progress) progress({0, opt.shapes.size() * entries.size(), "ceilings: copy bandwidth, cuBLAS 8192^3"});
    measure_ceilings(results, entries, stream.get());
  }
  Workspace w;
  if (opt.flush_l2) w.flush.emplace(stream.get());
  results.timing = std::string(opt.paired ? "each kernel in alternating rounds with the cuBLAS of its precision"
                                          : "each kernel on its own, back to back") +
                   (opt.flush_l2 ? "; the L2 cache overwritten before every timed run"
                                 : "; the L2 cache as the last run left it");
  std::size_t done = 0;
  const std::size_t total = opt.shapes.size() * entries.size();
  for (std::size_t i = 0; i < opt.shapes.size(); ++i) run_shape(opt, entries, i, results, w, stream.get(), progress, done, total);
  if (progress) progress({done, total, "done"});
  // The cuBLAS ceilings are the best cuBLAS managed anywhere in the run.
  for (const BenchRow& r : results.rows) {
    if (r.status != RowStatus::Ok || r.family != "cublas") continue;
    double& best = r.precision == "tf32" ? results.ceilings.cublas_tf32_gflops : results.ceilings.cublas_fp32_gflops;
    best = std::max(best, gemm_flops(r.m, r.n, r.k) / (r.time_ms * 1e6));
  }
  if (results.device.sm_clock_mhz == 0) results.device.sm_clock_mhz = read_sm_clock_mhz();
  derive_figures(results);
  return results;
}

BenchResults run_benchmark(const BenchOptions& options, const ProgressFn& progress) {
  const DeviceStatus st = probe();
  if (!st.available) throw GpuError("no GPU found: " + st.reason);
  validate(options);
  CublasHandle cublas;
  return run_bench_entries(options, select_entries(all_bench_entries(&cublas), options.kernels), progress);
}

std::vector<BenchKernelInfo> bench_kernel_list() {
  std::vector<BenchKernelInfo> list;
  for (const BenchEntry& e : all_bench_entries(nullptr)) list.push_back(e.info);
  return list;
}

}  // namespace ts::gpu
