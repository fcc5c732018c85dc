// tf32_wgmma_ws.cuh — the kernel template of `tf32-wgmma-ws`: TF32 on
// Hopper built the way production Hopper GEMMs are, to close the gap of
// tf32-wgmma (rung 7, ~60% of cuBLAS TF32) to cuBLAS.
//
//  - TMA: one thread copies each k-tile of A (BM x 32 floats) and of B
//    (32 x BN, as BN/32 boxes of 32 x 32) with cp.async.bulk.tensor into
//    shared memory, 128-byte swizzled (a box row is 32 floats = 128 bytes,
//    the swizzle width), through tensor maps made on the host
//    (tf32_wgmma_ws.cu). Out-of-bounds box elements arrive as zeros: ragged
//    M, N and K need no code here.
//  - Warp specialisation: warpgroup 0 is the producer (one thread issues the
//    TMA copies; the warpgroup gives its registers away with setmaxnreg);
//    the one to three warpgroups after it are consumers, each owning 64 x NSUB
//    columns of the block tile's C. A ring of STAGES stages with a `full`
//    mbarrier (producer's expect_tx + TMA's complete_tx) and an `empty`
//    mbarrier (one arrival per consumer warp, of every CTA of the cluster)
//    per stage. With one consumer the CTA may share its SM with a second
//    (CTAS_PER_SM): each then gets half the registers.
//  - The product, as in tf32_wgmma.cuh, is C^T = B^T * A^T: TF32 wgmma reads
//    shared memory only K-major and B (row-major k x n) is N-major, so each
//    consumer loads B's words into the registers of the wgmma A operand
//    (any layout will do in registers: the transposition of B costs no extra
//    pass, no extra shared memory and no extra timing), rounds them to TF32,
//    and the tensor cores read A's tile as the wgmma B operand straight from
//    shared memory through a matrix descriptor (start >> 4, LBO 16 bytes,
//    SBO 1024 bytes = 8 rows of 128 bytes, 128-byte swizzle), advanced by
//    32 bytes per 8 values of k. A's values are read as they are (the tensor
//    cores use their TF32 bits); B's are rounded to nearest.
//  - The fragments of the next k-tile are loaded while the tensor cores run
//    the previous one (two register buffers; wgmma.wait_group 1), and a
//    stage is released as soon as the wgmma group that read it completes.
//  - Persistent: as many CTAs (clusters) as are resident at once walk the
//    tiles in a grouped order (GROUP_M tile rows per column sweep) for L2
//    reuse; the producer runs ahead into the next tile while the consumers
//    store the last one.
//  - Optional clusters of 2 along m (CLUSTER_M: the two CTAs share B's tile)
//    or n (CLUSTER_N: they share A's), each CTA loading half of the shared
//    tile with TMA multicast into both: less L2 traffic per FLOP.
//
// sm_90a only (built only for it). The shipped configuration and the
// variants the tuning program times are in tf32_wgmma_ws.cu; the index
// arithmetic is in tf32_wgmma_ws_layout.h (checked on the host by
// tests/kernels/tf32_wgmma_ws_test.cpp).
#pragma once

#include <cuda.h>  // CUtensorMap, the type only: the encoder is fetched at run time (no -lcuda)
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "kernels/ladder/ladder_device.cuh"
#include "kernels/ladder/tf32_wgmma.cuh"
#include "kernels/ladder/tf32_wgmma_ws_layout.h"
#include "kernels/ladder/tf32_wgmma_ws_plan.h"

