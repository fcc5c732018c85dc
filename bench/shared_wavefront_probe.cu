// shared_wavefront_probe.cu — the shared-memory wavefront model
// (app/core/analysis/bank_conflicts.h) put to the hardware where no recorded
// kernel tests it: 64-bit loads whose lanes pair up with one address, a
// 128-bit load with a lane of a pair inactive, a paired 128-bit load with
// bank conflicts, a 128-bit store of one address, next to cases the rungs
// already showed. Each pattern is one launch of one kernel: every warp loads
// (or stores) at the pattern's byte offsets kIters times; the loads are summed
// and the sums checked against the host's. The program prints, per pattern,
// what the model gives per instruction (shared_bank_access);
// scripts/gpu-checks.d/79-uniform-pairs.sh runs it under Nsight Compute and
// puts the hardware's wavefronts per executed instruction beside it.
//
//   shared_wavefront_probe        run every pattern once, check, print the model's counts
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "app/core/analysis/bank_conflicts.h"
#include "kernels/cuda/cuda_check.cuh"

namespace {

constexpr int kWarps = 4, kThreads = 32 * kWarps, kBlocks = 132, kIters = 64;
constexpr int kSharedFloats = 4096;  // 16 KB, every offset below lies inside

enum Pattern {
  kLd32Consecutive,     // 4-byte loads of 32 consecutive words
  kLd128Same,           // every lane the same 16 bytes
  kLd128PairsApart,     // lanes 2i, 2i + 1 share a float4; 16 float4 side by side
  kLd128PairsOneIdle,   // the same, lane 3 inactive
  kLd128PairsConflict,  // pairs; a half-warp's 8 float4 4-way on banks 0-3 and 4-7
  kLd128PairsByTwo,     // lanes l, l ^ 2 share (not l ^ 1)
  kLd128ByFour,         // lane % 4 picks the float4: only l ^ 4 agree
  kLd64Same,            // 8-byte loads, every lane the same 8 bytes
  kLd64PairsApart,      // 8-byte loads, lanes 2i, 2i + 1 share; 16 side by side
  kLd64PairsConflict,   // 8-byte pairs, a half-warp's 8 on banks 0-1 (then 2-3): 8-way
  kSt128Same,           // 16-byte stores, every lane the same 16 bytes
  // cp.async copies (LDGSTS), global -> shared; measured, not yet modelled:
  kCopies,
  kCp4Consecutive = kCopies,  // 4-byte cp.async.ca, lane l to word l
  kCp4Stride2,                // 4-byte, lane l to word 2l (2-way as a store)
  kCp8Consecutive,            // 8-byte cp.async.ca, side by side
  kCp16Consecutive,           // 16-byte cp.async.cg, side by side
  kCp16Rows64Pad80,           // 16-byte .cg, 8 rows x 64 bytes into rows 80 bytes apart (tf32-tensor-core's As)
  kCp16Rows256Pad288,         // 16-byte .cg, 2 rows x 256 bytes into rows 288 bytes apart (its Bs)
  kPatterns
};
const char* const kNames[] = {"ld32-consecutive",    "ld128-same",      "ld128-pairs-apart", "ld128-pairs-one-idle",
                              "ld128-pairs-conflict", "ld128-pairs-by-two", "ld128-by-four", "ld64-same",
                              "ld64-pairs-apart",    "ld64-pairs-conflict", "st128-same",    "cp4-consecutive",
                              "cp4-stride2",         "cp8-consecutive",  "cp16-consecutive",  "cp16-rows64-pad80",
                              "cp16-rows256-pad288"};

__host__ __device__ constexpr int width_of(int p) {
  if (p == kLd32Consecutive || p == kCp4Consecutive || p == kCp4Stride2) return 4;
  return (p == kLd64Same || p == kLd64PairsApart || p == kLd64PairsConflict || p == kCp8Consecutive) ? 8 : 16;
}
__host__ __device__ constexpr bool is_copy(int p) { return p >= kCopies; }
__host__ __device__ constexpr bool is_store(int p) { return p == kSt128Same || is_copy(p); }
__host__ __device__ constexpr bool active(int p, int lane) { return !(p == kLd128PairsOneIdle && lane == 3); }

// Lane `lane`'s byte offset in the shared array.
__host__ __device__ constexpr int byte_offset(int p, int lane) {
  switch (p) {
    case kLd32Consecutive: return 4 * lane;
    case kLd128Same: return 0;
    case kLd128PairsApart:
    case kLd128PairsOneIdle: return 16 * (lane / 2);
    case kLd128PairsConflict: {
      const int pair = (lane % 16) / 2;  // 0..7 in each half-warp
      return 2048 * (lane / 16) + 512 * (pair % 4) + 16 * (pair / 4);
    }
    case kLd128PairsByTwo: return 16 * ((lane & 1) | (lane >> 2) << 1);
    case kLd128ByFour: return 16 * (lane % 4);
    case kLd64Same: return 0;
    case kLd64PairsApart: return 8 * (lane / 2);
    case kLd64PairsConflict: return 256 * ((lane / 2) % 8) + 8 * (lane / 16);
    case kSt128Same: return 0;
    case kCp4Consecutive: return 4 * lane;
    case kCp4Stride2: return 8 * lane;
    case kCp8Consecutive: return 8 * lane;
    case kCp16Consecutive: return 16 * lane;
    case kCp16Rows64Pad80: return 80 * (lane / 4) + 16 * (lane % 4);
    case kCp16Rows256Pad288: return 288 * (lane / 16) + 16 * (lane % 16);
    default: return 0;
  }
}

// What lane `lane` copies from (floats): its own slot of the source, width_of(P) bytes.
__host__ __device__ constexpr int source_float(int p, int lane) { return lane * width_of(p) / 4; }

template <int P>
__global__ void __launch_bounds__(kThreads) probe(float* sums, const float* source) {
  __shared__ __align__(16) float s[kSharedFloats];
  if constexpr (!is_store(P)) {  // a store pattern's only stores are its own
    for (int i = threadIdx.x; i < kSharedFloats; i += kThreads) s[i] = static_cast<float>(i % 97);
    __syncthreads();
  }
  const int lane = threadIdx.x % 32;
  const auto at = static_cast<std::uint32_t>(__cvta_generic_to_shared(s)) + byte_offset(P, lane);
  float sum = 0.0f;
  if (active(P, lane)) {
    // Volatile shared accesses: one instruction of the pattern's width per iteration, none hoisted or merged.
#pragma unroll 1
    for (int it = 0; it < kIters; ++it) {
      float x = 0.0f, y = 0.0f, z = 0.0f, w = 0.0f;
      if constexpr (is_copy(P)) {
        const float* from = source + source_float(P, lane);
        if constexpr (width_of(P) == 16)
          asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(at), "l"(from) : "memory");
        else if constexpr (width_of(P) == 8)
          asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(at), "l"(from) : "memory");
        else
          asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(at), "l"(from) : "memory");
        asm volatile("cp.async.commit_group;\ncp.async.wait_all;" ::: "memory");
      } else if constexpr (is_store(P)) {
        asm volatile("st.volatile.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(at), "f"(1.0f), "f"(2.0f), "f"(3.0f), "f"(4.0f)
                     : "memory");
      } else if constexpr (width_of(P) == 16) {
        asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "r"(at) : "memory");
      } else if constexpr (width_of(P) == 8) {
        asm volatile("ld.volatile.shared.v2.f32 {%0, %1}, [%2];" : "=f"(x), "=f"(y) : "r"(at) : "memory");
      } else {
        asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=f"(x) : "r"(at) : "memory");
      }
      sum += x + y + z + w;
    }
  }
  if constexpr (is_store(P)) {
    __syncthreads();
    sum = active(P, lane) ? s[byte_offset(P, lane) / 4] : 0.0f;
  }
  sums[blockIdx.x * kThreads + threadIdx.x] = sum;
}

