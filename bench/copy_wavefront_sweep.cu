// copy_wavefront_sweep.cu — cp.async (LDGSTS) shared-write wavefronts over
// many lane patterns, for finding the rule the store model lacks
// (docs/memory-analysis.md, "cp.async's shared writes"). Every pattern is one
// launch of one kernel whose lanes copy, kIters times, width bytes from a
// source offset to a shared offset (tables in constant memory); the copied
// words are checked. It prints each pattern and what the store model gives;
// Nsight Compute's LDGSTS wavefronts per instruction are read beside it
// (scripts/gpu-checks.d/79-uniform-pairs.sh).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "app/core/analysis/bank_conflicts.h"
#include "kernels/cuda/cuda_check.cuh"

namespace {

constexpr int kWarps = 4, kThreads = 32 * kWarps, kBlocks = 132, kIters = 64;
constexpr int kSharedBytes = 32768;
constexpr int kSourceFloats = 1 << 20;

struct Pattern {
  std::string name;
  int width;
  int dst[32];  // bytes into shared
  int src[32];  // bytes into the source
};

__constant__ int c_dst[32], c_src[32];

template <int W>
__global__ void __launch_bounds__(kThreads) copy_sweep(float* out, const float* source) {
  __shared__ __align__(16) float s[kSharedBytes / 4];
  const int lane = threadIdx.x % 32;
  const auto at = static_cast<std::uint32_t>(__cvta_generic_to_shared(s)) + c_dst[lane];
  const char* from = reinterpret_cast<const char*>(source) + c_src[lane];
#pragma unroll 1
  for (int it = 0; it < kIters; ++it) {
    if constexpr (W == 16)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(at), "l"(from) : "memory");
    else if constexpr (W == 8)
      asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(at), "l"(from) : "memory");
    else
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(at), "l"(from) : "memory");
    asm volatile("cp.async.commit_group;\ncp.async.wait_all;" ::: "memory");
  }
  __syncthreads();
  out[blockIdx.x * kThreads + threadIdx.x] = s[c_dst[lane] / 4];  // the lane's first copied word
}

std::vector<Pattern> patterns() {
  std::vector<Pattern> all;
  const auto add = [&](std::string name, int width, auto&& dst, auto&& src) {
    Pattern p{std::move(name), width, {}, {}};
    for (int l = 0; l < 32; ++l) p.dst[l] = dst(l), p.src[l] = src(l);
    all.push_back(p);
  };
  // Rows of `row` bytes, `pitch` bytes apart; the source contiguous, or rows 4096 bytes apart.
  for (int w : {16, 8, 4})
    for (int row : {w, 2 * w, 4 * w, 8 * w, 16 * w, 32 * w})
      for (int pad : {0, 4, 8, 16, 32, 48, 64, 80, 96, 128, 256})
        for (int rows_src : {0, 1}) {
          if (pad % w != 0) continue;  // a copy's destination is aligned to its width
          if (rows_src && w != 16) continue;  // the source's layout asked of 16-byte copies only
          if (row == 32 * w && pad != 0) continue;
          const int per = row / w, pitch = row + pad;
          if (pitch * (32 / per) > kSharedBytes) continue;
          add("w" + std::to_string(w) + " rows " + std::to_string(row) + " pitch " + std::to_string(pitch) +
                  (rows_src ? " src rows" : " src lin"),
              w, [&](int l) { return l / per * pitch + l % per * w; },
              [&](int l) { return rows_src ? l / per * 4096 + l % per * w : l * w; });
        }
  // Transposed 4-byte copies: lane l to word (l % run) * pitch + l / run (double-buffer's A: run 8, pitch 132).
  for (int run : {4, 8, 16})
    for (int pitch : {32, 33, 64, 128, 129, 130, 132, 136, 144, 160})
      for (int rows_src : {0, 1})
        add("w4 transposed run " + std::to_string(run) + " pitch " + std::to_string(pitch) +
                (rows_src ? " src rows" : " src lin"),
            4, [&](int l) { return 4 * ((l % run) * pitch + l / run); },
            [&](int l) { return rows_src ? l / run * 4096 + l % run * 4 : l * 4; });
  // Scattered: lane l to word l * stride.
  for (int stride : {1, 2, 3, 4, 5, 8, 16, 32, 33})
    add("w4 stride " + std::to_string(stride), 4, [&](int l) { return 4 * l * stride; }, [&](int l) { return 4 * l; });
  for (int stride : {1, 2, 3, 4, 8, 9})
    add("w16 stride " + std::to_string(stride), 16, [&](int l) { return 16 * l * stride % kSharedBytes; },
        [&](int l) { return 16 * l; });
  return all;
}

