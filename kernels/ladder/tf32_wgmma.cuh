// tf32_wgmma.cuh — ladder rung 7, the kernel template: Hopper's warpgroup
// MMA (wgmma), the only path to the H100/H200's full tensor-core rate (the
// mma.sync of rung 6 runs at a fraction of it there). A warpgroup (4 warps)
// issues one asynchronous m64nNk8 product per 8 values of k.
//
// TF32 wgmma reads both operands K-major, but B is row-major (N-major). So
// the kernel computes C^T = B^T * A^T: the wgmma "A" operand (64 columns of
// C x 8 k) is B^T, loaded from shared memory into registers (any layout will
// do for registers), and the wgmma "B" operand (8 k x BM rows of C) is A's
// tile, which is K-major as it stands and is read by the tensor cores
// straight from shared memory through a matrix descriptor. The accumulators
// come out transposed, which only changes the epilogue's indexing.
//
// A's tile sits in the 128-byte swizzled layout (rows of 32 floats = BK, 16
// byte chunk c of row r stored at chunk c ^ (r % 8)): conflict-free for the
// tensor cores and for the cp.async writes. Needs sm_90a (built only for
// it), K and N multiples of 4; any M.
//
// The configuration that ships is chosen in tf32_wgmma.cu by measurement;
// the template stays open for the tuning program.
#pragma once

#include <cstdint>

#include "kernels/ladder/ladder_device.cuh"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TS_LADDER_HAS_WGMMA 1
#endif

