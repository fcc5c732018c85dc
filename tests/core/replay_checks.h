// replay_checks.h — the replay's highlights held to a trace's own events, for
// any recording (the emulator's in replay_test, the GPU's in replay_gpu_test).
#pragma once

#include <gtest/gtest.h>

#include "app/core/replay.h"
#include "app/core/trace_index.h"
#include "tests/core/trace_test_support.h"

namespace ts::test {

// For every row_stride-th row and col_stride-th column of C, at every
// iteration: the cell's block and thread contain it; what it reads lies in
// what its block loads; its own copies lie in the block's tiles; each shared
// word it reads at k was copied from A[row][k0 + k] and B[k0 + k][col] (or is
// padding past K); and the recomputed running sum ends, bit for bit, at the
// value the kernel stored (plain or fused arithmetic, whichever the recorder used).
inline void expect_highlights_match_events(const Trace& t, std::uint32_t row_stride, std::uint32_t col_stride) {
  const TraceIndex index(t);
  const ReplayTimeline tl(t.launch);
  const std::uint32_t T = tl.tile(), K = static_cast<std::uint32_t>(t.launch.k);
  const std::uint32_t M = static_cast<std::uint32_t>(t.launch.m), N = static_cast<std::uint32_t>(t.launch.n);
  for (std::uint32_t row = 0; row < M; row += row_stride) {
    for (std::uint32_t col = 0; col < N; col += col_stride) {
      for (std::uint32_t it = 0; it < tl.iterations(); ++it) {
        const std::uint32_t k0 = it * T;
        const auto h = highlight_cell(t, index, row, col, ReplayStep{it, Phase::Mac, 0});
        ASSERT_TRUE(h);
        EXPECT_TRUE(h->block_cells.contains(row, col));
        EXPECT_LE(h->thread_cells.size(), 4u);
        for (const ElementCoord& c : h->thread_cells) EXPECT_TRUE(h->block_cells.contains(c.row, c.col));
        EXPECT_TRUE(h->a_tile.contains(h->a_reads.row0, h->a_reads.col0));
        EXPECT_TRUE(h->a_tile.contains(h->a_reads.row1 - 1, h->a_reads.col1 - 1));
        EXPECT_TRUE(h->b_tile.contains(h->b_reads.row0, h->b_reads.col0));
        EXPECT_TRUE(h->b_tile.contains(h->b_reads.row1 - 1, h->b_reads.col1 - 1));
        for (const CopiedWord& w : h->copied) {
          if (!w.padding) {
            EXPECT_TRUE((w.global == BufferRole::A ? h->a_tile : h->b_tile).contains(w.element.row, w.element.col));
          }
        }
        if (!tl.staged()) {
          EXPECT_TRUE(h->as_reads.empty());
          continue;
        }
        ASSERT_EQ(h->as_reads.size(), T);
        ASSERT_EQ(h->bs_reads.size(), T);
        const auto tiles = shared_contents(t, h->coord.block_linear, it);
        ASSERT_EQ(tiles.size(), 2u);
        for (std::uint32_t k = 0; k < T; ++k) {
          const SharedWord& as = tiles[h->as_reads[k].region].words[h->as_reads[k].slot];
          const SharedWord& bs = tiles[h->bs_reads[k].region].words[h->bs_reads[k].slot];
          ASSERT_TRUE(as.written && bs.written);
          if (k0 + k < K) {
            ASSERT_FALSE(as.padding);
            ASSERT_FALSE(bs.padding);
            EXPECT_EQ(as.source.row, row);
            EXPECT_EQ(as.source.col, k0 + k);
            EXPECT_EQ(bs.source.row, k0 + k);
            EXPECT_EQ(bs.source.col, col);
          } else {
            EXPECT_TRUE(as.padding || bs.padding);
          }
        }
      }
      const auto last = highlight_cell(t, index, row, col, ReplayStep{tl.iterations(), Phase::Store, 0});
      ASSERT_TRUE(last);
      EXPECT_TRUE(last->partial_matches_stored) << row << "," << col;
      EXPECT_EQ(last->partial, t.c[std::size_t{row} * N + col]);
      EXPECT_EQ(last->partial_after_iteration.size(), tl.iterations());
    }
  }
}

}  // namespace ts::test