template <int W>
bool run(const Pattern& p, int index, float* out, const float* source) {
  TS_CUDA_CHECK(cudaMemcpyToSymbol(c_dst, p.dst, sizeof p.dst));
  TS_CUDA_CHECK(cudaMemcpyToSymbol(c_src, p.src, sizeof p.src));
  TS_CUDA_CHECK(cudaMemset(out, 0xFF, sizeof(float) * kBlocks * kThreads));
  copy_sweep<W><<<kBlocks, kThreads>>>(out, source);
  TS_CUDA_CHECK_LAUNCH();
  std::vector<float> got(kBlocks * kThreads);
  TS_CUDA_CHECK(cudaMemcpy(got.data(), out, sizeof(float) * got.size(), cudaMemcpyDeviceToHost));
  // Lanes writing one word may race in a pattern that overlaps (none of the above does): each must hold its source.
  for (int t = 0; t < kBlocks * kThreads; ++t)
    if (got[t] != static_cast<float>(p.src[t % 32] / 4 % 1009)) {
      std::fprintf(stderr, "copy_wavefront_sweep: %s: thread %d read %g\n", p.name.c_str(), t, static_cast<double>(got[t]));
      return false;
    }
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint32_t> lanes;
  for (int l = 0; l < 32; ++l) offsets.push_back(static_cast<std::uint64_t>(p.dst[l])), lanes.push_back(l);
  const ts::BankAccess b = ts::shared_bank_access(offsets, p.width, lanes, ts::Op::Store);
  std::printf("sweep %3d | %-40s | store model %2u wavefronts | dst", index, p.name.c_str(), b.wavefronts());
  for (int l = 0; l < 32; ++l) std::printf(" %d", p.dst[l]);
  std::printf(" | src");
  for (int l = 0; l < 32; ++l) std::printf(" %d", p.src[l]);
  std::printf("\n");
  return true;
}

}  // namespace

int main() {
  try {
    float* out = nullptr;
    float* source = nullptr;
    std::vector<float> values(kSourceFloats);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 1009);
    TS_CUDA_CHECK(cudaMalloc(&out, sizeof(float) * kBlocks * kThreads));
    TS_CUDA_CHECK(cudaMalloc(&source, sizeof(float) * values.size()));
    TS_CUDA_CHECK(cudaMemcpy(source, values.data(), sizeof(float) * values.size(), cudaMemcpyHostToDevice));
    bool ok = true;
    int index = 0;
    for (const Pattern& p : patterns()) {
      const bool one = p.width == 16 ? run<16>(p, index, out, source)
                       : p.width == 8 ? run<8>(p, index, out, source)
                                      : run<4>(p, index, out, source);
      ok = ok && one;
      ++index;
    }
    TS_CUDA_CHECK(cudaFree(source));
    TS_CUDA_CHECK(cudaFree(out));
    std::printf("%s\n", ok ? "every pattern's copies checked" : "a pattern's copies were wrong");
    return ok ? 0 : 1;
  } catch (const ts::gpu::GpuError& e) {
    std::fprintf(stderr, "copy_wavefront_sweep: %s\n", e.what());
    return 1;
  }
}
