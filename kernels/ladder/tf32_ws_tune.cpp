// tf32_ws_tune.cpp — the variants of tf32-wgmma-ws (tile shape, stages,
// grouping, persistent or not, clusters with TMA multicast) side by side with
// cuBLAS TF32 and rung 7 (tf32-wgmma), per shape: each is checked against a
// double-precision reference at a small ragged shape and against cuBLAS TF32
// over the whole matrix at every timed shape (a variant that fails is
// reported WRONG or failed, with the reason, and never timed), then timed
// (median of --runs). Ends with a table of TFLOP/s: the figures the shipped
// choice in tf32_wgmma_ws_variants.h is to be made from (docs/ladder-notes.md).
//
//   tf32_ws_tune [MxNxK...] [--runs=N] [--only=TEXT]... [--skip=TEXT]... [--name=NAME]... [--list] [--warm-l2]
//   (default shapes 4096x4096x4096 8192x8192x8192; TEXT is part of a variant's
//   name, NAME all of it; with --only, rung 7 is left out; --list prints the
//   selected names, one a line, and needs no GPU. Every timed run finds the
//   L2 overwritten, as the benchmark's do; --warm-l2 leaves it as the run
//   before left it, as this program timed until run 33.)
//
// A shape a candidate refuses (rung 7 needs k and n multiples of 4) is not
// launched: the ragged check runs it at the nearest shape it takes, the table
// says "refused". A fault inside a kernel (an illegal or misaligned address)
// ends the CUDA context of the whole process: the candidate is reported
// failed with the fault, the ones not yet run "not run", and the exit status
// is 3. So scripts/gpu-checks.d/78-tf32-ws-tune.sh runs one process per
// --name: a fault then hides nothing else.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "trace/model/reference.h"
#include "kernels/cuda/bench_check.cuh"
#include "kernels/cuda/bench_cublas.cuh"
#include "kernels/cuda/bench_timing.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/ladder/ladder.h"
#include "kernels/ladder/tf32_wgmma_ws.h"

namespace ts::ladder {
namespace {

struct Shape {
  int m, n, k;
};

using Launch = std::function<void(const float*, const float*, float*, int, int, int, cudaStream_t)>;

struct Candidate {
  std::string name;  // as --list prints it and --name selects it
  bool shipped = false;
  Launch launch;
  std::function<std::string(const Shape&)> refusal;  // why it cannot run a shape, or empty
  int regs = 0;
  std::size_t local_bytes = 0;
  std::string failed;  // why it is not timed (a failed check, a fault, its layout), or empty

