// copy_sectors_probe.cu — one question put to the hardware: how many global
// sectors does Nsight Compute count for a warp's 16-byte copies, by instruction
// (cp.async.cg = LDGSTS.E.BYPASS.128, cp.async.ca = LDGSTS.E.128, ld.global.v4 =
// LDG.E.128) and by how the warp's 512 bytes lie (rows of 32, 64, 128 or 256
// bytes, 16 KB apart as in a 4096-wide matrix or back to back; lanes along a
// row first, or down the rows first; landing in shared rows padded or not;
// the copy's source size fixed or selected)? tf32-tensor-core's copies of A are
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
#include <vector>

#include "kernels/cuda/cuda_check.cuh"

namespace {

constexpr int kWarps = 4, kThreads = 32 * kWarps, kBlocks = 264, kIters = 8;
constexpr int kRowFloats = 4096;  // the rows' stride when they are apart: a 4096-wide matrix

// kCpAsyncCgSized / kCpAsyncCaSized: the same copies with a source size of
// `in ? 16 : 0` (in: always true here), as the kernel API's
// cp_async16_or_zero writes its zero fill past the edges (SASS: an LDGSTS
// with a predicate operand).
enum Kind { kCpAsyncCg, kCpAsyncCa, kLdgV4, kCpAsyncCgSized, kCpAsyncCaSized };
const char* const kKindNames[] = {"cp.async.cg 16 (LDGSTS.E.BYPASS.128)", "cp.async.ca 16 (LDGSTS.E.128)",
                                  "ld.global.v4 (LDG.E.128)", "cp.async.cg, src-size in ? 16 : 0",
                                  "cp.async.ca, src-size in ? 16 : 0"};

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

// Where lane `lane`'s 16 bytes land in its warp's slot of one iteration: the
// rows of the copy one after another, each padded by PAD bytes (as a tile
// with padded rows is: tf32-tensor-core's As rows are 64 + 16 bytes, its Bs
// rows 256 + 32).
template <int ROW_BYTES, bool DOWN_FIRST, int PAD>
__host__ __device__ int slot_offset(int lane) {
  constexpr int kLanesPerRow = ROW_BYTES / 16, kRows = 32 / kLanesPerRow;
  const int row = DOWN_FIRST ? lane % kRows : lane / kLanesPerRow;
  const int chunk = DOWN_FIRST ? lane / kRows : lane % kLanesPerRow;
  return (row * (ROW_BYTES + PAD) + chunk * 16) / 4;
}
constexpr int kSlotFloats = 384;  // 1536 bytes: 8 rows of 64 + 128 bytes, 16 of 32 + 64

template <int KIND, int ROW_BYTES, bool DOWN_FIRST, bool APART, int PAD>
__global__ void __launch_bounds__(kThreads) probe(const float* __restrict__ src, float* __restrict__ sums, int src_size) {
  static_assert(32 / (ROW_BYTES / 16) * (ROW_BYTES + PAD) <= 4 * kSlotFloats, "the padded rows fit the slot");
  __shared__ __align__(16) float slots[kWarps][kIters][kSlotFloats];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, gw = blockIdx.x * kWarps + warp;
  const bool in = src_size > 0;  // always here; the select is what the kernels write
  float sum = 0.0f;
  for (int it = 0; it < kIters; ++it) {
    const float* from = src + lane_offset<ROW_BYTES, DOWN_FIRST, APART>(gw, it, lane);
    float* to = &slots[warp][it][slot_offset<ROW_BYTES, DOWN_FIRST, PAD>(lane)];
    const unsigned to_shared = static_cast<unsigned>(__cvta_generic_to_shared(to));
    if constexpr (KIND == kLdgV4) {
      const float4 v = *reinterpret_cast<const float4*>(from);
      sum += v.x + v.y + v.z + v.w;
    } else if constexpr (KIND == kCpAsyncCg) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to_shared), "l"(from));
    } else if constexpr (KIND == kCpAsyncCa) {
      asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(to_shared), "l"(from));
    } else if constexpr (KIND == kCpAsyncCgSized) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to_shared), "l"(from), "r"(in ? 16 : 0));
    } else {
      asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" ::"r"(to_shared), "l"(from), "r"(in ? 16 : 0));
    }
  }
  if constexpr (KIND != kLdgV4) {
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
    __syncwarp();
    for (int it = 0; it < kIters; ++it) {
      const float4 v = *reinterpret_cast<const float4*>(&slots[warp][it][slot_offset<ROW_BYTES, DOWN_FIRST, PAD>(lane)]);
      sum += v.x + v.y + v.z + v.w;
    }
  }
  sums[blockIdx.x * kThreads + threadIdx.x] = sum;
}

float value_at(long long i) { return static_cast<float>(i % 509) * 0.25f; }  // exact in float sums of 64 terms

