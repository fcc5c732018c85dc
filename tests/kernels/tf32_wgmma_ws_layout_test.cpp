// tf32-wgmma-ws's index arithmetic and shared-memory carve-up
// (kernels/ladder/tf32_wgmma_ws_layout.h) and its compiled variants
// (tf32_wgmma_ws_variants.h), checked on the host: plain C++, no CUDA, no GPU.
//  - Every variant's carve-up: each stage's A tile, A's multicast slices and
//    B's boxes start on 1024 bytes (the 128-byte swizzle's atom, where TMA
//    writes and the wgmma descriptor reads), the mbarriers on 8, nothing
//    overlaps, all of it fits the dynamic shared memory asked for after its
//    base is rounded up to 1024, TMA boxes of at most 256 rows; and the
//    rules no rounding can meet are refused with a reason.
//  - The index arithmetic: the fragment loads are free of bank conflicts, the
//    row -> column map is one-to-one, and a host model that moves data
//    exactly as the kernel does (TMA boxes into the 128-byte swizzled image,
//    fragments loaded through b_fragment_offset, the A tile read as the
//    wgmma descriptor reads it, the documented fragment and accumulator
//    layouts, the epilogue's acc_m / acc_n) multiplies correctly, ragged
//    edges included.
//  - The work schedule (data-parallel and stream-k): every k-tile of every
//    unit done once, each piece of a cut unit either its finisher (from
//    k-tile 0) or a CTA's one partial that its finisher waits for, and the
//    plan rule's picks at the shapes the issue names.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "trace/model/reference.h"
#include "kernels/ladder/tf32_wgmma_ws_layout.h"
#include "kernels/ladder/tf32_wgmma_ws_plan.h"
#include "kernels/ladder/tf32_wgmma_ws_variants.h"
#include "tests/kernels/random_matrix.h"

