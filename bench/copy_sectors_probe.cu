// copy_sectors_probe.cu — one question put to the hardware: how many global
// sectors does Nsight Compute count for a warp's 16-byte copies, by instruction
// (cp.async.cg = LDGSTS.E.BYPASS.128, cp.async.ca = LDGSTS.E.128, ld.global.v4 =
// LDG.E.128) and by how the warp's 512 bytes lie (rows of 32, 64, 128 or 256
// bytes, 16 KB apart as in a 4096-wide matrix or back to back; lanes along a
// row first, or down the rows first)? tf32-tensor-core's copies of A are
// 8 rows x 64 bytes by cp.async.cg, and ncu counts more sectors for them than
// the 16 their bytes occupy (docs/memory-analysis.md); its copies of B, 2 rows
// x 256 bytes, count 16. Each variant is one launch of one kernel: every warp
// copies 512 bytes per iteration, ITERS iterations, moving along its rows as
// a k-loop does; the data is checked after the copies (a sum per thread
// against the host's). scripts/gpu-checks.d/76-copy-sectors.sh runs it under
// ncu and prints sectors per request per variant.
//
//   copy_sectors_probe            run every variant once, check, print the ideal counts
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kWarps = 4, kThreads = 32 * kWarps, kBlocks = 264, kIters = 16;
constexpr int kRowFloats = 4096;  // the rows' stride when they are apart: a 4096-wide matrix

enum Kind { kCpAsyncCg, kCpAsyncCa, kLdgV4 };
const char* const kKindNames[] = {"cp.async.cg 16 (LDGSTS.E.BYPASS.128)", "cp.async.ca 16 (LDGSTS.E.128)",
                                  "ld.global.v4 (LDG.E.128)"};

#define PROBE_CHECK(call)                                                                              \
  do {                                                                                                 \
    const cudaError_t err_ = (call);                                                                   \
    if (err_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "copy_sectors_probe: %s: %s\n", #call, cudaGetErrorString(err_));            \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

// The float offset of lane `lane`'s 16 bytes in iteration `it` of warp `gw`.
template <int ROW_BYTES, bool DOWN_FIRST, bool APART>
__host__ __device__ long long lane_offset(int gw, int it, int lane) {
  constexpr int kLanesPerRow = ROW_BYTES / 16, kRows = 32 / kLanesPerRow, kRowFloatsUsed = ROW_BYTES / 4;
  const int row = DOWN_FIRST ? lane % kRows : lane / kLanesPerRow;
  const int chunk = DOWN_FIRST ? lane / kRows : lane % kLanesPerRow;
  if (APART)  // rows 16 KB apart; each iteration moves along them by ROW_BYTES
    return (static_cast<long long>(gw) * kRows + row) * kRowFloats + it * kRowFloatsUsed + chunk * 4;
  return (static_cast<long long>(gw) * kIters + it) * 128 + row * kRowFloatsUsed + chunk * 4;  // back to back
}

template <int KIND, int ROW_BYTES, bool DOWN_FIRST, bool APART>
__global__ void __launch_bounds__(kThreads) probe(const float* __restrict__ src, float* __restrict__ sums) {
  __shared__ __align__(16) float slots[kWarps][kIters][128];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, gw = blockIdx.x * kWarps + warp;
  float sum = 0.0f;
  for (int it = 0; it < kIters; ++it) {
    const float* from = src + lane_offset<ROW_BYTES, DOWN_FIRST, APART>(gw, it, lane);
    float* to = &slots[warp][it][lane * 4];
    if constexpr (KIND == kLdgV4) {
      const float4 v = *reinterpret_cast<const float4*>(from);
      sum += v.x + v.y + v.z + v.w;
    } else if constexpr (KIND == kCpAsyncCg) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                       static_cast<unsigned>(__cvta_generic_to_shared(to))),
                   "l"(from));
    } else {
      asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(
                       static_cast<unsigned>(__cvta_generic_to_shared(to))),
                   "l"(from));
    }
  }
  if constexpr (KIND != kLdgV4) {
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
    __syncwarp();
    for (int it = 0; it < kIters; ++it) {
      const float4 v = *reinterpret_cast<const float4*>(&slots[warp][it][lane * 4]);
      sum += v.x + v.y + v.z + v.w;
    }
  }
  sums[blockIdx.x * kThreads + threadIdx.x] = sum;
}