namespace ts::ladder {

template <int BM_, int NSUB_, int STAGES_, int GROUP_M_, int CLUSTER_M_, int CLUSTER_N_, int CONSUMERS_ = 2,
          int CTAS_PER_SM_ = 1>
struct WsConfig {
  static constexpr int BM = BM_;      // rows of C per block tile: the wgmma N (64, 128, 192 or 256)
  static constexpr int NSUB = NSUB_;  // 64-column groups per consumer warpgroup (one wgmma each per 8 k)
  static constexpr int kConsumers = CONSUMERS_, BN = 64 * NSUB * kConsumers, BK = 32;  // BK: one 128-byte row
  static constexpr int STAGES = STAGES_, GROUP_M = GROUP_M_;
  static constexpr int CLUSTER_M = CLUSTER_M_, CLUSTER_N = CLUSTER_N_, kCluster = CLUSTER_M * CLUSTER_N;
  static constexpr int kThreads = 128 * (kConsumers + 1), kConsumerWarps = 4 * kConsumers;
  static constexpr int kConsumerThreads = 128 * kConsumers;
  // CTAs resident on one SM (the launch bounds): with two, one CTA's epilogue
  // and pipeline fill overlap the other's main loop.
  static constexpr int kCtasPerSm = CTAS_PER_SM_;
  // setmaxnreg: at launch every thread has the CTA's share of the 65536
  // registers (168 = 65536 / 384 for two consumers and one CTA an SM, as ptxas
  // reports; 128 = 32768 / 256 for one consumer and two CTAs, or 65536 / 512
  // for three consumers); the producer keeps 40 and the consumers take the
  // rest, on 8: 232 (40 x 128 + 232 x 256 = 64512), 216 (40 x 128 + 216 x 128
  // = 32768) or 152 (40 x 128 + 152 x 384 = 63488).
  static constexpr int kProducerRegs = 40;
  static constexpr int kConsumerRegs =
      std::min(248, (65536 / kCtasPerSm - 128 * kProducerRegs) / (128 * kConsumers) / 8 * 8);
  // The shared-memory carve-up (tf32_wgmma_ws_layout.h): every tile, box and
  // multicast slice on 1024 bytes, the barriers on 8, by construction.
  static constexpr ws::SharedPlan kPlan{BM, BN, STAGES, CLUSTER_M, CLUSTER_N, CTAS_PER_SM_};
  static constexpr int kStageBytes = kPlan.stage_bytes();  // stage s starts at s * kStageBytes
  static constexpr int kBOffset = kPlan.b_offset(0);       // B's boxes, from the start of a stage
  static constexpr int kTxBytes = kPlan.tx_bytes();        // what one stage's TMA copies complete
  static constexpr int kFullBarrier = kPlan.full_barrier(0), kEmptyBarrier = kPlan.empty_barrier(0);  // + 8 s
  static constexpr int kASliceRows = kPlan.a_slice_rows(), kASliceStride = kPlan.a_slice_stride();
  static constexpr int kBBoxesPerSlice = kPlan.b_boxes_per_slice();
  static constexpr int kSharedBytes = kPlan.dynamic_bytes();  // + 1024: the base is rounded up to 1024 inside
  static_assert(BM == 64 || BM == 128 || BM == 192 || BM == 256,
                "the wgmma N (rows of C per tile) is 64, 128, 192 or 256 here");
  static_assert(kConsumers >= 1 && kConsumers <= 3, "one to three consumer warpgroups");
  static_assert(kCtasPerSm == 1 || kCtasPerSm == 2, "one or two CTAs an SM");
  static_assert(kConsumerRegs >= BM / 2 * NSUB + 64, "the accumulators and the fragments fit the consumers' registers");
  static_assert(NSUB == 1 || NSUB == 2, "one or two 64-column groups per consumer");
  static_assert(BM / 2 * NSUB <= 128, "at most 128 accumulators per consumer thread");
  static_assert(kCluster == 1 || (kCluster == 2 && (CLUSTER_M == 1 || CLUSTER_N == 1)), "clusters of 2, along m or n");
  static_assert(ws::ws_plan_problem(kPlan) == nullptr,
                "this configuration's shared memory cannot be laid out: ws_plan_problem (tf32_wgmma_ws_layout.h) says why");
  static_assert(kStageBytes % ws::kSwizzleAlign == 0 && kBOffset % ws::kSwizzleAlign == 0 &&
                    kASliceStride % ws::kSwizzleAlign == 0 && kFullBarrier % ws::kBarrierAlign == 0,
                "tiles on the swizzle's 1024 bytes, barriers on 8");
};

namespace ws {

// mbarrier, TMA, cluster and register-count instructions (PTX ISA 8.0+, sm_90a).
__device__ __forceinline__ void mbar_init(std::uint32_t bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
// Makes the initialised barriers visible to the async proxy (TMA) and the cluster.
__device__ __forceinline__ void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// One arrival that also announces `bytes` the TMA copies of this phase will complete.
__device__ __forceinline__ void mbar_arrive_expect_tx(std::uint32_t bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(std::uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
// Arrives on the barrier at the same offset in CTA `rank` of the cluster (itself
// included), with the instruction's default semantics (release at CTA scope), as
// CUTLASS's ClusterBarrier does. What the arrival releases is a stage whose last
// readers, the wgmmas, have completed (wgmma.wait_group) before it. An explicit
// `.release.cluster` made ptxas put MEMBAR.ALL.CTA, MEMBAR.ALL.GPU, ERRBAR and
// CGAERRBAR before every arrival: per consumer warp per k-tile, twice, which
// held the cluster variants at ~40% of cuBLAS (docs/ladder-notes.md).
__device__ __forceinline__ void mbar_arrive_cluster(std::uint32_t bar, std::uint32_t rank) {
  asm volatile(
      "{\n .reg .b32 remote;\n mapa.shared::cluster.u32 remote, %0, %1;\n"
      " mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(bar),
      "r"(rank)
      : "memory");
}
// Waits until the phase of parity `parity` has completed (a fresh barrier is
// in phase 0, so waiting for parity 1 returns at once: the producer's first
// pass over the ring).
__device__ __forceinline__ void mbar_wait(std::uint32_t bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

__device__ __forceinline__ void prefetch_tensor_map(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(map)) : "memory");
}
// Box (c0 = column, c1 = row, in elements) of the tensor map -> shared memory at dst; completes its bytes on bar.
__device__ __forceinline__ void tma_load_2d(std::uint32_t dst, const CUtensorMap* map, std::uint32_t bar, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}
// The same box into dst of every CTA in `mask`, completing on the barrier at bar's offset in each.
__device__ __forceinline__ void tma_load_2d_multicast(std::uint32_t dst, const CUtensorMap* map, std::uint32_t bar, int c0,
                                                      int c1, std::uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar), "h"(mask)
      : "memory");
}

__device__ __forceinline__ std::uint32_t cluster_rank() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
// Every thread of every CTA in the cluster, with release/acquire ordering.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

template <int REGS>
__device__ __forceinline__ void setmaxnreg_dec() {
#if defined(TS_LADDER_HAS_WGMMA)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(REGS));
#endif
}
template <int REGS>
__device__ __forceinline__ void setmaxnreg_inc() {
#if defined(TS_LADDER_HAS_WGMMA)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(REGS));
#endif
}

// Keeps the compiler from moving the fragments' rounding past the wgmma fence.
template <int S>
__device__ __forceinline__ void pin_fragments(std::uint32_t (&f)[S][4]) {
#pragma unroll
  for (int s = 0; s < S; ++s)
#pragma unroll
    for (int r = 0; r < 4; ++r) asm volatile("" : "+r"(f[s][r])::"memory");
}

// The consumer threads only (named barrier 1; the producer warpgroup never joins it).
template <int THREADS>
__device__ __forceinline__ void consumers_sync() {
  asm volatile("bar.sync 1, %0;\n" ::"n"(THREADS) : "memory");
}

__device__ __forceinline__ std::uint32_t ld_shared_u32(std::uint32_t address) {
  std::uint32_t v;
  asm volatile("ld.shared.u32 %0, [%1];\n" : "=r"(v) : "r"(address));
  return v;
}

// D (64 x BM) += A (64 x 8, registers) * B (8 x BM, shared memory via its descriptor).
template <int BM>
__device__ __forceinline__ void wgmma_rs(float (&d)[BM / 2], const std::uint32_t (&a)[4], std::uint64_t desc) {
  if constexpr (BM == 256) wgmma_m64n256k8_tf32(d, a, desc);
  else if constexpr (BM == 192) wgmma_m64n192k8_tf32(d, a, desc);
  else if constexpr (BM == 128) wgmma_m64n128k8_tf32(d, a, desc);
  else wgmma_m64n64k8_tf32(d, a, desc);
}

}  // namespace ws

// kPieces false: the data-parallel grid only (whole units, C stored
// straight); true: stream-k and split-k as `sched` says. Two instantiations,
// because the pieces' code in the data-parallel kernel cost it ~6 us a
// launch on an H200 (Nsight Compute: 65.9 -> 71.8 us at 2048^3, the same
// schedule; docs/ladder-notes.md run 31).
template <class Cfg, bool kPieces>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kCtasPerSm)
    tf32_wgmma_ws(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                  float* __restrict__ C, int M, int N, int K, const ws::WorkSchedule sched,
                  float* __restrict__ partials, unsigned* __restrict__ flags, unsigned epoch) {
#if defined(TS_LADDER_HAS_WGMMA)
  using namespace ws;
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, STAGES = Cfg::STAGES, NSUB = Cfg::NSUB;
  constexpr int CM = Cfg::CLUSTER_M, CN = Cfg::CLUSTER_N, kCluster = Cfg::kCluster;
  constexpr int kSlices = BK / 8;  // wgmma k-steps per k-tile
  extern __shared__ __align__(1024) unsigned char shared_raw[];
  // TMA's swizzle and the descriptors work on address bits: tiles start on 1024 bytes.
  // (The same offset in every CTA, so multicast copies land alike.)
  const std::uint32_t base = (shared_address(shared_raw) + 1023u) & ~1023u;
  const std::uint32_t full_bar = base + Cfg::kFullBarrier;  // stage s: full_bar + 8 s
  const std::uint32_t empty_bar = base + Cfg::kEmptyBarrier;
  const int warpgroup = threadIdx.x / 128;
  const std::uint32_t rank = kCluster > 1 ? cluster_rank() : 0;
  const int rank_m = CM > 1 ? int(rank) : 0, rank_n = CN > 1 ? int(rank) : 0;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(full_bar + 8 * s, 1);  // the producer's arrive.expect_tx; the bytes come from TMA
      mbar_init(empty_bar + 8 * s, Cfg::kConsumerWarps * kCluster);
    }
    fence_mbarrier_init();
  }
  if constexpr (kCluster > 1) cluster_sync();  // the peer's barriers exist before anything reaches them
  else __syncthreads();

  // Work: units of CLUSTER_M x CLUSTER_N block tiles, walked in pieces of
  // k-tiles as `sched` gives them to this cluster (ws::for_each_piece).
  const int units_m = ceil_div(ceil_div(M, BM), CM), units_n = ceil_div(ceil_div(N, BN), CN);
  const int cluster = blockIdx.x / kCluster;

  if (warpgroup == 0) {
    // ---- producer: one thread issues every copy ----
    setmaxnreg_dec<Cfg::kProducerRegs>();
    if (threadIdx.x == 0) {
      prefetch_tensor_map(&a_map);
      prefetch_tensor_map(&b_map);
      constexpr std::uint16_t kMask = (1u << kCluster) - 1;
      std::uint32_t it = 0;  // k-tiles issued so far: stage it % STAGES, pass it / STAGES
      for_each_piece<kPieces>(sched, cluster, [&](int unit, int k_begin, int k_end) {
        int um, un;
        unit_position(unit, units_m, units_n, Cfg::GROUP_M, um, un);
        const int row0 = (um * CM + rank_m) * BM, col0 = (un * CN + rank_n) * BN;
        for (int kt = k_begin; kt < k_end; ++kt, ++it) {
          const int s = int(it % STAGES);
          mbar_wait(empty_bar + 8 * s, ((it / STAGES) & 1) ^ 1);  // every consumer (of the cluster) is done with it
          const std::uint32_t a_dst = base + s * Cfg::kStageBytes, b_dst = a_dst + Cfg::kBOffset, full = full_bar + 8 * s;
          mbar_arrive_expect_tx(full, Cfg::kTxBytes);  // whole boxes, zero-filled where out of bounds
          const int k0 = kt * BK;
          // Boxes that start past the last row of A or column of B (small M or N,
          // or a cluster's spare tile) start on the last one instead: every box
          // starts inside the tensor. What they bring lands in rows of D or C that
          // are never stored (row m of A feeds only row m of C, column n of B only
          // column n).
          const int a_row = CN > 1 ? row0 + int(rank) * Cfg::kASliceRows : row0;
          if constexpr (CN > 1)
            tma_load_2d_multicast(a_dst + rank * Cfg::kASliceStride, &a_map, full, k0, min(a_row, M - 1), kMask);
          else
            tma_load_2d(a_dst, &a_map, full, k0, min(a_row, M - 1));
#pragma unroll
          for (int j = 0; j < Cfg::kBBoxesPerSlice; ++j) {
            const int box = (CM > 1 ? int(rank) * Cfg::kBBoxesPerSlice : 0) + j;
            const int b_col = min(col0 + box * kBoxCols, (N - 1) & ~3);  // on 16 bytes
            if constexpr (CM > 1)
              tma_load_2d_multicast(b_dst + box * kBBoxBytes, &b_map, full, b_col, k0, kMask);
            else
              tma_load_2d(b_dst + box * kBBoxBytes, &b_map, full, b_col, k0);
          }
        }
      });
    }
    __syncwarp();
  } else {
    // ---- consumers: fragments of B in registers, A's tile through the descriptor ----
    setmaxnreg_inc<Cfg::kConsumerRegs>();
    const int consumer = warpgroup - 1, warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
    // Where this thread's words of B are in a stage, for k-slice 0 of its first
    // column group; the next group is 64 columns = 2 boxes further, k-slice sl
    // 8 rows further (b_fragment_offset is linear in both).
    std::uint32_t frag_offset[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) frag_offset[r] = Cfg::kBOffset + b_fragment_offset(consumer * NSUB, warp, lane, r, 0);
    constexpr std::uint32_t kGroupBytes = 2 * kBBoxBytes, kSliceBytes = 8 * kRowBytes;
    static_assert(b_fragment_offset(1, 1, 5, 3, 2) == b_fragment_offset(0, 1, 5, 3, 0) + kGroupBytes + 2 * kSliceBytes,
                  "the offsets of later groups and k-slices are constant steps");

    // A warp is done with a stage once its wgmma group that read it has completed
    // (its fragment loads completed before the wgmma could issue).
    const auto release = [&](std::uint32_t i) {
      if (lane == 0) {
        const std::uint32_t bar = empty_bar + 8 * (i % STAGES);
        if constexpr (kCluster == 1) {
          mbar_arrive(bar);
        } else {
#pragma unroll
          for (int r = 0; r < kCluster; ++r) mbar_arrive_cluster(bar, r);
        }
      }
    };

    std::uint32_t it = 0;
    for_each_piece<kPieces>(sched, cluster, [&](int unit, int k_begin, int k_end) {
      const int k_tiles = k_end - k_begin;  // this piece's
      int um, un;
      unit_position(unit, units_m, units_n, Cfg::GROUP_M, um, un);
      const int row0 = (um * CM + rank_m) * BM, col0 = (un * CN + rank_n) * BN;

      float acc[NSUB][BM / 2];
#pragma unroll
      for (int u = 0; u < NSUB; ++u) {
#pragma unroll
        for (int i = 0; i < BM / 2; ++i) acc[u][i] = 0.0f;
        pin_registers(acc[u]);
      }
      // One wgmma group: k-tile kt for one column group (accumulators d, load
      // offsets offs). The first group of a k-tile waits for its stage. It loads
      // this thread's words of B (rounded to TF32) into fragment buffer f,
      // issues the group's wgmmas, then waits until only this group is in
      // flight: the group before it is done, and with it its fragment buffer
      // (the other one) and, for a k-tile's first group, the previous k-tile's
      // stage, which it releases. Groups alternate between the two buffers, so
      // a running wgmma's registers are never rewritten.
      const auto group_step = [&](float(&d)[BM / 2], std::uint32_t group_bytes, bool first_of_tile, int kt,
                                  std::uint32_t(&f)[kSlices][4]) {
        const std::uint32_t i = it + kt;  // this k-tile's place in the ring
        const std::uint32_t stage = base + (i % STAGES) * Cfg::kStageBytes;
        if (first_of_tile) mbar_wait(full_bar + 8 * (i % STAGES), (i / STAGES) & 1);
#pragma unroll
        for (int sl = 0; sl < kSlices; ++sl)
#pragma unroll
          for (int r = 0; r < 4; ++r)
            f[sl][r] = to_tf32(ld_shared_u32(stage + frag_offset[r] + group_bytes + sl * kSliceBytes));
        pin_fragments(f);  // computed before the fence, not sunk between the wgmmas
        wgmma_fence();     // the fragment registers are written before the wgmmas read them
#pragma unroll
        for (int sl = 0; sl < kSlices; ++sl) wgmma_rs<BM>(d, f[sl], matrix_descriptor(stage + 32 * sl, 16, 1024, 1));
        wgmma_commit();
        wgmma_wait<1>();
        if (first_of_tile && kt > 0) release(i - 1);
      };
      std::uint32_t frag[2][kSlices][4];
      if constexpr (NSUB == 1) {
        int kt = 0;
        for (; kt + 1 < k_tiles; kt += 2) {
          group_step(acc[0], 0, true, kt, frag[0]);
          group_step(acc[0], 0, true, kt + 1, frag[1]);
        }
        if (kt < k_tiles) group_step(acc[0], 0, true, kt, frag[0]);  // no branch inside the loop: ptxas keeps the wgmmas async
      } else {
        for (int kt = 0; kt < k_tiles; ++kt) {
          group_step(acc[0], 0, true, kt, frag[0]);
          group_step(acc[NSUB - 1], kGroupBytes, false, kt, frag[1]);
        }
      }
      it += k_tiles;
      wgmma_wait<0>();
#pragma unroll
      for (int u = 0; u < NSUB; ++u) pin_registers(acc[u]);
      release(it - 1);  // the last k-tile's stage

      // Split-k: each piece stores to its own copy of C in the workspace (a
      // second kernel adds them). Stream-k, a piece of a cut unit: one past
      // k-tile 0 leaves its sums in this CTA's slot and raises its flag; the
      // one from k-tile 0 adds the later pieces' sums, in cluster order (so
      // the sum does not depend on timing), and stores. The slot's layout is
      // this thread's accumulators, strided by the consumer threads: the
      // finisher's thread reads what the same thread of the other CTA wrote.
      float* out = C;
      if constexpr (kPieces) {
        const int ct = threadIdx.x - 128;
        constexpr int kSlot = BM * BN, kStride = Cfg::kConsumerThreads;
        if (sched.splits > 1) {
          out = partials + std::size_t(k_begin / sched.chunk) * M * N;
        } else if (k_begin > 0) {
          float* slot = partials + std::size_t(blockIdx.x) * kSlot;
#pragma unroll
          for (int u = 0; u < NSUB; ++u)
#pragma unroll
            for (int i = 0; i < BM / 2; ++i) __stcg(slot + (u * (BM / 2) + i) * kStride + ct, acc[u][i]);
          __threadfence();
          consumers_sync<Cfg::kConsumerThreads>();
          if (ct == 0) store_release(flags + blockIdx.x, epoch);
          return;
        } else if (k_end < sched.k_tiles) {
          for (int c = cluster + 1; sched.starts_before_end(c, unit); ++c) {
            if (!sched.leaves_partial(c, unit)) continue;  // an empty run (fewer k-tiles than clusters)
            const int cta = c * kCluster + int(rank);
            if (ct == 0)
              while (load_acquire(flags + cta) != epoch) {
              }
            consumers_sync<Cfg::kConsumerThreads>();
            const float* slot = partials + std::size_t(cta) * kSlot;
#pragma unroll
            for (int u = 0; u < NSUB; ++u)
#pragma unroll
              for (int i = 0; i < BM / 2; ++i) acc[u][i] += __ldcg(slot + (u * (BM / 2) + i) * kStride + ct);
          }
        }
      }

      // Epilogue: straight from the accumulators, predicated on the edges.
      // Accumulator 4 j + 2 h + e is row 8 j + e of this lane's rows and
      // column n0 + 4 h of its two (ws::acc_m, ws::acc_n): one row pointer is
      // live, not an address per accumulator (ptxas spilled 256-920 bytes a
      // thread that way where a consumer holds two column groups: the 128 x
      // 256 tiles, a 128 x 128 tile of one consumer). The two columns are
      // stored one after the other: a warp's store covers half of each of
      // its 32-byte sectors and the next one the other half (stored a column
      // at a time instead, the shipped tile ran up to a third slower at short
      // k, run 33).
      static_assert(acc_n(1, 3, 29, 2) == acc_n(1, 3, 29, 0) + 4 && acc_m(29, 7) == acc_m(29, 0) + 1 + 8 * 1,
                    "accumulator 4 j + 2 h + e: row 8 j + e, column 4 h of the lane's first");
      const int m_lane = row0 + 2 * (lane & 3);
#pragma unroll
      for (int u = 0; u < NSUB; ++u) {
        const int n0 = col0 + acc_n(consumer * NSUB + u, warp, lane, 0);
        const bool in0 = n0 < N, in1 = n0 + 4 < N;
        float* row = out + std::size_t(m_lane) * N + n0;
#pragma unroll
        for (int j = 0; j < BM / 8; ++j)
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            if (m_lane + 8 * j + e >= M) continue;
            float* cell = row + std::size_t(8 * j + e) * N;
            if (in0) cell[0] = acc[u][4 * j + e];
            if (in1) cell[4] = acc[u][4 * j + 2 + e];
          }
      }
    });
  }
  if constexpr (kCluster > 1) {
    __syncwarp();
    cluster_sync();  // no CTA leaves while its peer may still arrive on its barriers
  }
