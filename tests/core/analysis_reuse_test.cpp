// Loads per element, bytes against the minimum, arithmetic intensity and
// shared-memory reuse, against the kernels' closed forms.
#include <gtest/gtest.h>

#include "app/core/analysis/reuse.h"
#include "app/core/trace_index.h"
#include "kernels/catalog.h"
#include "tests/core/trace_test_support.h"

namespace ts {
namespace {

TEST(Reuse, NaiveLoadsEveryInputNTimesAtAQuarterFlopPerByte) {
  constexpr int n = 32;
  const ReuseStats r = analyze_reuse(test::small_trace(KernelKind::Naive, 8, n, n, n));
  EXPECT_EQ(r.a_min, static_cast<std::uint32_t>(n));
  EXPECT_EQ(r.a_max, static_cast<std::uint32_t>(n));
  EXPECT_EQ(r.b_max, static_cast<std::uint32_t>(n));
  EXPECT_EQ(r.global_bytes_loaded, 2ull * n * n * n * 4);
  EXPECT_EQ(r.min_bytes, 3ull * n * n * 4);
  EXPECT_EQ(r.flops, 2ull * n * n * n);
  EXPECT_DOUBLE_EQ(r.arithmetic_intensity, 0.25);  // seed 003: 2N FLOPs per 8N bytes
  EXPECT_DOUBLE_EQ(r.ideal_arithmetic_intensity, 2.0 * n / 12.0);
  EXPECT_EQ(r.staged_values, 0u);
}

TEST(Reuse, TiledDividesLoadsByTileAndReadsEachStagedValueTileTimes) {
  constexpr int n = 32;
  for (int tile : {2, 4, 8, 16, 32}) {
    SCOPED_TRACE("TILE " + std::to_string(tile));
    const ReuseStats r = analyze_reuse(test::small_trace(KernelKind::Tiled, tile, n, n, n));
    EXPECT_EQ(r.a_max, static_cast<std::uint32_t>(n / tile));
    EXPECT_EQ(r.b_min, static_cast<std::uint32_t>(n / tile));
    EXPECT_DOUBLE_EQ(r.arithmetic_intensity, tile / 4.0);  // seed 003: TILE / 4
    EXPECT_EQ(r.staged_values, 2ull * n * n * (n / tile));  // every block stages its tiles of A and B each iteration
    EXPECT_EQ(r.staged_reads_min, static_cast<std::uint32_t>(tile));
    EXPECT_EQ(r.staged_reads_max, static_cast<std::uint32_t>(tile));
    EXPECT_DOUBLE_EQ(r.staged_reads_mean(), tile);
  }
}

TEST(Reuse, CoarsenedHalvesTheLoadsAgain) {
  constexpr int n = 32, tile = 4;
  const ReuseStats r = analyze_reuse(test::small_trace(KernelKind::Coarsened, tile, n, n, n));
  EXPECT_EQ(r.a_max, static_cast<std::uint32_t>(n / (2 * tile)));
  EXPECT_DOUBLE_EQ(r.arithmetic_intensity, tile / 2.0);
  EXPECT_DOUBLE_EQ(r.staged_reads_mean(), tile);  // each value goes to a register and is used twice there
}

TEST(Reuse, RaggedSizesAgreeWithTheIndexAndTheCatalog) {
  const int m = 37, n = 45, k = 29, tile = 8;
  const Trace t = test::small_trace(KernelKind::Tiled, tile, m, n, k);
  const ReuseStats r = analyze_reuse(t);
  const TraceIndex index(t);
  for (std::uint32_t i = 0; i < t.a.size(); ++i) ASSERT_EQ(r.a_loads[i], index.load_count(BufferRole::A, i));
  for (std::uint32_t i = 0; i < t.b.size(); ++i) ASSERT_EQ(r.b_loads[i], index.load_count(BufferRole::B, i));
  const EventCounts c = expected_counts(KernelKind::Tiled, tile, m, n, k);
  EXPECT_EQ(r.global_loads, c.global_loads_a + c.global_loads_b);
  EXPECT_EQ(r.global_stores, c.global_stores_c);
  EXPECT_EQ(r.padding_values, c.shared_padding_stores);
  EXPECT_EQ(r.staged_values, c.shared_stores - c.shared_padding_stores);
  EXPECT_EQ(r.min_bytes, (std::uint64_t{m} * k + std::uint64_t{k} * n + std::uint64_t{m} * n) * 4);
  // Threads whose cell lies outside C still run the k-loop: every staged
  // value is read TILE times, even at the edges.
  EXPECT_EQ(r.staged_reads_min, static_cast<std::uint32_t>(tile));
  EXPECT_EQ(r.staged_reads_max, static_cast<std::uint32_t>(tile));
}

}  // namespace
}  // namespace ts