  std::string label() const { return name + (shipped ? " *" : ""); }
};

double tflops(const Shape& s, double ms) { return 2.0 * s.m * double(s.n) * s.k / (ms * 1e9); }

std::string shape_text(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

struct Selection {
  std::vector<std::string> only, skip, names;  // each may be repeated: any match counts

  bool takes(const std::string& name, bool rung7) const {
    const auto has = [&](const std::vector<std::string>& texts, bool whole) {
      for (const std::string& t : texts)
        if (whole ? name == t : name.find(t) != std::string::npos) return true;
      return false;
    };
    if (!names.empty()) return has(names, true);
    if (rung7 && !only.empty()) return false;
    return (only.empty() || has(only, false)) && !has(skip, false);
  }
};

// Rung 7 and every compiled variant that `sel` takes, in that order. No GPU
// needed (cc: the GPU's compute capability, for rung 7's refusals).
std::vector<Candidate> candidates(const Selection& sel, int cc) {
  std::vector<Candidate> all;
  if (const LadderKernel* rung7 = find_ladder_kernel("tf32-wgmma"); rung7 && sel.takes("tf32-wgmma (rung 7)", true)) {
    Candidate c;
    c.name = "tf32-wgmma (rung 7)";
    c.launch = rung7->launch;
    c.refusal = [rung7, cc](const Shape& s) { return ladder_refusal(*rung7, s.m, s.n, s.k, cc); };
    all.push_back(std::move(c));
  }
  const auto refusal = [](const Shape& s) { return index_refusal(s.m, s.n, s.k); };  // any shape the benchmark indexes
  if (sel.takes("tf32-wgmma-ws (rule)", false)) {
    Candidate c;
    c.name = "tf32-wgmma-ws (rule)";
    c.shipped = true;
    c.launch = launch_tf32_wgmma_ws;
    c.refusal = refusal;
    all.push_back(std::move(c));
  }
  const auto variants = tf32_ws_variants();
  // Each variant with its own grid, then (persistent variants) stream-k, the
  // tail split and split-k in every number of pieces the rule weighs.
  std::vector<Tf32WsPlan> plans;
  for (int v = 0; v < int(variants.size()); ++v) {
    plans.push_back({v, false, 1});
    if (!variants[v].persistent) continue;
    plans.push_back({v, true, 1});
    for (const int t : ws::kTailPieces) plans.push_back({v, false, 1, t});
    for (const int s : kTf32WsSplits) plans.push_back({v, false, s});
  }
  for (const Tf32WsPlan& plan : plans) {
    const std::string name = tf32_ws_plan_name(plan, variants);
    if (!sel.takes(name, false)) continue;
    Candidate c;
    c.name = name;
    c.launch = [plan](const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t s) {
      launch_tf32_ws_variant(plan.variant, a, b, c, m, n, k, s, 0, plan.stream_k, plan.splits, plan.tail);
    };
    c.refusal = refusal;
    // The kernel's static_assert holds this for every compiled variant; a
    // variant whose carve-up broke a rule would fault, so it is never launched.
    if (const char* why = ws::ws_plan_problem(shared_plan(variants[std::size_t(plan.variant)])))
      c.failed = std::string("shared-memory layout: ") + why;
    all.push_back(std::move(c));
  }
  return all;
}

// Runs f; a GpuError becomes its message (empty: none). `lost` is set when the
// error ended the process's CUDA context (a fault inside a kernel: nothing
// later can run here), not when it was only a refused launch.
template <class F>
std::string guarded(F&& f, bool& lost) {
  try {
    f();
    return {};
  } catch (const gpu::GpuError& e) {
    lost = cudaDeviceSynchronize() != cudaSuccess;
    (void)cudaGetLastError();  // a launch's own error does not stick; clear it for the next candidate
    return e.what();
  }
}

double normwise_error(const std::vector<float>& out, const std::vector<float>& ref) {
  double diff = 0, norm = 0;
  for (std::size_t j = 0; j < out.size(); ++j) {
    diff += double(out[j] - ref[j]) * (out[j] - ref[j]);
    norm += double(ref[j]) * ref[j];
  }
  return std::sqrt(diff / norm);
}

// Small and ragged (k and n not multiples of 4: the padded copies), every
// cell against double precision; a candidate that refuses such a shape runs
// the same one rounded up to what it takes. A failure here keeps it from timing.
void check_small(Candidate& c, cudaStream_t stream, bool& lost) {
  Shape s{300, 261, 199};
  if (!c.refusal(s).empty()) s = {300, 264, 200};
  if (const std::string why = c.refusal(s); !why.empty()) {
    c.failed = "refused its check: " + why;
  } else {
    double err = 0;
    c.failed = guarded(
        [&] {
          std::vector<float> a(std::size_t(s.m) * s.k), b(std::size_t(s.k) * s.n), out(std::size_t(s.m) * s.n);
          for (std::size_t i = 0; i < a.size(); ++i) a[i] = float((i * 2654435761u) % 2001) / 1000.0f - 1.0f;
          for (std::size_t i = 0; i < b.size(); ++i) b[i] = float((i * 40503u + 7) % 2001) / 1000.0f - 1.0f;
          gpu::DeviceBuffer da, db, dc;
          TS_CUDA_CHECK(cudaMemcpy(da.get<float>(a.size()), a.data(), a.size() * 4, cudaMemcpyHostToDevice));
          TS_CUDA_CHECK(cudaMemcpy(db.get<float>(b.size()), b.data(), b.size() * 4, cudaMemcpyHostToDevice));
          gpu::poison(dc.get<float>(out.size()), out.size(), stream);
          c.launch(da.get<float>(a.size()), db.get<float>(b.size()), dc.get<float>(out.size()), s.m, s.n, s.k, stream);
          TS_CUDA_CHECK(cudaStreamSynchronize(stream));
          TS_CUDA_CHECK(cudaMemcpy(out.data(), dc.get<float>(out.size()), out.size() * 4, cudaMemcpyDeviceToHost));
          err = relative_error(out, reference_matmul(a, b, s.m, s.n, s.k));
        },
        lost);
    if (c.failed.empty() && !(std::isfinite(err) && err < gpu::kTf32Tolerance)) {
      char why[96];
      std::snprintf(why, sizeof why, "wrong at %s: err %.2e against double precision", shape_text(s).c_str(), err);
      c.failed = why;
    }
    if (c.failed.empty())
      std::printf("check %-28s %-12s ok   err %.2e  regs %d local %zu B\n", c.label().c_str(), shape_text(s).c_str(), err,
                  c.regs, c.local_bytes);
  }
  if (!c.failed.empty()) std::printf("check %-28s FAIL %s\n", c.label().c_str(), c.failed.c_str());
  std::fflush(stdout);
}

void print_table(const std::vector<Shape>& shapes, const std::vector<Candidate>& all, int runs, bool warm_l2,
                 std::map<std::pair<std::string, std::string>, std::string>& table) {
  std::printf(
      "\nTFLOP/s (%% of cuBLAS TF32 timed apart | in alternating rounds, median of the rounds' ratios), median of %d "
      "runs, %s; * = the shipped tf32-wgmma-ws\n%-28s",
      runs, warm_l2 ? "the L2 as the run before left it" : "the L2 overwritten before every timed run", "kernel");
  for (const Shape& s : shapes) std::printf(" %22s", shape_text(s).c_str());
  std::printf("\n%-28s", "cublas-tf32");
  for (const Shape& s : shapes) std::printf(" %22s", table[{"cublas-tf32", shape_text(s)}].c_str());
  std::printf("\n");
  for (const Candidate& cand : all) {
    std::printf("%-28s", cand.label().c_str());
    for (const Shape& s : shapes) {
      const std::string& cell = table[{cand.name, shape_text(s)}];
      std::printf(" %22s", cell.empty() ? "not run" : cell.c_str());
    }
    std::printf("\n");
  }
  for (const Candidate& cand : all)
    if (!cand.failed.empty()) std::printf("failed: %s: %s\n", cand.label().c_str(), cand.failed.c_str());
}

int tune(const std::vector<Shape>& shapes, int runs, bool warm_l2, std::vector<Candidate> all) {
  gpu::CublasHandle cublas;
  cudaStream_t stream = nullptr;
  TS_CUDA_CHECK(cudaStreamCreate(&stream));
  // As the benchmark times (bench_runner), unless --warm-l2: every timed run
  // finds its inputs in device memory, not in what the run before left in the
  // L2 (at 1024^3 the operands fit in it).
  std::optional<gpu::L2Flush> flush;
  if (!warm_l2) flush.emplace(stream);
  const auto between = [&] {
    if (flush) (*flush)();
  };
  const auto variants = tf32_ws_variants();
  for (Candidate& c : all)
    for (int v = 0; v < int(variants.size()); ++v)
      if (c.name == variants[v].name) {
        const cudaFuncAttributes attr = tf32_ws_variant_attributes(v);
        c.regs = attr.numRegs;
        c.local_bytes = attr.localSizeBytes;
      }

  bool lost = false;  // a fault ended this process's CUDA context
  std::string lost_why;
  const auto note_loss = [&](const Candidate& c) {
    if (lost && lost_why.empty())
      lost_why = c.label() + "'s fault ended this process's CUDA context: run each variant alone (--name=NAME)";
  };
  int bad = 0;
  for (Candidate& c : all) {
    if (lost) break;
    if (c.failed.empty()) check_small(c, stream, lost);
    else std::printf("check %-28s FAIL %s\n", c.label().c_str(), c.failed.c_str());
    bad += !c.failed.empty();
    note_loss(c);
  }

  gpu::DeviceBuffer da, db, dc;
  std::map<std::pair<std::string, std::string>, std::string> table;  // (candidate, shape) -> "TFLOP/s (%)"
  std::printf("\n%-28s %-16s %9s %9s %9s %10s\n", "kernel", "shape", "ms", "TFLOP/s", "%cuBLAS", "err/cuBLAS");
  for (const Shape& s : shapes) {
    if (lost) break;
    const std::size_t cells = std::size_t(s.m) * s.n;
    float* a = da.get<float>(std::size_t(s.m) * s.k);
    float* b = db.get<float>(std::size_t(s.k) * s.n);
    float* c = dc.get<float>(cells);
    gpu::fill_uniform(a, std::size_t(s.m) * s.k, 61 + s.k, stream);
    gpu::fill_uniform(b, std::size_t(s.k) * s.n, 62 + s.n, stream);
    std::vector<float> ref(cells), out(cells);
    cublas.gemm_tf32(a, b, c, s.m, s.n, s.k, stream);
    TS_CUDA_CHECK(cudaMemcpy(ref.data(), c, cells * 4, cudaMemcpyDeviceToHost));
    const auto time_ms = [&](auto&& launch) { return gpu::time_launches(launch, 3, runs, stream, between).median_ms; };
    const double cublas_ms = time_ms([&] { cublas.gemm_tf32(a, b, c, s.m, s.n, s.k, stream); });
    const std::string st = shape_text(s);
    std::printf("%-28s %-16s %9.4f %9.1f %9.1f   the rule picks %s\n", "cublas-tf32", st.c_str(), cublas_ms,
                tflops(s, cublas_ms), 100.0,
                tf32_ws_plan_name(tf32_ws_current_plan(s.m, s.n, s.k), tf32_ws_variants()).c_str());
    char cell[48];
    std::snprintf(cell, sizeof cell, "%7.1f (100.0)", tflops(s, cublas_ms));
    table[{"cublas-tf32", st}] = cell;
    for (Candidate& cand : all) {
      if (lost) break;
      if (!cand.failed.empty()) {
        table[{cand.name, st}] = "failed";
        continue;
      }
      if (const std::string why = cand.refusal(s); !why.empty()) {
        std::printf("%-28s %-16s refused: %s\n", cand.label().c_str(), st.c_str(), why.c_str());
        table[{cand.name, st}] = "refused";
        continue;
      }
      double err = 0, ms = 0;  // ms stays 0 when the result is wrong: not timed
      gpu::PairedTiming paired;  // cuBLAS and the candidate in alternating rounds
      cand.failed = guarded(
          [&] {
            gpu::poison(c, cells, stream);
            cand.launch(a, b, c, s.m, s.n, s.k, stream);
            TS_CUDA_CHECK(cudaStreamSynchronize(stream));
            TS_CUDA_CHECK(cudaMemcpy(out.data(), c, cells * 4, cudaMemcpyDeviceToHost));
            err = normwise_error(out, ref);
            if (std::isfinite(err) && err <= gpu::kTf32Tolerance) {
              const auto launch = [&] { cand.launch(a, b, c, s.m, s.n, s.k, stream); };
              ms = time_ms(launch);
              paired = gpu::time_paired([&] { cublas.gemm_tf32(a, b, c, s.m, s.n, s.k, stream); }, launch, 3, runs,
                                        stream, between);
            }
          },
          lost);
      if (!cand.failed.empty()) {
        ++bad;
        note_loss(cand);
        std::printf("%-28s %-16s FAILED: %s\n", cand.label().c_str(), st.c_str(), cand.failed.c_str());
        table[{cand.name, st}] = "failed";
        continue;
      }
      if (ms == 0) {
        ++bad;
        std::printf("%-28s %-16s WRONG err %.2e against cuBLAS TF32 (not timed)\n", cand.label().c_str(), st.c_str(), err);
        table[{cand.name, st}] = "WRONG";
        continue;
      }
      std::printf("%-28s %-16s %9.4f %9.1f %9.1f %10.2e   paired: %.4f / %.4f ms, %.1f%%\n", cand.label().c_str(),
                  st.c_str(), ms, tflops(s, ms), 100.0 * cublas_ms / ms, err, paired.b.median_ms, paired.a.median_ms,
                  100.0 * paired.ratio_median);
      std::snprintf(cell, sizeof cell, "%7.1f (%5.1f|%5.1f)", tflops(s, ms), 100.0 * cublas_ms / ms,
                    100.0 * paired.ratio_median);
      table[{cand.name, st}] = cell;
      std::fflush(stdout);
    }
    if (lost) break;
    const double again = time_ms([&] { cublas.gemm_tf32(a, b, c, s.m, s.n, s.k, stream); });
    std::printf("%-28s %-16s %9.4f %9.1f %9.1f  (again: the run's drift)\n", "cublas-tf32", st.c_str(), again,
                tflops(s, again), 100.0 * cublas_ms / again);
  }

  print_table(shapes, all, runs, warm_l2, table);
  if (lost) {
    std::printf("not run: %s\n", lost_why.c_str());
    std::fflush(stdout);
    return 3;  // the context is gone: no further CUDA call (the stream is left to the process's end)
  }
  TS_CUDA_CHECK(cudaStreamDestroy(stream));
  return bad ? 3 : 0;
}

}  // namespace
}  // namespace ts::ladder

int main(int argc, char** argv) {
  std::vector<ts::ladder::Shape> shapes;
  int runs = 20;
  bool list = false, warm_l2 = false;
  ts::ladder::Selection sel;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    ts::ladder::Shape s{};
    if (arg.rfind("--runs=", 0) == 0) runs = std::atoi(arg.c_str() + 7);
    else if (arg.rfind("--only=", 0) == 0) sel.only.push_back(arg.substr(7));
    else if (arg.rfind("--skip=", 0) == 0) sel.skip.push_back(arg.substr(7));
    else if (arg.rfind("--name=", 0) == 0) sel.names.push_back(arg.substr(7));
    else if (arg == "--list") list = true;
    else if (arg == "--warm-l2") warm_l2 = true;
    else if (std::sscanf(arg.c_str(), "%dx%dx%d", &s.m, &s.n, &s.k) == 3 && s.m > 0 && s.n > 0 && s.k > 0)
      shapes.push_back(s);
    else {
      std::fprintf(stderr,
                   "tf32_ws_tune: arguments are MxNxK shapes, --runs=N, --only=TEXT, --skip=TEXT, --name=NAME, --list, "
                   "--warm-l2 "
                   "(not '%s')\n",
                   arg.c_str());
      return 2;
    }
  }
  if (runs < 1) runs = 20;
  if (shapes.empty()) shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}};
  if (list) {
    for (const ts::ladder::Candidate& c : ts::ladder::candidates(sel, 0)) std::printf("%s\n", c.name.c_str());
    return 0;
  }
  try {
    const ts::gpu::DeviceStatus st = ts::gpu::probe();
    if (!st.available) {
      std::fprintf(stderr, "tf32_ws_tune: no GPU found: %s\n", st.reason.c_str());
      return 1;
    }
    if (st.compute_capability != 90) {
      std::fprintf(stderr, "tf32_ws_tune: needs an sm_90 GPU (Hopper); this one is cc %d\n", st.compute_capability);
      return 1;
    }
    std::vector<ts::ladder::Candidate> all = ts::ladder::candidates(sel, st.compute_capability);
    if (all.empty()) {
      std::fprintf(stderr, "tf32_ws_tune: no variant matches the selection (--list prints the names)\n");
      return 2;
    }
    std::printf("%s, %d SMs\n", st.name.c_str(), st.sm_count);
    for (int v = 0; v < int(ts::ladder::tf32_ws_variants().size()); ++v)
      if (ts::ladder::tf32_ws_variants()[std::size_t(v)].k_tile_cost > 0)
        std::printf("resident clusters of %s: %d\n", std::string(ts::ladder::tf32_ws_variants()[std::size_t(v)].name).c_str(),
                    ts::ladder::tf32_ws_resident_clusters(v));
    std::fflush(stdout);
    return ts::ladder::tune(shapes, runs, warm_l2, std::move(all));
  } catch (const ts::gpu::GpuError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "tf32_ws_tune: %s\n", e.what());
    return 1;
  }
}