#endif
}

// ---- host side (tf32_wgmma_ws.cu) ----

// The operands as TMA can read them: its rows must start on 16 bytes (k and n
// multiples of 4, 16-byte aligned pointers). Where they do not, A and/or B are
// copied into a padded workspace (pad_rows_async, one launch on `stream`,
// part of the launch and so of its timing); lda and ldb are the row strides
// in floats.
struct WsOperands {
  const float* a;
  int lda;
  const float* b;
  int ldb;
};
WsOperands ws_tma_operands(const float* a, const float* b, int m, int n, int k, cudaStream_t stream);

// A tensor map of a row-major float matrix (rows x cols, row stride ld
// floats) in boxes of 32 columns x box_rows rows, 128-byte swizzle,
// out-of-bounds elements read as zero.
CUtensorMap ws_tensor_map(const float* base, int rows, int cols, int ld, int box_rows);

// Stream-k's partial sums, one slot of slot_floats per CTA, and a flag per
// CTA (zero when made), kept for the next launch; `epoch` is new on every
// call, so flags raised by an earlier launch never count.
struct WsStreamK {
  float* partials;
  unsigned* flags;
  unsigned epoch;
};
WsStreamK ws_stream_k_buffers(int ctas, int slot_floats, cudaStream_t stream);

// Split-k's workspace: `floats` of it, kept for the next launch.
float* ws_split_k_buffer(std::size_t floats);
// c[i] = the sum over s < splits of copies[s * cells + i], in that order.
void ws_split_k_sum(const float* copies, int splits, std::size_t cells, float* c, cudaStream_t stream);
// grid_limit: 0 runs as many CTAs as are resident at once (persistent);
// otherwise at most that many (rounded to the cluster), INT_MAX: one per unit
// of work. stream_k: where the units do not fill whole rounds of the
// clusters, the last rounds are shared out by k-tile (ws::WorkSchedule); its
// pieces wait for each other, so its clusters are never more than are
// resident at once. tail > 1: the tail split instead (ws::tail_schedule:
// the last partial round's units cut into up to `tail` equal pieces of k,
// finished in the kernel as stream-k's are, under the same bound). splits >
// 1: split-k instead (ws::split_k_schedule), its copies of C added by a
// second kernel on the same stream.
// Raises both kernels' dynamic shared memory limit to what Cfg needs, once
// (before a launch, and before an occupancy query counts it).
template <class Cfg>
void ws_configure() {
  static const bool configured = [] {
    TS_CUDA_CHECK(cudaFuncSetAttribute(tf32_wgmma_ws<Cfg, false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       Cfg::kSharedBytes));
    TS_CUDA_CHECK(cudaFuncSetAttribute(tf32_wgmma_ws<Cfg, true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       Cfg::kSharedBytes));
    return true;
  }();
  (void)configured;
}

