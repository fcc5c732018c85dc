// tf32_ws_tune.cpp — the variants of tf32-wgmma-ws (tile shape, stages,
// grouping, persistent or not, clusters with TMA multicast) side by side with
// cuBLAS TF32 and rung 7 (tf32-wgmma), per shape, in one process: each is
// checked against a double-precision reference at a small ragged shape and
// against cuBLAS TF32 over the whole matrix at every timed shape (a variant
// that fails is reported WRONG and never timed), then timed (median of
// --runs). Ends with a table of TFLOP/s: the figures the shipped choice in
// tf32_wgmma_ws.cu is to be made from (docs/ladder-notes.md).
//
//   tf32_ws_tune [MxNxK...] [--runs=N] [--only=TEXT]... [--skip=TEXT]...
//   (default shapes 4096x4096x4096 8192x8192x8192; TEXT is part of a variant's
//   name; with --only, rung 7 is left out. One process per risky group of
//   variants: a fault or a hang ends only that process.)
// Built with the ladder whenever CUDA is on; scripts/gpu-checks.d/77-tf32-ws.sh runs it.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "app/core/reference.h"
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

struct Candidate {
  std::string name;
  std::function<void(const float*, const float*, float*, int, int, int, cudaStream_t)> launch;
  int regs = 0;
  std::size_t local_bytes = 0;
  bool ok = true;
};

double tflops(const Shape& s, double ms) { return 2.0 * s.m * double(s.n) * s.k / (ms * 1e9); }