float value_at(long long i) { return static_cast<float>(i % 509) * 0.25f; }  // exact in float sums of 64 terms

template <int KIND, int ROW_BYTES, bool DOWN_FIRST, bool APART>
int run(const float* src, float* sums, std::vector<float>& out) {
  PROBE_CHECK(cudaMemset(sums, 0xFF, out.size() * sizeof(float)));
  probe<KIND, ROW_BYTES, DOWN_FIRST, APART><<<kBlocks, kThreads>>>(src, sums);
  PROBE_CHECK(cudaGetLastError());
  PROBE_CHECK(cudaMemcpy(out.data(), sums, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int t = 0; t < kBlocks * kThreads; ++t) {
    const int gw = t / 32, lane = t % 32;
    float expect = 0.0f;
    for (int it = 0; it < kIters; ++it) {
      const long long o = lane_offset<ROW_BYTES, DOWN_FIRST, APART>(gw, it, lane);
      expect += value_at(o) + value_at(o + 1) + value_at(o + 2) + value_at(o + 3);
    }
    wrong += out[t] != expect;
  }
  const long long requests = static_cast<long long>(kBlocks) * kWarps * kIters;
  std::printf("%-38s rows of %3d B, %s, lanes %-11s requests %8lld  ideal sectors %9lld (16 per request)  %s\n",
              kKindNames[KIND], ROW_BYTES, APART ? "16 KB apart " : "back to back", DOWN_FIRST ? "down first" : "along rows",
              requests, requests * 16, wrong ? "WRONG" : "checked");
  return wrong ? 1 : 0;
}

template <int KIND>
int run_kind(const float* src, float* sums, std::vector<float>& out) {
  return run<KIND, 64, false, true>(src, sums, out) + run<KIND, 256, false, true>(src, sums, out) +
         run<KIND, 32, false, true>(src, sums, out) + run<KIND, 128, false, true>(src, sums, out) +
         run<KIND, 64, true, true>(src, sums, out) + run<KIND, 64, false, false>(src, sums, out);
}

}  // namespace

int main(int argc, char**) {
  if (argc > 1) {
    std::fprintf(stderr, "copy_sectors_probe takes no arguments\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "copy_sectors_probe: no GPU found\n");
    return 1;
  }
  // Rows 16 KB apart: kBlocks * kWarps warps x up to 16 rows (32-byte rows) of 4096 floats.
  const long long floats = static_cast<long long>(kBlocks) * kWarps * 16 * kRowFloats;
  std::vector<float> host(floats);
  for (long long i = 0; i < floats; ++i) host[i] = value_at(i);
  float *src = nullptr, *sums = nullptr;
  PROBE_CHECK(cudaMalloc(&src, floats * sizeof(float)));
  PROBE_CHECK(cudaMalloc(&sums, kBlocks * kThreads * sizeof(float)));
  PROBE_CHECK(cudaMemcpy(src, host.data(), floats * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> out(kBlocks * kThreads);
  const int wrong = run_kind<kCpAsyncCg>(src, sums, out) + run_kind<kCpAsyncCa>(src, sums, out) +
                    run_kind<kLdgV4>(src, sums, out);
  PROBE_CHECK(cudaFree(src));
  PROBE_CHECK(cudaFree(sums));
  if (wrong) std::fprintf(stderr, "copy_sectors_probe: %d variants copied wrong data\n", wrong);
  return wrong ? 1 : 0;
}