namespace ts::ladder {
namespace {

using test::random_matrix;

// ---- the shared-memory carve-up of every compiled variant ----

TEST(Tf32WgmmaWsSharedPlan, EveryVariantCanBeLaidOut) {
  for (const Tf32WsVariant& v : kTf32WsVariants) {
    const char* why = ws::ws_plan_problem(shared_plan(v));
    EXPECT_EQ(why, nullptr) << v.name << ": " << why;
  }
}

TEST(Tf32WgmmaWsSharedPlan, EveryRegionIsAlignedAndApart) {
  for (const Tf32WsVariant& v : kTf32WsVariants) {
    SCOPED_TRACE(std::string(v.name));
    const ws::SharedPlan p = shared_plan(v);
    std::vector<std::pair<int, int>> regions;  // [start, end) of every TMA destination and barrier
    for (int s = 0; s < v.stages; ++s) {
      EXPECT_EQ(p.a_offset(s) % 1024, 0) << "A's tile of stage " << s;
      // The descriptor reads A's tile as one K-major tile of 8-row atoms
      // 1024 bytes apart: the slices that TMA multicasts must lie where it reads them.
      for (int r = 0; r < v.cluster_n; ++r) {
        EXPECT_EQ(p.a_slice_offset(s, r) % 1024, 0) << "stage " << s << " slice " << r;
        EXPECT_EQ(p.a_slice_offset(s, r), p.a_offset(s) + r * (v.block_m / v.cluster_n) * 128);
        regions.push_back({p.a_slice_offset(s, r), p.a_slice_offset(s, r) + p.a_slice_rows() * 128});
      }
      for (int box = 0; box < v.block_n / 32; ++box) {
        EXPECT_EQ(p.b_box_offset(s, box) % 1024, 0) << "stage " << s << " box " << box;
        regions.push_back({p.b_box_offset(s, box), p.b_box_offset(s, box) + 32 * 128});
      }
      EXPECT_EQ(p.full_barrier(s) % 8, 0);
      EXPECT_EQ(p.empty_barrier(s) % 8, 0);
      regions.push_back({p.full_barrier(s), p.full_barrier(s) + 8});
      regions.push_back({p.empty_barrier(s), p.empty_barrier(s) + 8});
    }
    std::sort(regions.begin(), regions.end());
    for (std::size_t i = 1; i < regions.size(); ++i)
      EXPECT_LE(regions[i - 1].second, regions[i].first) << "regions at " << regions[i - 1].first << " and " << regions[i].first << " overlap";
    EXPECT_EQ(regions.front().first, 0);
    EXPECT_LE(regions.back().second, p.used_bytes());
    // The kernel rounds the dynamic shared memory's base up to 1024: up to 1008
    // bytes (it starts on 16) are lost before the first tile.
    EXPECT_GE(p.dynamic_bytes() - p.used_bytes(), 1024 - 16);
    EXPECT_LE(p.dynamic_bytes(), 227 * 1024);
    EXPECT_LE(v.ctas_per_sm * (p.dynamic_bytes() + 1024), 228 * 1024) << "the CTAs meant to share an SM fit its shared memory";
    EXPECT_EQ(v.block_n % (64 * v.consumers), 0) << "whole 64-column groups per consumer";
    // What one stage's copies complete is what its tiles hold: the full barrier's expect_tx.
    EXPECT_EQ(p.tx_bytes(), v.block_m * 128 + v.block_n * 128);
    EXPECT_LE(p.a_slice_rows(), 256) << "TMA boxes have at most 256 rows";
    EXPECT_EQ(p.a_slice_rows() * v.cluster_n, v.block_m);
    EXPECT_EQ(p.b_boxes_per_slice() * v.cluster_m, v.block_n / 32);
  }
}

TEST(Tf32WgmmaWsSharedPlan, ImpossibleCarveUpsAreRefusedWithAReason) {
  const auto why = [](ws::SharedPlan p) {
    const char* w = ws::ws_plan_problem(p);
    return std::string(w ? w : "");
  };
  EXPECT_EQ(why({256, 128, 4, 1, 1}), "");
  EXPECT_NE(why({256, 128, 1, 1, 1}).find("2 stages"), std::string::npos);
  EXPECT_NE(why({256, 112, 4, 1, 1}).find("32-column boxes"), std::string::npos);
  // Two CTAs an SM: 4 stages of 24 KB each fit, 4 of 32 KB do not.
  EXPECT_EQ(why({128, 64, 4, 2, 1, 2}), "");
  EXPECT_NE(why({128, 128, 4, 1, 1, 2}).find("228 KB"), std::string::npos);
  EXPECT_NE(why({256, 128, 4, 1, 3}).find("split evenly"), std::string::npos);
  EXPECT_NE(why({256, 96, 4, 2, 1}).find("split evenly"), std::string::npos);
  // 32 CTAs along n would each multicast 4 rows of A: half an 8-row swizzle atom.
  EXPECT_NE(why({128, 128, 4, 1, 32}).find("8-row"), std::string::npos);
  EXPECT_NE(why({512, 128, 2, 1, 1}).find("256 rows"), std::string::npos);
  EXPECT_NE(why({256, 128, 5, 1, 1}).find("227 KB"), std::string::npos);  // 5 stages of 48 KB
  EXPECT_NE(why({256, 8192, 2, 1, 1}).find("transaction bytes"), std::string::npos);
}

// ---- the index arithmetic ----

TEST(Tf32WgmmaWsLayout, RowToColumnIsOneToOne) {
  std::set<int> seen;
  for (int row = 0; row < 64; ++row) {
    const int n = ws::n_of_row(row);
    EXPECT_GE(n, 0);
    EXPECT_LT(n, 64);
    seen.insert(n);
  }
  EXPECT_EQ(seen.size(), 64u);
}

TEST(Tf32WgmmaWsLayout, FragmentLoadsAreFreeOfBankConflicts) {
  // One ld.shared.u32 per (warp, register, k-slice, column group): its 32 lanes hit 32 banks.
  for (int group = 0; group < 4; ++group)
    for (int warp = 0; warp < 4; ++warp)
      for (int reg = 0; reg < 4; ++reg)
        for (int slice = 0; slice < 4; ++slice) {
          std::set<std::uint32_t> banks;
          for (int lane = 0; lane < 32; ++lane) banks.insert(ws::b_fragment_offset(group, warp, lane, reg, slice) / 4 % 32);
          EXPECT_EQ(banks.size(), 32u) << "group " << group << " warp " << warp << " reg " << reg << " slice " << slice;
        }
}

TEST(Tf32WgmmaWsLayout, SwizzleStaysInItsRowAndAtom) {
  for (int row = 0; row < 32; ++row) {
    std::set<std::uint32_t> offsets;
    for (int col = 0; col < 32; ++col) {
      const std::uint32_t off = ws::swizzled_offset(row, col);
      EXPECT_EQ(off / 128, std::uint32_t(row));
      offsets.insert(off);
    }
    EXPECT_EQ(offsets.size(), 32u);
  }
}

// The wgmma descriptor's view of a K-major tile with 128-byte swizzle: the
// address of (row, k) before swizzling is start + (row / 8) * SBO + (row % 8)
// * 128 + 4 k, and the swizzle XORs address bits 4-6 with bits 7-9. Written
// independently of swizzled_offset, so the model checks that TMA's image and
// the descriptor agree.
std::uint32_t descriptor_offset(int row, int k) {
  const std::uint32_t linear = std::uint32_t((row / 8) * 1024 + (row % 8) * 128 + 4 * k);
  return linear ^ (((linear >> 7) & 7) << 4);
}

// Runs one CTA tile of the kernel's data flow on the host: C's tile at
// (row0, col0) of a bm x bn block tile with nsub column groups per consumer.
void model_tile(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c, int m, int n, int k,
                int bm, int nsub, int consumers, int row0, int col0) {
  const int bn = 64 * nsub * consumers, kConsumers = consumers;
  std::vector<float> acc(std::size_t(kConsumers) * nsub * 128 * (bm / 2), 0.0f);  // [consumer][group][thread][i]
  std::vector<unsigned char> a_tile(std::size_t(bm) * 128), b_tile(std::size_t(bn) * 128);
  const auto put = [](std::vector<unsigned char>& img, std::uint32_t off, float v) { std::memcpy(&img[off], &v, 4); };
  const auto get = [](const std::vector<unsigned char>& img, std::uint32_t off) {
    float v;
    std::memcpy(&v, &img[off], 4);
    return v;
  };
  for (int k0 = 0; k0 < k; k0 += 32) {
    // TMA: A's box (bm rows x 32 k), B's boxes (32 k x 32 n each); zeros out of bounds.
    for (int r = 0; r < bm; ++r)
      for (int kk = 0; kk < 32; ++kk) {
        const bool in = row0 + r < m && k0 + kk < k;
        put(a_tile, ws::swizzled_offset(r, kk), in ? a[std::size_t(row0 + r) * k + k0 + kk] : 0.0f);
      }
    for (int box = 0; box < bn / 32; ++box)
      for (int kk = 0; kk < 32; ++kk)
        for (int cc = 0; cc < 32; ++cc) {
          const int col = col0 + 32 * box + cc;
          const bool in = k0 + kk < k && col < n;
          put(b_tile, box * ws::kBBoxBytes + ws::swizzled_offset(kk, cc), in ? b[std::size_t(k0 + kk) * n + col] : 0.0f);
        }
    for (int consumer = 0; consumer < kConsumers; ++consumer)
      for (int u = 0; u < nsub; ++u)
        for (int slice = 0; slice < 4; ++slice) {
          // The wgmma A operand (64 x 8) gathered from the 128 threads' fragment registers.
          float a_op[64][8] = {};
          for (int t = 0; t < 128; ++t)
            for (int reg = 0; reg < 4; ++reg) {
              const int warp = t / 32, lane = t % 32;
              a_op[ws::frag_row(warp, lane, reg)][ws::frag_k(lane, reg)] =
                  get(b_tile, ws::b_fragment_offset(consumer * nsub + u, warp, lane, reg, slice));
            }
          // D (64 x bm) += A_op * B_op, B_op (8 x bm) read through the descriptor; then
          // each thread's accumulators by the documented D layout.
          for (int t = 0; t < 128; ++t)
            for (int i = 0; i < bm / 2; ++i) {
              const int warp = t / 32, lane = t % 32;
              const int d_row = 16 * warp + lane / 4 + 8 * ((i / 2) % 2), d_col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
              float sum = 0;
              for (int kk = 0; kk < 8; ++kk) sum += a_op[d_row][kk] * get(a_tile, descriptor_offset(d_col, 8 * slice + kk));
              acc[((std::size_t(consumer) * nsub + u) * 128 + t) * (bm / 2) + i] += sum;
            }
        }
  }
  for (int consumer = 0; consumer < kConsumers; ++consumer)
    for (int u = 0; u < nsub; ++u)
      for (int t = 0; t < 128; ++t)
        for (int i = 0; i < bm / 2; ++i) {
          const int warp = t / 32, lane = t % 32;
          const int row = row0 + ws::acc_m(lane, i), col = col0 + ws::acc_n(consumer * nsub + u, warp, lane, i);
          if (row < m && col < n) c[std::size_t(row) * n + col] = acc[((std::size_t(consumer) * nsub + u) * 128 + t) * (bm / 2) + i];
        }
}

TEST(Tf32WgmmaWsLayout, HostModelMultipliesLikeTheReference) {
  struct Shape {
    int m, n, k, bm, nsub, consumers;
  };
  // Every tile shape of the compiled variants (256 x 128, 128 x 256, 128 x
  // 128 and 192 x 128 with two consumers, 128 x 192 with three; 128 x 64,
  // 64 x 128 and 128 x 128 with one); ragged in every
  // dimension; two tiles each way.
  for (const Shape s : {Shape{300, 200, 70, 256, 1, 2}, Shape{150, 300, 45, 128, 2, 2}, Shape{37, 29, 5, 256, 1, 2},
                        Shape{200, 150, 40, 128, 1, 2}, Shape{150, 100, 37, 128, 1, 1}, Shape{100, 150, 33, 64, 2, 1},
                        Shape{150, 200, 35, 128, 2, 1}, Shape{250, 150, 40, 192, 1, 2}, Shape{150, 250, 36, 128, 1, 3}}) {
    const auto a = random_matrix(std::size_t(s.m) * s.k, 1), b = random_matrix(std::size_t(s.k) * s.n, 2);
    std::vector<float> c(std::size_t(s.m) * s.n, std::nanf(""));
    const int bn = 64 * s.nsub * s.consumers;
    for (int row0 = 0; row0 < s.m; row0 += s.bm)
      for (int col0 = 0; col0 < s.n; col0 += bn)
        model_tile(a, b, c, s.m, s.n, s.k, s.bm, s.nsub, s.consumers, row0, col0);
    for (std::size_t i = 0; i < c.size(); ++i) ASSERT_TRUE(std::isfinite(c[i])) << "cell " << i << " not written";
    EXPECT_LT(relative_error(c, reference_matmul(a, b, s.m, s.n, s.k)), 1e-5) << s.m << "x" << s.n << "x" << s.k;
  }
}

TEST(Tf32WgmmaWsLayout, TilesInGroupsCoverEveryUnitOnce) {
  for (const auto [units_m, units_n, group] : {std::array{16, 32, 8}, std::array{13, 7, 8}, std::array{3, 5, 16}}) {
    std::set<std::pair<int, int>> seen;
    for (int unit = 0; unit < units_m * units_n; ++unit) {
      int um = -1, un = -1;
      ws::unit_position(unit, units_m, units_n, group, um, un);
      ASSERT_TRUE(um >= 0 && um < units_m && un >= 0 && un < units_n) << unit;
      seen.insert({um, un});
    }
    EXPECT_EQ(seen.size(), std::size_t(units_m) * units_n);
  }
}


// ---- the work schedule ----

struct Piece {
  int cluster, unit, kb, ke;
};

std::vector<Piece> pieces_of(const ws::WorkSchedule& s) {
  std::vector<Piece> all;
  for (int c = 0; c < s.clusters; ++c)
    ws::for_each_piece(s, c, [&](int unit, int kb, int ke) { all.push_back({c, unit, kb, ke}); });
  return all;
}

// The schedules with pieces finished in the kernel: data-parallel (mode 0),
// stream-k (1), and the tail split in up to 2, 3, 5 and 16 pieces.
constexpr int kScheduleModes = 6;
ws::WorkSchedule schedule_of(int mode, int units, int k_tiles, int clusters) {
  constexpr int kTails[] = {2, 3, 5, 16};
  if (mode >= 2) return ws::tail_schedule(units, k_tiles, clusters, kTails[mode - 2]);
  return mode == 1 ? ws::stream_k_schedule(units, k_tiles, clusters) : ws::WorkSchedule{units, k_tiles, clusters};
}

// Is `unit` one of the units the schedule shares out by k-tile?
bool shared_unit(const ws::WorkSchedule& s, int unit) {
  return unit >= s.sk_first_unit() && unit < s.sk_first_unit() + s.sk_units;
}

TEST(Tf32WgmmaWsSchedule, EveryKTileOfEveryUnitOnceAndEveryPartialAwaited) {
  int checked = 0;
  for (int units : {1, 2, 7, 16, 65, 66, 67, 131, 132, 133, 200, 512})
    for (int k_tiles : {1, 2, 3, 5, 32, 67, 200})
      for (int clusters : {1, 2, 3, 64, 66}) {
        for (int mode = 0; mode < kScheduleModes; ++mode) {
          const ws::WorkSchedule s = schedule_of(mode, units, k_tiles, clusters);
          ASSERT_LE(s.sk_units, units);
          ASSERT_LE(s.clusters, clusters);
          ASSERT_LE(s.sharing(), s.clusters);
          std::vector<int> done(std::size_t(units) * k_tiles, 0);
          std::vector<int> partials_left(std::size_t(clusters), 0);
          const std::vector<Piece> all = pieces_of(s);
          std::vector<int> first_of(std::size_t(clusters), -1);  // each cluster's first piece of a shared unit
          for (std::size_t i = 0; i < all.size(); ++i) {
            const Piece& p = all[i];
            ASSERT_TRUE(p.unit >= 0 && p.unit < units && p.kb >= 0 && p.kb < p.ke && p.ke <= k_tiles);
            for (int kt = p.kb; kt < p.ke; ++kt) ++done[std::size_t(p.unit) * k_tiles + kt];
            if (!shared_unit(s, p.unit)) {
              EXPECT_TRUE(p.kb == 0 && p.ke == k_tiles) << "a unit not shared out is done whole";
              continue;
            }
            if (first_of[std::size_t(p.cluster)] < 0) first_of[std::size_t(p.cluster)] = int(i);
            if (p.kb > 0) {
              // A partial: the first piece of its cluster's run, and the schedule says it leaves one.
              EXPECT_EQ(first_of[std::size_t(p.cluster)], int(i)) << "a partial that is not its run's first piece";
              EXPECT_TRUE(s.leaves_partial(p.cluster, p.unit));
              ++partials_left[std::size_t(p.cluster)];
            }
          }
          for (int d : done) ASSERT_EQ(d, 1) << units << " units, " << k_tiles << " k-tiles, " << clusters << " clusters";
          // Each finisher (a cut unit's piece from k-tile 0) reads exactly the partials of its unit.
          for (const Piece& p : all) {
            if (p.kb != 0 || p.ke == k_tiles) continue;
            for (int c = p.cluster + 1; s.starts_before_end(c, p.unit); ++c)
              if (s.leaves_partial(c, p.unit)) --partials_left[std::size_t(c)];
          }
          for (int left : partials_left) EXPECT_EQ(left, 0) << "a partial nobody reads, or one read twice";
          ++checked;
        }
      }
  EXPECT_EQ(checked, 12 * 7 * 5 * kScheduleModes);
}

// The tail split cuts the last partial round's units, and only those, into
// the same pieces of k (piece j of every unit covers the same k-tiles), as
// many as the clusters and k-tiles allow up to what was asked; the clusters
// past the pieces share none; every cluster has the same whole units.
TEST(Tf32WgmmaWsSchedule, TailSplitCutsTheLastRoundIntoTheSamePieces) {
  int cut = 0;
  for (int units : {1, 2, 7, 16, 65, 66, 67, 131, 133, 200, 512})
    for (int k_tiles : {1, 2, 3, 5, 32, 197})
      for (int clusters : {1, 3, 64, 66})
        for (int tail : {2, 3, 5, 16}) {
          const ws::WorkSchedule s = ws::tail_schedule(units, k_tiles, clusters, tail);
          const int rest = units % clusters;
          if (s.sk_units == 0) {
            EXPECT_TRUE(rest == 0 || std::min({clusters / rest, k_tiles, tail}) < 2) << units << " " << clusters;
            EXPECT_EQ(s.clusters, std::min(units, clusters));
            continue;
          }
          ++cut;
          const int pieces = std::min({clusters / rest, k_tiles, tail});
          EXPECT_EQ(s.sk_units, rest);
          EXPECT_EQ(s.sk_clusters, rest * pieces);
          EXPECT_EQ(s.clusters, units < clusters ? rest * pieces : clusters);
          std::map<int, std::vector<std::pair<int, int>>> cuts;  // shared unit -> its pieces, in k order
          std::vector<int> wholes(std::size_t(s.clusters), 0);
          for (const Piece& p : pieces_of(s)) {
            if (shared_unit(s, p.unit)) {
              EXPECT_LT(p.cluster, s.sk_clusters);
              cuts[p.unit].push_back({p.kb, p.ke});
            } else {
              ++wholes[std::size_t(p.cluster)];
            }
          }
          ASSERT_EQ(int(cuts.size()), rest);
          for (auto& [unit, pieces_of_unit] : cuts) {
            std::sort(pieces_of_unit.begin(), pieces_of_unit.end());
            EXPECT_EQ(int(pieces_of_unit.size()), pieces) << "unit " << unit;
            EXPECT_EQ(pieces_of_unit, cuts.begin()->second) << "unit " << unit << " cut apart from the first";
          }
          for (int w : wholes) EXPECT_EQ(w, units / clusters);
        }
  EXPECT_GT(cut, 300);
  // 6032x1516x6300 on 256 x 128 tiles in pairs: 144 units, 197 k-tiles, 66
  // clusters: 12 units left over, in 5 pieces of 39 or 40 k-tiles.
  const ws::WorkSchedule s = ws::tail_schedule(144, 197, 66, 16);
  EXPECT_EQ(s.sk_units, 12);
  EXPECT_EQ(s.sk_clusters, 60);
  EXPECT_EQ(s.sk_begin(1) - s.sk_begin(0), 39);
}

// fp32-best's stream-k walks the schedule one piece at a time
// (ws::PieceWalk; for_each_piece, which the tests above check, walks one
// too). Where a unit is cut, the piece that ends at its last k-tile stores
// and raises the unit's flag, and the others wait for it and add: so each
// cut unit has exactly one such piece, and it is its cluster's first piece
// of the shared units (it never waits before it stores).
TEST(WorkSchedule, PieceWalkHasOneStorerPerCutUnitFirstInItsRun) {
  int cut_units = 0;
  for (int units : {1, 2, 7, 66, 67, 132, 133, 289, 1089})
    for (int k_tiles : {1, 2, 3, 10, 19, 192})
      for (int clusters : {1, 3, 132, 396})
        for (int mode = 0; mode < kScheduleModes; ++mode) {
          const ws::WorkSchedule s = schedule_of(mode, units, k_tiles, clusters);
          std::vector<int> storers(std::size_t(units), 0), cut(std::size_t(units), 0);
          for (int c = 0; c < s.clusters; ++c) {
            ws::PieceWalk walk(s, c);
            int unit = 0, kb = 0, ke = 0;
            for (bool first = true; walk.next(unit, kb, ke);) {
              if (!shared_unit(s, unit)) continue;
              const bool was_first = first;
              first = false;
              if (kb == 0 && ke == k_tiles) continue;
              cut[std::size_t(unit)] = 1;
              if (ke == k_tiles) {
                ++storers[std::size_t(unit)];
                EXPECT_TRUE(was_first) << "a storer after another piece of its cluster's run";
              }
            }
          }
          for (int u = 0; u < units; ++u) {
            EXPECT_EQ(storers[std::size_t(u)], cut[std::size_t(u)]) << "unit " << u << ": one storer if cut, else none";
            cut_units += cut[std::size_t(u)];
          }
        }
  EXPECT_GT(cut_units, 1000);  // the walk did cut units
}

TEST(Tf32WgmmaWsSchedule, SplitKCutsEveryUnitIntoItsPiecesOnce) {
  for (int units : {1, 3, 66, 100})
    for (int k_tiles : {1, 2, 7, 64, 129})
      for (int splits : {2, 3, 7, 64})
        for (int clusters : {1, 5, 66}) {
          const ws::WorkSchedule s = ws::split_k_schedule(units, k_tiles, clusters, splits);
          ASSERT_GE(s.splits, 1);
          ASSERT_LE(s.splits, splits);
          ASSERT_LT((s.splits - 1) * s.chunk, k_tiles) << "an empty piece";
          std::vector<int> done(std::size_t(units) * k_tiles, 0);
          std::set<std::pair<int, int>> copies;  // (unit, copy of C)
          for (const Piece& p : pieces_of(s)) {
            ASSERT_TRUE(p.kb < p.ke && p.ke <= k_tiles);
            EXPECT_EQ(p.kb % s.chunk, 0);
            EXPECT_TRUE(copies.insert({p.unit, p.kb / s.chunk}).second) << "two pieces write one copy";
            for (int kt = p.kb; kt < p.ke; ++kt) ++done[std::size_t(p.unit) * k_tiles + kt];
          }
          for (int d : done) ASSERT_EQ(d, 1);
          EXPECT_EQ(copies.size(), std::size_t(units) * s.splits);
        }
}

TEST(Tf32WgmmaWsSchedule, StreamKOnlyWhereRoundsAreNotWhole) {
  EXPECT_EQ(ws::stream_k_units(132, 66), 0);
  EXPECT_EQ(ws::stream_k_units(16, 66), 16);   // fewer units than clusters: all of them
  EXPECT_EQ(ws::stream_k_units(70, 66), 70);   // one round and a sliver: both rounds
  EXPECT_EQ(ws::stream_k_units(140, 66), 74);  // two rounds and a sliver: the last round and the sliver
}

// Run 40 (call 72, H200): where the shipped tile's units leave a partial last
// round, the tail split ran 10-18 points of cuBLAS TF32 ahead of the rule's
// earlier picks (6032x1516x6300 87.7% -> 100.4%, 5888x1792x6272 89.4% ->
// 102.0%, 1352x3820x5648 88.8% -> 97.9%); where the rounds are whole, or the
// last one is nearly full, it is the data-parallel grid's cost and never picked.
TEST(Tf32WgmmaWsPlan, TailSplitWhereTheLastRoundIsShort) {
  const auto variants = std::span<const Tf32WsVariant>(kTf32WsVariants);
  const auto hopper = [&](int i) { return 66 * variants[std::size_t(i)].ctas_per_sm; };
  for (const auto [m, n, k] :
       {std::array{6032, 1516, 6300}, std::array{5888, 1792, 6272}, std::array{1352, 3820, 5648}}) {
    const Tf32WsPlan p = tf32_ws_plan(m, n, k, variants, hopper);
    EXPECT_EQ(p.variant, 0) << m << "x" << n << "x" << k << ": " << tf32_ws_plan_name(p, variants);
    EXPECT_GT(p.tail, 1) << m << "x" << n << "x" << k << ": " << tf32_ws_plan_name(p, variants);
  }
  // 4096^3: 512 tiles, 256 units, 3 whole rounds of 66 and 58 (no two pieces fit); 8192^3: 1024 units.
  for (const int e : {4096, 8192}) {
    const double whole = tf32_ws_plan_cost(variants[0], {0, false, 1, 1}, 66, e, e, e);
    for (const int t : ws::kTailPieces) EXPECT_EQ(tf32_ws_plan_cost(variants[0], {0, false, 1, t}, 66, e, e, e), whole);
    EXPECT_EQ(tf32_ws_plan(e, e, e, variants, hopper).tail, 1);
  }
  EXPECT_EQ(tf32_ws_plan_name({0, false, 1, 4}, variants), "256x128 s4 g8 cn2 tail 4");
}

// Run 42 (H200): over three m-tiles the 128x128 tile paired along m left its
// second pair half past C and ran far behind the same tile paired along n
// (call 89: 384x4224x3584 71.4% of cuBLAS TF32 against 100.8%; call 90:
// 288x4128x1264 113.3 against 155.2, 383x4192x2950 160.9 against 225.8 in
// call 91). At five m-tiles the pair along m stayed ahead (call 90:
// 640x1920x896 118.5 against 99.4 for 192x128 cn2 tail 2).
TEST(Tf32WgmmaWsPlan, NoPairAlongMOverThreeMTiles) {
  const auto variants = std::span<const Tf32WsVariant>(kTf32WsVariants);
  const auto hopper = [&](int i) { return 66 * variants[std::size_t(i)].ctas_per_sm; };
  for (const auto [m, n, k] :
       {std::array{384, 4224, 3584}, std::array{288, 4128, 1264}, std::array{383, 4192, 2950}}) {
    const Tf32WsPlan p = tf32_ws_plan(m, n, k, variants, hopper);
    EXPECT_EQ(variants[std::size_t(p.variant)].cluster_m, 1) << m << "x" << n << "x" << k << ": "
                                                             << tf32_ws_plan_name(p, variants);
    Tf32WsModel before;
    before.pair_m_three = 1;
    EXPECT_EQ(tf32_ws_plan_name(tf32_ws_plan(m, n, k, variants, hopper, before), variants), "128x128 s6 g8 cm2");
  }
  EXPECT_EQ(tf32_ws_plan_name(tf32_ws_plan(640, 1920, 896, variants, hopper), variants), "128x128 s6 g8 cm2");
}

TEST(Tf32WgmmaWsPlan, NarrowShapesLeaveTheShippedTile) {
  const auto variants = std::span<const Tf32WsVariant>(kTf32WsVariants);
  // Clusters of 2 on 132 SMs, twice as many of a variant of two CTAs an SM.
  const auto hopper = [&](int i) { return 66 * variants[std::size_t(i)].ctas_per_sm; };
  // Large and square: the shipped variant, data-parallel.
  const Tf32WsPlan big = tf32_ws_plan(8192, 8192, 8192, variants, hopper);
  EXPECT_EQ(big.variant, 0);
  // Few tiles of work: the rule shares rounds out by k-tile, with a smaller tile where M or N is narrow.
  for (const auto [m, n, k] : {std::array{1024, 1024, 1024}, std::array{128, 4096, 4096}, std::array{571, 3072, 3968},
                               std::array{5605, 362, 6421}}) {
    const Tf32WsPlan p = tf32_ws_plan(m, n, k, variants, hopper);
    EXPECT_TRUE(p.stream_k || p.splits > 1 || p.variant != 0) << m << "x" << n << "x" << k << ": " << tf32_ws_plan_name(p, variants);
    EXPECT_GT(variants[std::size_t(p.variant)].k_tile_cost, 0);
  }
  // A decode-sized M of 128 never runs 256-row tiles (since run 45 the 64 x
  // 128 tile of two consumers, tail 2: 116.4% of cuBLAS TF32 against 110.1%
  // for 128x128 cn2 split 4, call 117).
  EXPECT_LE(variants[std::size_t(tf32_ws_plan(128, 4096, 4096, variants, hopper).variant)].block_m, 128);
  // C of 64 tiles of 128 x 128 (1024^3): run 33 put it on a tile of two CTAs
  // an SM, each CTA on an SM of its own, run 40 on 128 x 128 tiles cut in two
  // by the tail split (83.5-90.3% of cuBLAS TF32). Since run 45, cuBLAS's own
  // tile there: 128 tiles of 64 x 128 of two consumers, one CTA an SM, whole
  // k (call 116: 15.4 us against 18.8, 104% of cuBLAS TF32). At large shapes,
  // where it runs 0.6 of the shipped tile's pace, never (below).
  const Tf32WsPlan small = tf32_ws_plan(1024, 1024, 1024, variants, hopper);
  const Tf32WsVariant& small_tile = variants[std::size_t(small.variant)];
  EXPECT_EQ(small_tile.block_m, 64) << tf32_ws_plan_name(small, variants);
  EXPECT_EQ(small_tile.block_n, 128) << tf32_ws_plan_name(small, variants);
  EXPECT_EQ(small_tile.consumers, 2) << tf32_ws_plan_name(small, variants);
  EXPECT_EQ(small.splits, 1);
  EXPECT_FALSE(small.stream_k);
  for (const int e : {2048, 4096, 8192})
    EXPECT_NE(variants[std::size_t(tf32_ws_plan(e, e, e, variants, hopper).variant)].block_m, 64) << e;
  // That tile only as whole tiles: its tail splits ran behind the earlier picks at 10 of 13 shapes of call 118
  // (2176x640x3072 80.9% of cuBLAS TF32 against 96.1%, 1408x256x4736 116.4 against 126.9).
  for (const auto [m, n, k] : {std::array{2176, 640, 3072}, std::array{1408, 256, 4736}, std::array{512, 640, 3328},
                               std::array{348, 1294, 6417}, std::array{1024, 1024, 1024}}) {
    const Tf32WsPlan p = tf32_ws_plan(m, n, k, variants, hopper);
    const bool cut = p.stream_k || p.splits > 1 || p.tail > 1;
    EXPECT_FALSE(variants[std::size_t(p.variant)].whole_tiles_only && cut)
        << m << "x" << n << "x" << k << ": " << tf32_ws_plan_name(p, variants);
  }
  ASSERT_EQ(variants[10].name, "128x128 s6 g8 cn2");
  for (std::size_t i = 0; i < variants.size(); ++i)
    if (variants[i].ctas_per_sm > 1 && variants[i].k_tile_cost > 0) {
      // Sharing SMs at a large shape: slower than the 128 x 128 tile of two consumers (variant 0 is faster still).
      EXPECT_GT(tf32_ws_plan_cost(variants[i], {int(i), false, 1}, 132, 8192, 8192, 8192),
                tf32_ws_plan_cost(variants[10], {10, false, 1}, 66, 8192, 8192, 8192))
          << variants[i].name;
      // A grid of at most one CTA an SM runs at the lone CTA's pace.
      EXPECT_LT(tf32_ws_plan_cost(variants[i], {int(i), false, 1}, 132, 1024, 1024, 1024),
                tf32_ws_plan_cost({variants[i].name, variants[i].block_m, variants[i].block_n, variants[i].stages,
                                   variants[i].group_m, variants[i].cluster_m, variants[i].cluster_n, true,
                                   variants[i].k_tile_cost, variants[i].consumers, variants[i].ctas_per_sm, 0},
                                  {int(i), false, 1}, 132, 1024, 1024, 1024));
      // No stream-k for them: never the best plan measured.
      for (const auto [m, n, k] : {std::array{1024, 1024, 1024}, std::array{300, 3000, 1500}, std::array{4096, 4096, 128}}) {
        const Tf32WsPlan p = tf32_ws_plan(m, n, k, variants, hopper);
        EXPECT_FALSE(p.stream_k && variants[std::size_t(p.variant)].ctas_per_sm > 1) << m << "x" << n << "x" << k;
      }
    }
  EXPECT_EQ(variants[std::size_t(tf32_ws_plan(8192, 8192, 8192, variants, hopper).variant)].ctas_per_sm, 1);
  // A side just past a multiple of 128 takes the 192-wide tile of that side
  // (run 33: 3712x384x6272 71.4% -> 112.4% of cuBLAS TF32, 380x6296x2224 98.0% -> 120.2%).
  EXPECT_EQ(variants[std::size_t(tf32_ws_plan(3712, 384, 6272, variants, hopper).variant)].block_n, 192);
  EXPECT_EQ(variants[std::size_t(tf32_ws_plan(380, 6296, 2224, variants, hopper).variant)].block_m, 192);
  // Where no cluster of a variant is resident, the rule does not pick it.
  const Tf32WsPlan only_shipped = tf32_ws_plan(128, 4096, 4096, variants, [](int i) { return i == 0 ? 66 : 0; });
  EXPECT_EQ(only_shipped.variant, 0);
}
}  // namespace
}  // namespace ts::ladder