std::string shape_text(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
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
// cell against double precision; a failure here keeps a variant from timing.
bool check_small(Candidate& c, cudaStream_t stream) {
  const Shape s{300, 261, 199};
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
  const double err = relative_error(out, reference_matmul(a, b, s.m, s.n, s.k));
  const bool ok = std::isfinite(err) && err < gpu::kTf32Tolerance;
  std::printf("check %-28s %s err %.2e  regs %d local %zu B\n", c.name.c_str(), ok ? "ok  " : "FAIL", err, c.regs,
              c.local_bytes);
  std::fflush(stdout);
  return ok;
}

int tune(const std::vector<Shape>& shapes, int runs, const std::vector<std::string>& only,
         const std::vector<std::string>& skip) {
  gpu::CublasHandle cublas;
  cudaStream_t stream = nullptr;
  TS_CUDA_CHECK(cudaStreamCreate(&stream));

  std::vector<Candidate> all;
  if (const LadderKernel* rung7 = find_ladder_kernel("tf32-wgmma"); rung7 && only.empty())
    all.push_back({"tf32-wgmma (rung 7)", rung7->launch});
  const auto variants = tf32_ws_variants();
  for (int v = 0; v < int(variants.size()); ++v) {
    const std::string name = std::string(variants[v].name) + (v == 0 ? " *" : "");
    const auto named = [&](const std::vector<std::string>& texts) {
      for (const std::string& t : texts)
        if (name.find(t) != std::string::npos) return true;
      return false;
    };
    if ((!only.empty() && !named(only)) || named(skip)) continue;
    Candidate c{name, [v](const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t s) {
                  launch_tf32_ws_variant(v, a, b, c, m, n, k, s);
                }};
    const cudaFuncAttributes attr = tf32_ws_variant_attributes(v);
    c.regs = attr.numRegs;
    c.local_bytes = attr.localSizeBytes;
    all.push_back(c);
  }
  int wrong = 0;
  for (Candidate& c : all) {
    c.ok = check_small(c, stream);
    wrong += !c.ok;
  }

  gpu::DeviceBuffer da, db, dc;
  std::map<std::pair<std::string, std::string>, std::string> table;  // (candidate, shape) -> "TFLOP/s (%)"
  std::printf("\n%-28s %-16s %9s %9s %9s %10s\n", "kernel", "shape", "ms", "TFLOP/s", "%cuBLAS", "err/cuBLAS");
  for (const Shape& s : shapes) {
    const std::size_t cells = std::size_t(s.m) * s.n;
    float* a = da.get<float>(std::size_t(s.m) * s.k);
    float* b = db.get<float>(std::size_t(s.k) * s.n);
    float* c = dc.get<float>(cells);
    gpu::fill_uniform(a, std::size_t(s.m) * s.k, 61 + s.k, stream);
    gpu::fill_uniform(b, std::size_t(s.k) * s.n, 62 + s.n, stream);
    std::vector<float> ref(cells), out(cells);
    cublas.gemm_tf32(a, b, c, s.m, s.n, s.k, stream);
    TS_CUDA_CHECK(cudaMemcpy(ref.data(), c, cells * 4, cudaMemcpyDeviceToHost));
    const auto time_ms = [&](auto&& launch) { return gpu::time_launches(launch, 3, runs, stream).median_ms; };
    const double cublas_ms = time_ms([&] { cublas.gemm_tf32(a, b, c, s.m, s.n, s.k, stream); });
    const std::string st = shape_text(s);
    std::printf("%-28s %-16s %9.4f %9.1f %9.1f\n", "cublas-tf32", st.c_str(), cublas_ms, tflops(s, cublas_ms), 100.0);
    char cell[48];
    std::snprintf(cell, sizeof cell, "%7.1f (100.0)", tflops(s, cublas_ms));
    table[{"cublas-tf32", st}] = cell;
    for (Candidate& cand : all) {
      if (!cand.ok) {
        table[{cand.name, st}] = "failed check";
        continue;
      }
      gpu::poison(c, cells, stream);
      cand.launch(a, b, c, s.m, s.n, s.k, stream);
      TS_CUDA_CHECK(cudaStreamSynchronize(stream));
      TS_CUDA_CHECK(cudaMemcpy(out.data(), c, cells * 4, cudaMemcpyDeviceToHost));
      const double err = normwise_error(out, ref);
      if (!std::isfinite(err) || err > gpu::kTf32Tolerance) {
        ++wrong;
        std::printf("%-28s %-16s WRONG err %.2e against cuBLAS TF32 (not timed)\n", cand.name.c_str(), st.c_str(), err);
        table[{cand.name, st}] = "WRONG";
        continue;
      }
      const double ms = time_ms([&] { cand.launch(a, b, c, s.m, s.n, s.k, stream); });
      std::printf("%-28s %-16s %9.4f %9.1f %9.1f %10.2e\n", cand.name.c_str(), st.c_str(), ms, tflops(s, ms),
                  100.0 * cublas_ms / ms, err);
      std::snprintf(cell, sizeof cell, "%7.1f (%5.1f)", tflops(s, ms), 100.0 * cublas_ms / ms);
      table[{cand.name, st}] = cell;
      std::fflush(stdout);
    }
    const double again = time_ms([&] { cublas.gemm_tf32(a, b, c, s.m, s.n, s.k, stream); });
    std::printf("%-28s %-16s %9.4f %9.1f %9.1f  (again: the run's drift)\n", "cublas-tf32", st.c_str(), again,
                tflops(s, again), 100.0 * cublas_ms / again);
  }

  // The table: TFLOP/s (% of cuBLAS TF32 in the same run) per variant and shape.
  std::printf("\nTFLOP/s (%% of cuBLAS TF32), median of %d runs; * = the shipped tf32-wgmma-ws\n%-28s", runs, "kernel");
  for (const Shape& s : shapes) std::printf(" %18s", shape_text(s).c_str());
  std::printf("\n%-28s", "cublas-tf32");
  for (const Shape& s : shapes) std::printf(" %18s", table[{"cublas-tf32", shape_text(s)}].c_str());
  std::printf("\n");
  for (const Candidate& cand : all) {
    std::printf("%-28s", cand.name.c_str());
    for (const Shape& s : shapes) std::printf(" %18s", table[{cand.name, shape_text(s)}].c_str());
    std::printf("\n");
  }
  TS_CUDA_CHECK(cudaStreamDestroy(stream));
  return wrong ? 3 : 0;
}

}  // namespace
}  // namespace ts::ladder

int main(int argc, char** argv) {
  std::vector<ts::ladder::Shape> shapes;
  int runs = 20;
  std::vector<std::string> only, skip;  // either may be repeated: any match counts
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    ts::ladder::Shape s{};
    if (arg.rfind("--runs=", 0) == 0) runs = std::atoi(arg.c_str() + 7);
    else if (arg.rfind("--only=", 0) == 0) only.push_back(arg.substr(7));
    else if (arg.rfind("--skip=", 0) == 0) skip.push_back(arg.substr(7));
    else if (std::sscanf(arg.c_str(), "%dx%dx%d", &s.m, &s.n, &s.k) == 3 && s.m > 0 && s.n > 0 && s.k > 0)
      shapes.push_back(s);
    else {
      std::fprintf(stderr, "tf32_ws_tune: arguments are MxNxK shapes, --runs=N, --only=TEXT, --skip=TEXT (not '%s')\n",
                   arg.c_str());
      return 2;
    }
  }
  if (runs < 1) runs = 20;
  if (shapes.empty()) shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}};
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
    std::printf("%s, %d SMs\n", st.name.c_str(), st.sm_count);
    return ts::ladder::tune(shapes, runs, only, skip);
  } catch (const ts::gpu::GpuError& e) {
    std::fprintf(stderr, "tf32_ws_tune: %s\n", e.what());
    return 1;
  }
}
