// fp32_tune.cpp — the measurements behind fp32-best's rule (fp32_best.cu):
// every plan (block tile x split of k, stream-k or tail split) checked
// against cuBLAS over the whole matrix, then timed against cuBLAS SGEMM in
// the same run, per shape; the rule's own pick is marked '*'.
// docs/ladder-notes.md records the output and the rule drawn from it.
//
//   cmake --build build --target fp32_tune && build/kernels/ladder/fp32_tune 1024x1024x1024 ...
//   [--plan="128x256 k16" ...: those plans alone; --plan=rule: the rule's pick] [--runs=N]
//   [--b-in-place=always|never: where n % 4 != 0, B read in place (words or shifted) or padded at every m]
// (Every plan's correctness at small ragged shapes: tests/kernels/fp32_best_test.cpp.)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#include "kernels/cuda/bench_check.cuh"
#include "kernels/cuda/bench_cublas.cuh"
#include "kernels/cuda/bench_timing.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/ladder/fp32_best.h"

namespace ts::ladder {
namespace {

struct Shape {
  int m, n, k;
};

// The plans timed unless --plan names others: every plan fp32-best can run
// (fp32_plans), its splits thinned past 8 to the rule's range.
std::vector<Fp32Plan> plans() {
  constexpr int kTimedSplits[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64};
  std::vector<Fp32Plan> all;
  for (const Fp32Plan& plan : fp32_plans())
    if (plan.stream_k || plan.tail > 1 || std::ranges::find(kTimedSplits, plan.splits) != std::end(kTimedSplits))
      all.push_back(plan);
  return all;
}

double gflops(const Shape& s, double ms) { return 2.0 * s.m * double(s.n) * s.k / (ms * 1e6); }

int tune(const std::vector<Shape>& shapes, int runs, const std::vector<Fp32Plan>& timed) {
  const Fp32Gpu gpu = current_fp32_gpu();
  gpu::CublasHandle cublas;
  cudaStream_t stream = nullptr;
  TS_CUDA_CHECK(cudaStreamCreate(&stream));
  gpu::DeviceBuffer da, db, dc;
  int wrong = 0;
  gpu::L2Flush flush(stream);
  std::printf("%-16s %-22s %10s %10s %8s %10s %8s   %s\n", "shape", "plan", "ms", "GFLOP/s", "%cuBLAS", "err/cuBLAS",
              "model",
              "then, the L2 overwritten before each run: alone ms | alternating with cuBLAS ms, %cuBLAS | after the "
              "other tile's kernel ms");
  for (const Shape& s : shapes) {
    const std::size_t cells = std::size_t(s.m) * s.n;
    float* a = da.get<float>(std::size_t(s.m) * s.k);
    float* b = db.get<float>(std::size_t(s.k) * s.n);
    float* c = dc.get<float>(cells);
    gpu::fill_uniform(a, std::size_t(s.m) * s.k, 41 + s.k, stream);
    gpu::fill_uniform(b, std::size_t(s.k) * s.n, 42 + s.n, stream);
    std::vector<float> ref(cells), out(cells);
    cublas.gemm_fp32(a, b, c, s.m, s.n, s.k, stream);
    TS_CUDA_CHECK(cudaMemcpy(ref.data(), c, cells * 4, cudaMemcpyDeviceToHost));
    const auto time_ms = [&](auto&& launch) { return gpu::time_launches(launch, 3, runs, stream).median_ms; };
    const double cublas_ms = time_ms([&] { cublas.gemm_fp32(a, b, c, s.m, s.n, s.k, stream); });
    char shape[40];
    std::snprintf(shape, sizeof shape, "%dx%dx%d", s.m, s.n, s.k);
    std::printf("%-16s %-22s %10.4f %10.1f %8.1f\n", shape, "cublas-fp32", cublas_ms, gflops(s, cublas_ms), 100.0);
    const Fp32Plan pick = fp32_best_plan(s.m, s.n, s.k, gpu);
    const int k_tiles = (s.k + 31) / 32;
    for (Fp32Plan p : timed) {
      if (p.tile < 0) {  // --plan=rule: the rule's pick, unless it is named as well
        const auto named = [&](const Fp32Plan& q) { return q.tile >= 0 && fp32_plan_name(q) == fp32_plan_name(pick); };
        if (std::any_of(timed.begin(), timed.end(), named)) continue;
        p = pick;
      }
      if (p.splits > 1 && k_tiles / p.splits < 2) continue;
      if (fp32_blocks_per_sm(fp32_tiles()[p.tile], gpu) == 0) {
        std::printf("%-16s  %-22s does not fit this GPU's shared memory (%d bytes a block, %d allowed)\n", shape,
                    fp32_plan_name(p).c_str(), fp32_tiles()[p.tile].shared_bytes, gpu.shared_per_block);
        continue;
      }
      gpu::poison(c, cells, stream);
      launch_fp32_plan(p, a, b, c, s.m, s.n, s.k, stream);
      TS_CUDA_CHECK(cudaMemcpy(out.data(), c, cells * 4, cudaMemcpyDeviceToHost));
      double diff = 0, norm = 0;
      for (std::size_t j = 0; j < cells; ++j) {
        diff += double(out[j] - ref[j]) * (out[j] - ref[j]);
        norm += double(ref[j]) * ref[j];
      }
      const double err = std::sqrt(diff / norm);
      const bool ok = std::isfinite(err) && err < gpu::kFp32Tolerance;
      const bool picked = fp32_plan_name(p) == fp32_plan_name(pick);
      std::string name = fp32_plan_name(p);
      name.insert(name.begin(), picked ? '*' : ' ');
      if (!ok) {
        ++wrong;
        std::printf("%-16s %-22s WRONG err %.2e (not timed)\n", shape, name.c_str(), err);
        continue;
      }
      const auto launch = [&] { launch_fp32_plan(p, a, b, c, s.m, s.n, s.k, stream); };
      const double ms = time_ms(launch);
      // As `tilescope bench` times it (alternating with cuBLAS, the L2 overwritten before each run),
      // alone with the L2 overwritten, and after the other block tile's kernel (other code, the same work).
      const double flushed_ms = gpu::time_launches(launch, 3, runs, stream, flush).median_ms;
      const gpu::PairedTiming paired =
          gpu::time_paired([&] { cublas.gemm_fp32(a, b, c, s.m, s.n, s.k, stream); }, launch, 3, runs, stream, flush);
      const Fp32Plan other{p.tile == 1 ? 0 : 1, 1};  // a 128x256 tile's other kernel is 64x128's, and back
      const gpu::PairedTiming after_other = gpu::time_paired(
          [&] { launch_fp32_plan(other, a, b, c, s.m, s.n, s.k, stream); }, launch, 3, runs, stream, flush);
      std::printf("%-16s %-22s %10.4f %10.1f %8.1f %10.2e %8.1f   %.4f | %.4f, %5.1f | %.4f\n", shape, name.c_str(), ms,
                  gflops(s, ms), 100.0 * cublas_ms / ms, err, fp32_plan_cost(p, s.m, s.n, s.k, gpu), flushed_ms,
                  paired.b.median_ms, 100.0 * paired.a.median_ms / paired.b.median_ms, after_other.b.median_ms);
    }
    const double again = time_ms([&] { cublas.gemm_fp32(a, b, c, s.m, s.n, s.k, stream); });
    std::printf("%-16s %-22s %10.4f %10.1f %8.1f  (again: the run's drift)\n", shape, "cublas-fp32", again,
                gflops(s, again), 100.0 * cublas_ms / again);
    std::fflush(stdout);
  }
  TS_CUDA_CHECK(cudaStreamDestroy(stream));
  return wrong ? 3 : 0;
}

}  // namespace
}  // namespace ts::ladder