// What a thread's sum must be.
float expected_sum(int p, int lane) {
  if (is_copy(p)) return static_cast<float>(source_float(p, lane) % 97);  // the first float it copied
  if (is_store(p)) return 1.0f;
  if (!active(p, lane)) return 0.0f;
  float one = 0.0f;
  for (int e = 0; e < width_of(p) / 4; ++e) one += static_cast<float>((byte_offset(p, lane) / 4 + e) % 97);
  return one * kIters;  // small integers: exact in float
}

template <int P>
bool run(float* sums, const float* source) {
  TS_CUDA_CHECK(cudaMemset(sums, 0xFF, sizeof(float) * kBlocks * kThreads));
  probe<P><<<kBlocks, kThreads>>>(sums, source);
  TS_CUDA_CHECK_LAUNCH();
  std::vector<float> got(kBlocks * kThreads);
  TS_CUDA_CHECK(cudaMemcpy(got.data(), sums, sizeof(float) * got.size(), cudaMemcpyDeviceToHost));
  for (int t = 0; t < kBlocks * kThreads; ++t)
    if (got[t] != expected_sum(P, t % 32)) {
      std::fprintf(stderr, "shared_wavefront_probe: %s: thread %d summed %g, expected %g\n", kNames[P], t,
                   static_cast<double>(got[t]), static_cast<double>(expected_sum(P, t % 32)));
      return false;
    }
  // The model's wavefronts for one warp instruction of the pattern.
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint32_t> lanes;
  for (int lane = 0; lane < 32; ++lane)
    if (active(P, lane)) {
      offsets.push_back(static_cast<std::uint64_t>(byte_offset(P, lane)));
      lanes.push_back(static_cast<std::uint32_t>(lane));
    }
  const ts::BankAccess b = ts::shared_bank_access(offsets, width_of(P), lanes, is_store(P) ? ts::Op::Store : ts::Op::Load);
  std::printf("probe<%d> %-22s %2d-byte %-5s model %2u wavefronts per instruction (%u phases)\n", P, kNames[P],
              width_of(P), is_copy(P) ? "copy" : is_store(P) ? "store" : "load", b.wavefronts(), b.phases);
  return true;
}

template <int... P>
bool run_all(float* sums, const float* source, std::integer_sequence<int, P...>) {
  return (run<P>(sums, source) & ...);
}

}  // namespace

int main() {
  try {
    float* sums = nullptr;
    float* source = nullptr;
    std::vector<float> values(32 * 4);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 97);
    TS_CUDA_CHECK(cudaMalloc(&sums, sizeof(float) * kBlocks * kThreads));
    TS_CUDA_CHECK(cudaMalloc(&source, sizeof(float) * values.size()));
    TS_CUDA_CHECK(cudaMemcpy(source, values.data(), sizeof(float) * values.size(), cudaMemcpyHostToDevice));
    const bool ok = run_all(sums, source, std::make_integer_sequence<int, kPatterns>{});
    TS_CUDA_CHECK(cudaFree(source));
    TS_CUDA_CHECK(cudaFree(sums));
    std::printf("%s\n", ok ? "every pattern's sums checked" : "a pattern's sums were wrong");
    return ok ? 0 : 1;
  } catch (const ts::gpu::GpuError& e) {
    std::fprintf(stderr, "shared_wavefront_probe: %s\n", e.what());
    return 1;
  }
}
