// ladder_tune.cu — the tuning program behind the shipped configurations of
// rungs 5 (double_buffer) and 6 (tf32_tensor_core): each candidate is checked
// (a ragged shape against a double-precision reference, the timed shapes
// against cuBLAS) and timed against cuBLAS of its precision in the same run.
// docs/ladder-notes.md records its output and what was chosen from it.
//
//   cmake -S . -B build-tune -DCMAKE_CUDA_ARCHITECTURES=90 -DTILESCOPE_LADDER_TUNE=ON
//   cmake --build build-tune --target ladder_tune && build-tune/kernels/ladder/ladder_tune [SIZE...] [NAME-PART]
// NAME-PART keeps the candidates whose name contains it (one process per risky
// candidate: a fault ends the process). SIZE 0: only the correctness checks, at
// small shapes, for compute-sanitizer.
#include <cstdio>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

// clang-format off
#include "kernels/ladder/double_buffer_listing.cuh"  // first: it sets up the plain mode
// clang-format on

#include "kernels/cuda/bench_check.cuh"
#include "kernels/cuda/bench_cublas.cuh"
#include "kernels/cuda/bench_timing.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/ladder/double_buffer.cuh"
#include "kernels/ladder/ladder.h"
#include "kernels/ladder/tf32_tensor_core.cuh"
#include "kernels/ladder/tf32_wgmma.cuh"