template <int KIND, int ROW_BYTES, bool DOWN_FIRST, bool APART, int PAD = 0>
int run(const float* src, float* sums, std::vector<float>& out) {
  TS_CUDA_CHECK(cudaMemset(sums, 0xFF, out.size() * sizeof(float)));
  probe<KIND, ROW_BYTES, DOWN_FIRST, APART, PAD><<<kBlocks, kThreads>>>(src, sums, 16);
  TS_CUDA_CHECK(cudaGetLastError());
  TS_CUDA_CHECK(cudaMemcpy(out.data(), sums, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int t = 0; t < kBlocks * kThreads; ++t) {  // the data landed where the read-back expects it
    const int gw = t / 32, lane = t % 32;
    float expect = 0.0f;
    for (int it = 0; it < kIters; ++it) {
      const long long o = lane_offset<ROW_BYTES, DOWN_FIRST, APART>(gw, it, lane);
      expect += value_at(o) + value_at(o + 1) + value_at(o + 2) + value_at(o + 3);
    }
    wrong += out[t] != expect;
  }
  const long long requests = static_cast<long long>(kBlocks) * kWarps * kIters;
  std::printf("%-38s rows of %3d B, %s, lanes %-11s into rows padded by %2d B  requests %8lld  ideal sectors %9lld "
              "(16 per request)  %s\n",
              kKindNames[KIND], ROW_BYTES, APART ? "16 KB apart " : "back to back", DOWN_FIRST ? "down first" : "along rows",
              PAD, requests, requests * 16, wrong ? "WRONG" : "checked");
  return wrong ? 1 : 0;
}

// The layouts: tf32-tensor-core's copies of A (8 rows of 64 bytes, 16 KB
// apart, into rows padded by 16 bytes) and of B (2 rows of 256 bytes, padded
// by 32) last, each also unpadded; lanes down the rows first; rows back to back.
// Then, for the two cp.async kinds with a source size, layouts that tested a
// rule drawn from the first ones (a cp.async.cg counts a sector once per
// 64-byte piece of shared memory it lands in): on the H100 (2026-11-25) it
// held for 64-byte rows padded by 32 (16 a request) and by 48 (20), lanes
// down first into 64-byte rows padded by 16 (20) and 32-byte rows, lanes
// down first (16), and failed for 256-byte rows padded by 16 (18, not 20),
// 32-byte rows padded by 16 (24, not 20) and lanes down first into 128-byte
// rows padded by 16 (18, not 20); cp.async.ca counted 16 in every layout.
template <int KIND>
int run_kind(const float* src, float* sums, std::vector<float>& out) {
  int wrong = run<KIND, 64, false, true>(src, sums, out) + run<KIND, 256, false, true>(src, sums, out) +
              run<KIND, 32, false, true>(src, sums, out) + run<KIND, 128, false, true>(src, sums, out) +
              run<KIND, 64, true, true>(src, sums, out) + run<KIND, 64, false, false>(src, sums, out);
  if constexpr (KIND != kLdgV4)  // the padding is on the shared side
    wrong += run<KIND, 64, false, true, 16>(src, sums, out) + run<KIND, 256, false, true, 32>(src, sums, out);
  if constexpr (KIND == kCpAsyncCgSized || KIND == kCpAsyncCaSized)
    wrong += run<KIND, 64, false, true, 32>(src, sums, out) + run<KIND, 64, false, true, 48>(src, sums, out) +
             run<KIND, 256, false, true, 16>(src, sums, out) + run<KIND, 32, false, true, 16>(src, sums, out) +
             run<KIND, 64, true, true, 16>(src, sums, out) + run<KIND, 128, true, true, 16>(src, sums, out) +
             run<KIND, 32, true, true>(src, sums, out);
  return wrong;
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
  try {
    // Rows 16 KB apart: kBlocks * kWarps warps x up to 16 rows (32-byte rows) of 4096 floats.
    const long long floats = static_cast<long long>(kBlocks) * kWarps * 16 * kRowFloats;
    std::vector<float> host(floats);
    for (long long i = 0; i < floats; ++i) host[i] = value_at(i);
    float *src = nullptr, *sums = nullptr;
    TS_CUDA_CHECK(cudaMalloc(&src, floats * sizeof(float)));
    TS_CUDA_CHECK(cudaMalloc(&sums, kBlocks * kThreads * sizeof(float)));
    TS_CUDA_CHECK(cudaMemcpy(src, host.data(), floats * sizeof(float), cudaMemcpyHostToDevice));
    std::vector<float> out(kBlocks * kThreads);
    const int wrong = run_kind<kCpAsyncCg>(src, sums, out) + run_kind<kCpAsyncCa>(src, sums, out) +
                      run_kind<kLdgV4>(src, sums, out) + run_kind<kCpAsyncCgSized>(src, sums, out) +
                      run_kind<kCpAsyncCaSized>(src, sums, out);
    TS_CUDA_CHECK(cudaFree(src));
    TS_CUDA_CHECK(cudaFree(sums));
    if (wrong) std::fprintf(stderr, "copy_sectors_probe: %d variants copied wrong data\n", wrong);
    return wrong ? 1 : 0;
  } catch (const ts::gpu::GpuError& e) {
    std::fprintf(stderr, "copy_sectors_probe: %s\n", e.what());
    return 1;
  }
}
