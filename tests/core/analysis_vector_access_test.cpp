// Vector (8- and 16-byte) and cp.async accesses in the analysis: one request
// per warp instruction, sectors of every byte touched, shared wavefronts by
// half-warp (8 bytes) and quarter-warp (16 bytes) phases, two of a load's
// phases in one wavefront where their lanes pair up with the same address
// (what Nsight Compute measured on an H100: docs/memory-analysis.md).
#include <gtest/gtest.h>

#include <functional>

#include "app/core/analysis/bank_conflicts.h"
#include "app/core/analysis/coalescing.h"
#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/warp_requests.h"

namespace ts {
namespace {

// One warp of 32 threads; A is 1 x 1024 floats in global memory, As 1 x 1024
// in shared memory. Each lane's accesses come from `program(lane, add)`.
using Add = std::function<void(ArrayId, std::uint32_t index, Width, std::uint8_t flags, bool async)>;

Trace one_warp(const std::function<void(std::uint32_t lane, const Add&)>& program) {
  Trace t;
  LaunchInfo& L = t.launch;
  L.kernel = "hand-made";
  L.tile = 32;
  L.m = L.n = 1;
  L.k = 1024;
  L.grid = {1, 1, 1};
  L.block = {32, 1, 1};
  L.iteration_rule = {1, 32, 1024, 1, 32, 0, 0};
  L.set_array(ArrayId(0), {true, 0x10000, 1, 1024, 1024});
  L.set_array(ArrayId::As, {true, 0, 1, 1024, 1024});
  std::vector<Event> events;
  t.thread_offsets.assign(1, 0);
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    program(lane, [&](ArrayId a, std::uint32_t index, Width w, std::uint8_t flags, bool async) {
      for (std::uint32_t f = 0; f < floats_of(w); ++f) {
        Event e{};
        e.index = index + f;
        e.array = static_cast<std::uint8_t>(a);
        e.width = static_cast<std::uint8_t>(w);
        e.flags = flags;
        e.async = async ? 1 : 0;
        events.push_back(e);
      }
    });
    t.thread_offsets.push_back(events.size());
  }
  t.events = EventBuffer(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) t.events[i] = events[i];
  t.mark_spaces();  // the space each id's table row says
  return t;
}

const AccessTotals& totals(const MemoryStats& s, ArrayId a, Op op) {
  return s.by_array[static_cast<int>(a)][static_cast<int>(op)];
}

TEST(VectorAccess, AWarpsFloat4LoadIsOneRequestOf16Sectors) {
  const Trace t = one_warp([](std::uint32_t lane, const Add& add) { add(ArrayId::A, 4 * lane, Width::B16, 0, false); });
  const MemoryStats s = analyze_memory(t, 1);
  const AccessTotals& a = totals(s, ArrayId::A, Op::Load);
  EXPECT_EQ(a.requests, 1u);
  EXPECT_EQ(a.accesses, 32u);  // lanes, not floats
  EXPECT_EQ(a.sectors, 16u);   // 512 bytes
  EXPECT_EQ(a.lines, 4u);
  EXPECT_EQ(a.ideal_sectors, 16u);
}

TEST(VectorAccess, TwoFloat4LoadsInALaneAreTwoRequests) {
  const Trace t = one_warp([](std::uint32_t lane, const Add& add) {
    add(ArrayId::A, 4 * lane, Width::B16, 0, false);
    add(ArrayId::A, 128 + 4 * lane, Width::B16, 0, false);
    add(ArrayId::A, lane, Width::B4, 0, false);  // and a scalar one: a third instruction
  });
  WarpAligner aligner(t);
  aligner.align(0, 0, true);
  ASSERT_EQ(aligner.requests().size(), 3u);
  EXPECT_EQ(aligner.requests()[0].width, Width::B16);
  EXPECT_EQ(aligner.requests()[1].width, Width::B16);
  EXPECT_EQ(aligner.requests()[2].width, Width::B4);
  EXPECT_EQ(aligner.addresses(aligner.requests()[1])[1], 0x10000u + (128 + 4) * 4);
  const MemoryStats s = analyze_memory(t, 1);
  const AccessTotals& a = totals(s, ArrayId::A, Op::Load);
  EXPECT_EQ(a.requests, 3u);
  EXPECT_EQ(a.sectors, 16u + 16u + 4u);
}

TEST(VectorAccess, StridedFloat2TouchesTheSectorsOfEveryByte) {
  // Lane l reads floats 8l and 8l + 1: one 8-byte access per 32-byte sector.
  const Trace t = one_warp([](std::uint32_t lane, const Add& add) { add(ArrayId::A, 8 * lane, Width::B8, 0, false); });
  const MemoryStats s = analyze_memory(t, 1);
  const AccessTotals& a = totals(s, ArrayId::A, Op::Load);
  EXPECT_EQ(a.requests, 1u);
  EXPECT_EQ(a.sectors, 32u);
  EXPECT_EQ(a.ideal_sectors, 8u);
}

TEST(VectorAccess, SharedFloat4IsServedByQuarterWarps) {
  // Consecutive float4s: each quarter-warp moves 128 bytes, one wavefront each.
  const Trace t = one_warp([](std::uint32_t lane, const Add& add) {
    add(ArrayId::As, 4 * lane, Width::B16, kFlagStore, false);
    add(ArrayId::As, 32 * lane, Width::B16, 0, false);  // a row of 32 floats apart: banks 0-3 only
  });
  const MemoryStats s = analyze_memory(t, 1);
  const AccessTotals& st = totals(s, ArrayId::As, Op::Store);
  EXPECT_EQ(st.requests, 1u);
  EXPECT_EQ(st.wavefronts, 4u);
  EXPECT_EQ(st.bank_conflicts, 0u);
  const AccessTotals& ld = totals(s, ArrayId::As, Op::Load);
  EXPECT_EQ(ld.requests, 1u);
  EXPECT_EQ(ld.wavefronts, 32u);  // 8 lanes of a phase in the same 4 banks: 8 each
  EXPECT_EQ(ld.bank_conflicts, 28u);
}

TEST(VectorAccess, SharedFloat2IsServedByHalfWarps) {
  const std::vector<std::uint64_t> offsets = [] {
    std::vector<std::uint64_t> o;
    for (std::uint64_t l = 0; l < 32; ++l) o.push_back(8 * l);
    return o;
  }();
  std::vector<std::uint32_t> lanes(32);
  for (std::uint32_t l = 0; l < 32; ++l) lanes[l] = l;
  const BankAccess b = shared_bank_access(offsets, 8, lanes);
  EXPECT_EQ(b.phases, 2u);
  EXPECT_EQ(b.wavefronts(), 2u);
  EXPECT_EQ(b.conflicts(), 0u);
  EXPECT_EQ(b.distinct_words, 64u);
  // Only the second half-warp active: one phase.
  const BankAccess half = shared_bank_access(std::span(offsets).subspan(16), 8, std::span(lanes).subspan(16));
  EXPECT_EQ(half.phases, 1u);
  EXPECT_EQ(half.wavefronts(), 1u);
}

std::vector<std::uint32_t> all_lanes() {
  std::vector<std::uint32_t> lanes(32);
  for (std::uint32_t l = 0; l < 32; ++l) lanes[l] = l;
  return lanes;
}

TEST(VectorAccess, BroadcastFloat4LoadTakesOneWavefrontPerHalfWarp) {
  // Every lane the same 16 bytes (the textbook kernels' LDS.128 of one row of
  // As at TILE 32): uniform pairs, Nsight counts 2 wavefronts, one per half-warp.
  const std::vector<std::uint64_t> same(32, 64);
  const BankAccess b = shared_bank_access(same, 16, all_lanes());
  EXPECT_EQ(b.distinct_words, 4u);
  EXPECT_EQ(b.phases, 2u);
  EXPECT_EQ(b.wavefronts(), 2u);
  EXPECT_EQ(b.conflicts(), 0u);
  // The same as a store keeps the quarter-warps.
  const BankAccess st = shared_bank_access(same, 16, all_lanes(), Op::Store);
  EXPECT_EQ(st.phases, 4u);
  EXPECT_EQ(st.wavefronts(), 4u);
  // Only the lanes of one half-warp: one wavefront.
  const std::vector<std::uint32_t> lanes = all_lanes();
  const BankAccess half = shared_bank_access(std::span(same).subspan(0, 16), 16, std::span(lanes).subspan(0, 16));
  EXPECT_EQ(half.wavefronts(), 1u);
}

TEST(VectorAccess, Float4FragmentsOfAWarpTile) {
  // warptile's lanes as an 8 x 4 grid, row-major (warp_tile.cuh, LANE_MAP 0):
  // A's fragment depends on lane / 4, so lanes l and l ^ 1 share their
  // float4: half-warps, 2 wavefronts, as Nsight counts. B's depends on
  // lane % 4: lanes l and l ^ 1 apart, l and l ^ 2 too (only l ^ 4 agree), so
  // quarter-warps: 4.
  std::vector<std::uint64_t> a, b;
  for (std::uint64_t l = 0; l < 32; ++l) {
    a.push_back(16 * (l / 4));
    b.push_back(16 * (l % 4));
  }
  const BankAccess fa = shared_bank_access(a, 16, all_lanes());
  EXPECT_EQ(fa.phases, 2u);
  EXPECT_EQ(fa.wavefronts(), 2u);
  EXPECT_EQ(fa.conflicts(), 0u);
  const BankAccess fb = shared_bank_access(b, 16, all_lanes());
  EXPECT_EQ(fb.phases, 4u);
  EXPECT_EQ(fb.wavefronts(), 4u);
  EXPECT_EQ(fb.conflicts(), 0u);
  // The tuned kernel's A (LANE_MAP 1, 4 x 8 lanes): lane bit 0 and bit 4 pick
  // the float4, so l and l ^ 2 agree where l and l ^ 1 do not: half-warps.
  std::vector<std::uint64_t> tuned;
  for (std::uint64_t l = 0; l < 32; ++l) tuned.push_back(16 * ((l & 1) | (l >> 4) << 1));
  EXPECT_EQ(shared_bank_access(tuned, 16, all_lanes()).wavefronts(), 2u);
  // Paired lanes whose 8 float4 of a half-warp meet in banks 0-3: no single
  // wavefront, so the quarter-warps, 4 each (the probe's ld128-pairs-conflict: 16).
  std::vector<std::uint64_t> rows;
  for (std::uint64_t l = 0; l < 32; ++l) rows.push_back(128 * (l / 2));
  const BankAccess fr = shared_bank_access(rows, 16, all_lanes());
  EXPECT_EQ(fr.phases, 4u);
  EXPECT_EQ(fr.wavefronts(), 16u);
  EXPECT_EQ(fr.conflicts(), 12u);
  // One lane apart from its partners (lane 5 elsewhere): its half-warp goes by quarters.
  a[5] = 16 * 7;
  EXPECT_EQ(shared_bank_access(a, 16, all_lanes()).phases, 3u);
  EXPECT_EQ(shared_bank_access(a, 16, all_lanes()).wavefronts(), 3u);
  // A lane whose partner is inactive breaks its half-warp's pairing (the
  // probe's ld128-pairs-one-idle: 3 wavefronts, lane 3 idle).
  std::vector<std::uint64_t> idle;
  std::vector<std::uint32_t> idle_lanes;
  for (std::uint32_t l = 0; l < 32; ++l)
    if (l != 3) {
      idle.push_back(16 * (l / 2));
      idle_lanes.push_back(l);
    }
  EXPECT_EQ(shared_bank_access(idle, 16, idle_lanes).wavefronts(), 3u);
}

TEST(VectorAccess, Float2LoadsOfPairedLanesTakeOneWavefront) {
  // The probe's ld64-same and ld64-pairs-apart: 1 wavefront on the H100.
  const BankAccess same = shared_bank_access(std::vector<std::uint64_t>(32, 8), 8, all_lanes());
  EXPECT_EQ(same.wavefronts(), 1u);
  EXPECT_EQ(same.conflicts(), 0u);
  std::vector<std::uint64_t> pairs, apart, conflict;
  for (std::uint64_t l = 0; l < 32; ++l) {
    pairs.push_back(8 * (l / 2));
    apart.push_back(8 * l);
    const std::uint64_t pair = l / 2;  // 0..15; 8 pairs a half-warp on banks 0-1, then 8 on banks 2-3
    conflict.push_back(256 * (pair % 8) + 8 * (pair / 8));
  }
  EXPECT_EQ(shared_bank_access(pairs, 8, all_lanes()).wavefronts(), 1u);
  // Lanes apart: the half-warps, one wavefront each.
  EXPECT_EQ(shared_bank_access(apart, 8, all_lanes()).wavefronts(), 2u);
  // Paired, but 8-way on banks 0-1 and 2-3: the half-warps' own 8 each.
  const BankAccess c = shared_bank_access(conflict, 8, all_lanes());
  EXPECT_EQ(c.wavefronts(), 16u);
  EXPECT_EQ(c.conflicts(), 14u);
  // A store keeps the half-warps.
  EXPECT_EQ(shared_bank_access(pairs, 8, all_lanes(), Op::Store).wavefronts(), 2u);
}

TEST(VectorAccess, AsyncCopiesAreTheirOwnInstructions) {
  // A cp.async (global read + shared write) next to an ordinary load of A.
  const Trace t = one_warp([](std::uint32_t lane, const Add& add) {
    add(ArrayId::A, 4 * lane, Width::B16, 0, true);
    add(ArrayId::As, 4 * lane, Width::B16, kFlagStore, true);
    add(ArrayId::A, 4 * lane, Width::B16, 0, false);
  });
  WarpAligner aligner(t);
  aligner.align(0, 0, true);
  ASSERT_EQ(aligner.requests().size(), 3u);
  EXPECT_TRUE(aligner.requests()[0].async);
  EXPECT_TRUE(aligner.requests()[1].async);
  EXPECT_FALSE(aligner.requests()[2].async);
  const MemoryStats s = analyze_memory(t, 1);
  EXPECT_EQ(totals(s, ArrayId::A, Op::Load).requests, 2u);
}

TEST(VectorAccess, ElementsRegroupByAlignment) {
  Event e{};
  e.width = static_cast<std::uint16_t>(Width::B16);
  e.index = 8;
  EXPECT_TRUE(first_of_access(e, nullptr));
  Event next = e;
  next.index = 9;
  EXPECT_EQ(next.lane_element(), 1u);
  EXPECT_FALSE(first_of_access(next, &e));
  Event other_array = e;
  other_array.index = 9;
  other_array.array = static_cast<std::uint16_t>(ArrayId::B);
  EXPECT_TRUE(first_of_access(other_array, &e));  // a damaged file: a new access
}

}  // namespace
}  // namespace ts