namespace ts::ladder {
namespace {

struct Candidate {
  std::string name;
  bool tf32;
  LaunchFn launch;
  cudaFuncAttributes attributes;
  int (*blocks_per_sm)() = nullptr;  // resident blocks an SM holds (after a first launch has set the shared limit)
};

// Blocks of KERNEL an SM holds at THREADS threads and SHARED bytes of dynamic shared memory.
template <auto Kernel, int Threads, int Shared>
int resident_blocks() {
  int blocks = 0;
  TS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, Kernel, Threads, Shared));
  return blocks;
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int ST, int GM, int ORDER = 0, int MAP = 0,
          int SPREAD = 0>
Candidate fp32_candidate() {
  using Cfg = DoubleBufferConfig<BM, BN, BK, WM, WN, TM, TN, ST, GM, ORDER, MAP, SPREAD>;
  Candidate c{"fp32 " + std::to_string(BM) + "x" + std::to_string(BN) + "x" + std::to_string(BK) + " w" +
                  std::to_string(WM) + "x" + std::to_string(WN) + " t" + std::to_string(TM) + "x" + std::to_string(TN) +
                  " s" + std::to_string(ST) + " g" + std::to_string(GM) + " o" + std::to_string(ORDER) + " m" +
                  std::to_string(MAP) + (SPREAD ? " spread" + std::to_string(SPREAD) : ""),
              false, &launch_double_buffer_config<Cfg>, {},
              &resident_blocks<double_buffer<Cfg>, Cfg::kThreads, Cfg::kSharedBytes>};
  TS_CUDA_CHECK(cudaFuncGetAttributes(&c.attributes, double_buffer<Cfg>));
  return c;
}

// The listing the app records, kernels/double_buffer.h, at another configuration.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int ST, int GM>
Candidate listing_candidate() {
  using Cfg = ListingConfig<BM, BN, BK, WM, WN, TM, TN, ST, GM>;
  Candidate c{"listing " + std::to_string(BM) + "x" + std::to_string(BN) + "x" + std::to_string(BK) + " w" +
                  std::to_string(WM) + "x" + std::to_string(WN) + " t" + std::to_string(TM) + "x" + std::to_string(TN) +
                  " s" + std::to_string(ST) + " g" + std::to_string(GM),
              false, &launch_double_buffer_listing<Cfg>, {},
              &resident_blocks<double_buffer_listing<Cfg>, Cfg::kThreads, Cfg::kSharedBytes>};
  TS_CUDA_CHECK(cudaFuncGetAttributes(&c.attributes, double_buffer_listing<Cfg>));
  return c;
}

template <int BM, int BN, int BK, int WM, int WN, int ST, int MB, int GM>
Candidate tf32_candidate() {
  using Cfg = Tf32Config<BM, BN, BK, WM, WN, ST, MB, GM>;
  Candidate c{"tf32 " + std::to_string(BM) + "x" + std::to_string(BN) + "x" + std::to_string(BK) + " w" +
                  std::to_string(WM) + "x" + std::to_string(WN) + " s" + std::to_string(ST) + " b" + std::to_string(MB) +
                  " g" + std::to_string(GM),
              true, &launch_tf32_config<Cfg>, {}};
  TS_CUDA_CHECK(cudaFuncGetAttributes(&c.attributes, tf32_tensor_core<Cfg>));
  return c;
}

template <int BM, int WG, int ST, int LAYOUT, int AORDER, int GM>
Candidate wgmma_candidate() {
  using Cfg = WgmmaConfig<BM, WG, ST, LAYOUT, AORDER, GM>;
  const char* layouts[] = {"swz128", "interleave", "interleave-swapped"};
  Candidate c{"wgmma " + std::to_string(BM) + "x" + std::to_string(64 * WG) + "x32 s" + std::to_string(ST) + " " +
                  layouts[LAYOUT] + " a" + std::to_string(AORDER) + " g" + std::to_string(GM),
              true, &launch_wgmma_config<Cfg>, {}};
  TS_CUDA_CHECK(cudaFuncGetAttributes(&c.attributes, tf32_wgmma<Cfg>));
  return c;
}

std::vector<Candidate> candidates() {
  // Run 14 (docs/ladder-notes.md): the listing kernels/double_buffer.h, its
  // copies written per pass, at the tuned kernel's tiles and around them, next
  // to the tuned kernel (run 7's choice), in one process with cuBLAS. (The
  // trials of runs 14, 15, 17, 18, 20 and 28 are in the history: kernels/ladder/double_buffer_trials.cuh; run 21's
  // blocks of 4 warps in commit ee103b7.)
  return {
      fp32_candidate<128, 256, 32, 64, 64, 16, 8, 3, 8, 0, 1, 6>(),  // the tuned kernel
      listing_candidate<128, 256, 32, 64, 64, 16, 8, 4, 0>(),        // the benchmark's double-buffer
      listing_candidate<128, 256, 32, 64, 64, 16, 8, 4, 8>(),
      listing_candidate<128, 256, 32, 64, 64, 16, 8, 4, 16>(),
      listing_candidate<128, 256, 32, 64, 64, 16, 8, 3, 0>(),
      listing_candidate<128, 256, 32, 64, 64, 8, 16, 4, 0>(),
      listing_candidate<128, 128, 16, 64, 32, 8, 8, 2, 0>(),  // the configuration the app records
  };
}

double gflops(int e, double ms) { return 2.0 * e * double(e) * e / (ms * 1e6); }

int tune(const std::vector<int>& sizes, const std::string& only) {
  gpu::CublasHandle cublas;
  cudaStream_t stream = nullptr;
  TS_CUDA_CHECK(cudaStreamCreate(&stream));
  std::vector<Candidate> all;
  for (Candidate& c : candidates())
    if (c.name.find(only) != std::string::npos) all.push_back(c);

  // Correctness first, against double precision: a large ragged shape, then
  // the ladder test's small ones (k shorter than a tile, single rows, ...).
  const int shapes[][3] = {{1000, 1004, 996}, {256, 256, 256}, {130, 132, 68}, {515, 260, 1028},
                           {1, 4, 4},         {37, 44, 20},    {200, 8, 12},   {33, 260, 100}};
  gpu::DeviceBuffer da, db, dc;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  std::vector<bool> ok(all.size(), true);
  for (const auto& shape : shapes) {
    const int rm = shape[0], rn = shape[1], rk = shape[2];
    if (sizes.empty() && double(rm) * rn * rk > 2e8) continue;  // the sanitizers' runs: small shapes only
    a = da.get<float>(std::size_t(rm) * rk), b = db.get<float>(std::size_t(rk) * rn), c = dc.get<float>(std::size_t(rm) * rn);
    gpu::fill_uniform(a, std::size_t(rm) * rk, 11 + rk, stream);
    gpu::fill_uniform(b, std::size_t(rk) * rn, 12 + rk, stream);
    std::vector<float> ha(std::size_t(rm) * rk), hb(std::size_t(rk) * rn), hc(std::size_t(rm) * rn);
    TS_CUDA_CHECK(cudaMemcpy(ha.data(), a, ha.size() * 4, cudaMemcpyDeviceToHost));
    TS_CUDA_CHECK(cudaMemcpy(hb.data(), b, hb.size() * 4, cudaMemcpyDeviceToHost));
    const gpu::ReferenceCells ref = gpu::reference_cells(ha, hb, rm, rn, rk, 13);
    for (std::size_t i = 0; i < all.size(); ++i) {
      gpu::poison(c, hc.size(), stream);
      all[i].launch(a, b, c, rm, rn, rk, stream);
      TS_CUDA_CHECK(cudaStreamSynchronize(stream));
      TS_CUDA_CHECK(cudaMemcpy(hc.data(), c, hc.size() * 4, cudaMemcpyDeviceToHost));
      const auto r = gpu::check_output(hc, rm, rn, ref, nullptr, all[i].tf32 ? gpu::kTf32Tolerance : gpu::kFp32Tolerance);
      ok[i] = ok[i] && r.ok;
      if (!r.ok || rm == 1000)
        std::printf("check %-44s %dx%dx%d %s err %.2e  regs %d local %zu B  blocks/SM %d\n", all[i].name.c_str(), rm,
                    rn, rk, r.ok ? "ok  " : "FAIL", r.rel_err_ref, all[i].attributes.numRegs,
                    all[i].attributes.localSizeBytes, all[i].blocks_per_sm ? all[i].blocks_per_sm() : 0);
    }
  }
  std::size_t passed = 0;
  for (bool o : ok) passed += o;
  std::printf("checks: %zu of %zu candidates pass at all %zu shapes\n", passed, all.size(), std::size(shapes));
  if (sizes.empty()) return passed == all.size() ? 0 : 3;

  std::printf("\n%-44s %6s %10s %10s %8s %10s\n", "candidate", "N", "ms", "GFLOP/s", "%cuBLAS", "err/cuBLAS");
  for (int e : sizes) {
    const std::size_t cells = std::size_t(e) * e;
    a = da.get<float>(cells), b = db.get<float>(cells), c = dc.get<float>(cells);
    gpu::fill_uniform(a, cells, 21 + e, stream);
    gpu::fill_uniform(b, cells, 22 + e, stream);
    std::vector<float> ref32(cells), ref_tf32(cells), out(cells);
    const auto time_ms = [&](auto&& launch) { return gpu::time_launches(launch, 3, 20, stream).median_ms; };
    cublas.gemm_fp32(a, b, c, e, e, e, stream);
    TS_CUDA_CHECK(cudaMemcpy(ref32.data(), c, cells * 4, cudaMemcpyDeviceToHost));
    cublas.gemm_tf32(a, b, c, e, e, e, stream);
    TS_CUDA_CHECK(cudaMemcpy(ref_tf32.data(), c, cells * 4, cudaMemcpyDeviceToHost));
    const double fp32_ms = time_ms([&] { cublas.gemm_fp32(a, b, c, e, e, e, stream); });
    const double tf32_ms = time_ms([&] { cublas.gemm_tf32(a, b, c, e, e, e, stream); });
    std::printf("%-44s %6d %10.4f %10.1f %8.1f\n", "cublas fp32", e, fp32_ms, gflops(e, fp32_ms), 100.0);
    std::printf("%-44s %6d %10.4f %10.1f %8.1f\n", "cublas tf32", e, tf32_ms, gflops(e, tf32_ms), 100.0);
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (!ok[i]) continue;
      gpu::poison(c, cells, stream);
      all[i].launch(a, b, c, e, e, e, stream);
      TS_CUDA_CHECK(cudaMemcpy(out.data(), c, cells * 4, cudaMemcpyDeviceToHost));
      const std::vector<float>& against = all[i].tf32 ? ref_tf32 : ref32;
      double diff = 0, norm = 0;
      for (std::size_t j = 0; j < cells; ++j) {
        diff += double(out[j] - against[j]) * (out[j] - against[j]);
        norm += double(against[j]) * against[j];
      }
      const double err = std::sqrt(diff / norm);
      const double ms = time_ms([&] { all[i].launch(a, b, c, e, e, e, stream); });
      std::printf("%-44s %6d %10.4f %10.1f %8.1f %10.2e%s\n", all[i].name.c_str(), e, ms, gflops(e, ms),
                  100.0 * (all[i].tf32 ? tf32_ms : fp32_ms) / ms, err, std::isfinite(err) && err < 5e-3 ? "" : "  WRONG");
    }
    const double again = time_ms([&] { cublas.gemm_fp32(a, b, c, e, e, e, stream); });
    std::printf("%-44s %6d %10.4f %10.1f %8.1f  (again: the run's drift)\n", "cublas fp32", e, again, gflops(e, again),
                100.0 * fp32_ms / again);
  }
  TS_CUDA_CHECK(cudaStreamDestroy(stream));
  return 0;
}

}  // namespace
}  // namespace ts::ladder

int main(int argc, char** argv) {
  std::vector<int> sizes;
  std::string only;
  bool check_only = false;  // size 0: the correctness checks alone (for compute-sanitizer)
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "0") check_only = true;
    else if (std::isdigit(static_cast<unsigned char>(argv[i][0]))) sizes.push_back(std::atoi(argv[i]));
    else only = argv[i];
  }
  if (sizes.empty() && !check_only) sizes = {4096, 8192};
  for (int e : sizes)
    if (e < 16 || e > 16384 || e % 4) {
      std::fprintf(stderr, "ladder_tune: sizes are multiples of 4 in 16..16384\n");
      return 2;
    }
  try {
    const ts::gpu::DeviceStatus st = ts::gpu::probe();
    if (!st.available) {
      std::fprintf(stderr, "ladder_tune: no GPU found: %s\n", st.reason.c_str());
      return 1;
    }
    std::printf("%s, %d SMs\n", st.name.c_str(), st.sm_count);
    return ts::ladder::tune(sizes, only);
  } catch (const ts::gpu::GpuError& e) {
    std::fprintf(stderr, "ladder_tune: %s\n", e.what());
    return 1;
  }
}