namespace ts::ladder {

__device__ __forceinline__ void wgmma_fence() {
#if defined(TS_LADDER_HAS_WGMMA)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit() {
#if defined(TS_LADDER_HAS_WGMMA)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int PENDING>
__device__ __forceinline__ void wgmma_wait() {
#if defined(TS_LADDER_HAS_WGMMA)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
#endif
}
// Keeps the compiler from moving accumulator registers across a wait.
template <int N>
__device__ __forceinline__ void pin_registers(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// D (64 x 64) += A (64 x 8, registers) * B (8 x 64, shared memory via its descriptor).
__device__ __forceinline__ void wgmma_m64n64k8_tf32(float (&d)[32], const std::uint32_t (&a)[4], std::uint64_t b_desc) {
#if defined(TS_LADDER_HAS_WGMMA)
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
      "}, {%32, %33, %34, %35}, %36, 1, 1, 1;\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
#endif
}

// D (64 x 128) += A (64 x 8, registers) * B (8 x 128, shared memory via its descriptor).
__device__ __forceinline__ void wgmma_m64n128k8_tf32(float (&d)[64], const std::uint32_t (&a)[4], std::uint64_t b_desc) {
#if defined(TS_LADDER_HAS_WGMMA)
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, {%64, %65, %66, %67}, %68, 1, 1, 1;\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
#endif
}

// D (64 x 192) += A (64 x 8, registers) * B (8 x 192, shared memory via its descriptor).
__device__ __forceinline__ void wgmma_m64n192k8_tf32(float (&d)[96], const std::uint32_t (&a)[4], std::uint64_t b_desc) {
#if defined(TS_LADDER_HAS_WGMMA)
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n192k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
      "}, {%96, %97, %98, %99}, %100, 1, 1, 1;\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
#endif
}

// D (64 x 256) += A (64 x 8, registers) * B (8 x 256, shared memory via its descriptor).
__device__ __forceinline__ void wgmma_m64n256k8_tf32(float (&d)[128], const std::uint32_t (&a)[4], std::uint64_t b_desc) {
#if defined(TS_LADDER_HAS_WGMMA)
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, {%128, %129, %130, %131}, %132, 1, 1, 1;\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
#endif
}


// Shared-memory layouts of A's tile the descriptor can describe.
enum class WgmmaLayout { Swizzle128 = 0, Interleave = 1, InterleaveSwapped = 2 };

// Matrix descriptor: start address, leading and stride byte offsets (all in
// 16-byte units) and the swizzle mode.
__device__ __forceinline__ std::uint64_t matrix_descriptor(std::uint32_t address, std::uint32_t leading_bytes,
                                                           std::uint32_t stride_bytes, std::uint64_t swizzle) {
  return std::uint64_t((address & 0x3FFFF) >> 4) | (std::uint64_t((leading_bytes & 0x3FFFF) >> 4) << 16) |
         (std::uint64_t((stride_bytes & 0x3FFFF) >> 4) << 32) | (swizzle << 62);
}

template <int BM_, int WARPGROUPS_, int STAGES_, int LAYOUT_, int AORDER_, int GROUP_M_>
struct WgmmaConfig {
  static constexpr int BM = BM_, BN = 64 * WARPGROUPS_, BK = 32;  // BK: one 128-byte row of floats
  static constexpr int kWarpgroups = WARPGROUPS_, kThreads = 128 * WARPGROUPS_;
  static constexpr int STAGES = STAGES_, GROUP_M = GROUP_M_, AORDER = AORDER_;
  static constexpr WgmmaLayout LAYOUT = static_cast<WgmmaLayout>(LAYOUT_);
  static constexpr int kLdb = BN + 8;                      // B rows padded: conflict-free register loads
  static constexpr int kABytes = BM * BK * 4;              // a multiple of 1024: every stage stays aligned
  static constexpr int kStageBytes = kABytes + BK * kLdb * 4;
  static constexpr int kSharedBytes = STAGES * kStageBytes + 1024;  // + room to align the base to 1024
  static_assert(BM == 128 || BM == 256, "wgmma n is 128 or 256 here");
  static_assert(kStageBytes % 1024 == 0, "every stage's A tile starts on a 1024-byte boundary");
  static_assert(BM * BK % (4 * kThreads) == 0 && BK * BN % (4 * kThreads) == 0, "threads copy whole tiles");
};

template <class Cfg>
__device__ __forceinline__ void wgmma_tf32(float (&d)[Cfg::BM / 2], const std::uint32_t (&a)[4], std::uint64_t desc) {
  if constexpr (Cfg::BM == 256) wgmma_m64n256k8_tf32(d, a, desc);
  else wgmma_m64n128k8_tf32(d, a, desc);
}

// Byte offset of 16-byte chunk c (k = 4c..4c+3) of row r of A's tile.
template <class Cfg>
__device__ __forceinline__ std::uint32_t a_chunk_offset(int r, int c) {
  if constexpr (Cfg::LAYOUT == WgmmaLayout::Swizzle128) return r * 128 + ((c ^ (r & 7)) << 4);
  else return (r >> 3) * 1024 + c * 128 + (r & 7) * 16;  // 8 x 16-byte core matrices, k-chunks adjacent
}

// Descriptor of k-slice s (k = 8s..8s+7) of A's tile at shared address base.
template <class Cfg>
__device__ __forceinline__ std::uint64_t a_slice_descriptor(std::uint32_t base, int s) {
  if constexpr (Cfg::LAYOUT == WgmmaLayout::Swizzle128) return matrix_descriptor(base + 32 * s, 16, 1024, 1);
  else if constexpr (Cfg::LAYOUT == WgmmaLayout::Interleave) return matrix_descriptor(base + 256 * s, 128, 1024, 0);
  else return matrix_descriptor(base + 256 * s, 1024, 128, 0);
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    tf32_wgmma(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
#if defined(TS_LADDER_HAS_WGMMA)
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, kLdb = Cfg::kLdb, kThreads = Cfg::kThreads;
  constexpr int kACopies = BM * BK / (4 * kThreads), kBCopies = BK * BN / (4 * kThreads);
  extern __shared__ __align__(1024) unsigned char shared_raw[];
  // The swizzle works on address bits, so every A tile must start on a 1024-byte boundary.
  const std::uint32_t raw_address = shared_address(shared_raw);
  const std::uint32_t pad = (1024 - (raw_address & 1023)) & 1023;
  unsigned char* shared = shared_raw + pad;
  const std::uint32_t shared_base = raw_address + pad;

  int block_row, block_col;
  swizzled_block<Cfg::GROUP_M>(ceil_div(M, BM), ceil_div(N, BN), block_row, block_col);
  const int row0 = block_row * BM, col0 = block_col * BN;
  const int t = threadIdx.x, lane = t % 32;
  const int group = lane / 4, quad = lane % 4;
  // This thread's 16 columns of C (rows of the wgmma "A"): its warpgroup's 64, its warp's 16.
  const int warp_col = (t / 128) * 64 + ((t / 32) % 4) * 16;

  const auto load_tile = [&](int stage, int tile) {
    unsigned char* As = shared + stage * Cfg::kStageBytes;
    float* Bs = reinterpret_cast<float*>(As + Cfg::kABytes);
    const int k0 = tile * BK;
#pragma unroll
    for (int i = 0; i < kACopies; ++i) {
      const int e = t + i * kThreads, r = e / (BK / 4), c = e % (BK / 4);
      const bool in = row0 + r < M && k0 + 4 * c < K;
      cp_async_16(As + a_chunk_offset<Cfg>(r, c), in ? &A[(row0 + r) * K + k0 + 4 * c] : A, in);
    }
#pragma unroll
    for (int i = 0; i < kBCopies; ++i) {
      const int e = t + i * kThreads, r = e / (BN / 4), c = (e % (BN / 4)) * 4;
      const bool in = k0 + r < K && col0 + c < N;
      cp_async_16(&Bs[r * kLdb + c], in ? &B[(k0 + r) * N + col0 + c] : B, in);
    }
  };

  float acc[BM / 2];
#pragma unroll
  for (int i = 0; i < BM / 2; ++i) acc[i] = 0.0f;
  cp_async_pipeline<Cfg::STAGES, true>(ceil_div(K, BK), load_tile, [&](int stage) {
    const float* Bs = reinterpret_cast<const float*>(shared + stage * Cfg::kStageBytes + Cfg::kABytes);
    const std::uint32_t a_base = shared_base + stage * Cfg::kStageBytes;
    // B^T's fragments for all four k-slices, rounded to TF32, before the first wgmma reads them.
    std::uint32_t frag[BK / 8][4];
#pragma unroll
    for (int s = 0; s < BK / 8; ++s) {
      const float* lo = &Bs[(8 * s + quad) * kLdb + warp_col + group];  // k = 8s + quad
      const float* hi = lo + 4 * kLdb;                                  // k = 8s + quad + 4
      const float v[4] = {lo[0], lo[8], hi[0], hi[8]};  // (n, k), (n+8, k), (n, k+4), (n+8, k+4)
      // AORDER 1 swaps the middle two: the tuning program's check of the register layout.
      constexpr int kOrder[2][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}};
#pragma unroll
      for (int r = 0; r < 4; ++r) frag[s][r] = to_tf32(__float_as_uint(v[kOrder[Cfg::AORDER][r]]));
    }
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < BK / 8; ++s) wgmma_tf32<Cfg>(acc, frag[s], a_slice_descriptor<Cfg>(a_base, s));
    wgmma_commit();
    wgmma_wait<0>();  // the stage is refilled next iteration, and frag is rewritten
    pin_registers(acc);
  });
  // acc[4j + q]: D row (column of C) warp_col + group (+8 for q >= 2), D column (row of C) 8j + 2*quad (+1 for odd q).
#pragma unroll
  for (int j = 0; j < BM / 8; ++j)
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int row = row0 + 8 * j + 2 * quad + (q & 1);
      const int col = col0 + warp_col + group + 8 * (q >> 1);
      if (row < M && col < N) C[row * N + col] = acc[4 * j + q];
    }
#endif
}

template <class Cfg>
void launch_wgmma_config(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const int blocks = ceil_div(m, Cfg::BM) * ceil_div(n, Cfg::BN);
  launch_checked(tf32_wgmma<Cfg>, dim3(blocks), Cfg::kThreads, Cfg::kSharedBytes, stream, a, b, c, m, n, k);
}

}  // namespace ts::ladder