int main(int argc, char** argv) {
  std::vector<ts::ladder::Shape> shapes;
  int runs = 20;
  std::vector<std::string> only;  // --plan=NAME (repeatable): these plans alone, e.g. --plan="128x256 k16"
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    ts::ladder::Shape s{};
    if (arg.rfind("--runs=", 0) == 0) runs = std::atoi(arg.c_str() + 7);
    else if (arg.rfind("--plan=", 0) == 0) only.push_back(arg.substr(7));
    else if (arg == "--b-in-place=always") ts::ladder::set_fp32_b_in_place(ts::ladder::Fp32BInPlace::kAlways);
    else if (arg == "--b-in-place=never") ts::ladder::set_fp32_b_in_place(ts::ladder::Fp32BInPlace::kNever);
    else if (std::sscanf(arg.c_str(), "%dx%dx%d", &s.m, &s.n, &s.k) == 3 && s.m > 0 && s.n > 0 && s.k > 0)
      shapes.push_back(s);
    else {
      std::fprintf(stderr,
                   "fp32_tune: arguments are MxNxK shapes, --runs=N, --plan=NAME or --b-in-place=always|never "
                   "(not '%s')\n",
                   arg.c_str());
      return 2;
    }
  }
  if (runs < 1) runs = 20;
  // The plans to time: every one, or those named (any split of 1 to 64, as the rule may pick), in the order named.
  const std::vector<ts::ladder::Fp32Plan> all = ts::ladder::plans();
  const std::vector<ts::ladder::Fp32Plan> nameable = ts::ladder::fp32_plans();
  std::vector<ts::ladder::Fp32Plan> timed = only.empty() ? all : std::vector<ts::ladder::Fp32Plan>{};
  for (const std::string& name : only) {
    if (name == "rule") {
      timed.push_back({-1, 1});
      continue;
    }
    const auto named = std::find_if(nameable.begin(), nameable.end(),
                                    [&](const ts::ladder::Fp32Plan& p) { return ts::ladder::fp32_plan_name(p) == name; });
    if (named == nameable.end()) {
      std::fprintf(stderr,
                   "fp32_tune: no plan is named '%s' (names as printed: \"64x128 split 2\", \"128x256 k16 "
                   "stream-k\", \"128x256 k16 tail 2\", or \"rule\": the rule's pick)\n",
                   name.c_str());
      return 2;
    }
    timed.push_back(*named);
  }
  try {
    const ts::gpu::DeviceStatus st = ts::gpu::probe();
    if (!st.available) {
      std::fprintf(stderr, "fp32_tune: no GPU found: %s\n", st.reason.c_str());
      return 1;
    }
    std::printf("%s, %d SMs\n", st.name.c_str(), st.sm_count);
    return ts::ladder::tune(shapes, runs, timed);
  } catch (const ts::gpu::GpuError& e) {
    std::fprintf(stderr, "fp32_tune: %s\n", e.what());
    return 1;
  }
}