template <class Cfg>
void launch_ws_config(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream,
                      int grid_limit = 0, bool stream_k = false, int splits = 1, int tail = 1) {
  const auto kernel = tf32_wgmma_ws<Cfg, false>;
  const auto pieces_kernel = tf32_wgmma_ws<Cfg, true>;
  ws_configure<Cfg>();
  const WsOperands op = ws_tma_operands(a, b, m, n, k, stream);
  const CUtensorMap a_map = ws_tensor_map(op.a, m, k, op.lda, Cfg::kASliceRows);
  const CUtensorMap b_map = ws_tensor_map(op.b, k, n, op.ldb, ws::kBoxCols);
  const int units = ceil_div(ceil_div(m, Cfg::BM), Cfg::CLUSTER_M) * ceil_div(ceil_div(n, Cfg::BN), Cfg::CLUSTER_N);
  const int resident =
      resident_clusters(reinterpret_cast<const void*>(kernel), Cfg::kThreads, Cfg::kSharedBytes, Cfg::kCluster);
  int clusters = grid_limit == 0 ? resident : std::max(1, grid_limit / Cfg::kCluster);
  const int k_tiles = ceil_div(k, Cfg::BK);
  const std::size_t cells = std::size_t(m) * n;
  splits = int(std::min<std::size_t>(std::max(splits, 1), kWsSplitKFloats / cells));
  ws::WorkSchedule sched{units, k_tiles, 1, 0};
  WsStreamK sk{nullptr, nullptr, 0};
  if (splits > 1) {
    sched = ws::split_k_schedule(units, k_tiles, 1, splits);
    clusters = int(std::max<long long>(1, std::min<long long>(clusters, (long long)units * sched.splits)));
    sk.partials = ws_split_k_buffer(std::size_t(sched.splits) * cells);
  } else {
    if (tail > 1) {
      sched = ws::tail_schedule(units, k_tiles, std::min(clusters, resident), tail);
      clusters = sched.clusters;
    } else if (stream_k) {
      clusters = std::min(clusters, resident);
      sched = ws::stream_k_schedule(units, k_tiles, clusters);
    }
    if (sched.sk_units == 0) clusters = std::max(1, std::min(clusters, units));
    else sk = ws_stream_k_buffers(clusters * Cfg::kCluster, Cfg::BM * Cfg::BN, stream);
  }
  sched.clusters = clusters;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(clusters * Cfg::kCluster);
  config.blockDim = dim3(Cfg::kThreads);
  config.dynamicSmemBytes = Cfg::kSharedBytes;
  config.stream = stream;
  cudaLaunchAttribute cluster_attr[1] = {};
  if constexpr (Cfg::kCluster > 1) {
    cluster_attr[0].id = cudaLaunchAttributeClusterDimension;
    cluster_attr[0].val.clusterDim.x = Cfg::kCluster;
    cluster_attr[0].val.clusterDim.y = 1;
    cluster_attr[0].val.clusterDim.z = 1;
    config.attrs = cluster_attr;
    config.numAttrs = 1;
  }
  const bool pieces = sched.splits > 1 || sched.sk_units > 0;
  TS_CUDA_CHECK(cudaLaunchKernelEx(&config, pieces ? pieces_kernel : kernel, a_map, b_map, c, m, n, k, sched, sk.partials,
                                   sk.flags, sk.epoch));
  if (sched.splits > 1) ws_split_k_sum(sk.partials, sched.splits, cells, c, stream);
}

}  // namespace ts::ladder
