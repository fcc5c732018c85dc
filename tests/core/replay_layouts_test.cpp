// A, B and C of any layout (trace/memory.h): a column-major B, a padded
// leading dimension of A, a column-major C with a padded leading dimension
// "need nothing special downstream". Each case takes a trace recorded on the
// emulator, lays one operand out anew (its values moved, its events' indices
// rewritten to the new storage order, nothing else touched), and holds every
// view of the new trace to the original's: the index's tiles and writers, the
// replay's highlights at every step, the shared words' sources, the element
// tooltips, the partial sums, the reuse figures and the counts; and the new
// trace survives validation and a version 3 file.
#include <gtest/gtest.h>

#include <cstring>
#include <ostream>
#include <string>

#include "app/core/analysis/reuse.h"
#include "app/core/replay.h"
#include "app/core/stats.h"
#include "app/core/trace_index.h"
#include "kernels/catalog.h"
#include "tests/core/trace_file_test_support.h"
#include "tests/core/trace_test_support.h"

namespace ts {
namespace {

// The trace with one operand laid out anew.
Trace relayout(const Trace& t, BufferRole role, MatrixOrder order, std::uint32_t ld) {
  Trace u;
  u.launch = t.launch;
  const std::uint32_t id = t.launch.role_id(role);
  const Buffer before = t.launch.buffers.at(id);
  Buffer& after = u.launch.buffers.at(id);
  after.order = order;
  after.ld = ld;
  u.a = t.a;
  u.b = t.b;
  u.c = t.c;
  std::vector<float>& values = role == BufferRole::A ? u.a : role == BufferRole::B ? u.b : u.c;
  values.assign(after.elements(), -7.0f);  // the padding gap holds no element
  for (std::uint32_t r = 0; r < before.rows; ++r)
    for (std::uint32_t c = 0; c < before.cols; ++c)
      values[after.index_of(r, c)] = t.values(role)[before.index_of(r, c)];
  u.thread_offsets = t.thread_offsets;
  u.block_timing = t.block_timing;
  u.lines = t.lines;
  u.events = EventBuffer(t.events.size());
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    Event e = t.events[i];
    if (e.array == id) {
      const MatrixCoord at = before.coord(e.index);
      e.index = static_cast<std::uint32_t>(after.index_of(at.row, at.col));
    }
    u.events[i] = e;
  }
  return u;
}

void expect_same_index(const Trace& t, const Trace& u) {
  const TraceIndex it(t), iu(u);
  for (std::uint32_t b = 0; b < t.launch.grid.count(); ++b)
    for (std::uint32_t s = 0; s < it.steps(); ++s)
      for (BufferRole r : {BufferRole::A, BufferRole::B}) {
        const TileBox x = it.block_loads(b, s, r), y = iu.block_loads(b, s, r);
        ASSERT_EQ(std::tie(x.row0, x.row1, x.col0, x.col1, x.loads), std::tie(y.row0, y.row1, y.col0, y.col1, y.loads));
      }
  for (std::uint32_t row = 0; row < static_cast<std::uint32_t>(t.launch.m); ++row)
    for (std::uint32_t col = 0; col < static_cast<std::uint32_t>(t.launch.n); ++col) {
      const auto x = it.c_writer(row, col), y = iu.c_writer(row, col);
      ASSERT_EQ(x.has_value(), y.has_value());
      if (x) ASSERT_EQ(std::tie(x->thread, x->event), std::tie(y->thread, y->event));
    }
  for (BufferRole r : {BufferRole::A, BufferRole::B}) {
    EXPECT_EQ(it.min_loads(r), iu.min_loads(r));
    EXPECT_EQ(it.max_loads(r), iu.max_loads(r));
  }
}

void expect_same_highlights(const Trace& t, const Trace& u) {
  const TraceIndex it(t), iu(u);
  const ReplayTimeline tl(t.launch);
  for (std::uint32_t step = 0; step < tl.step_count(); step += 3)
    for (std::uint32_t row = 0; row < static_cast<std::uint32_t>(t.launch.m); row += 5)
      for (std::uint32_t col = 0; col < static_cast<std::uint32_t>(t.launch.n); col += 3) {
        SCOPED_TRACE("step " + std::to_string(step) + " cell " + std::to_string(row) + "," + std::to_string(col));
        const auto x = highlight_cell(t, it, row, col, tl.at(step));
        const auto y = highlight_cell(u, iu, row, col, tl.at(step));
        ASSERT_EQ(x.has_value(), y.has_value());
        if (!x) continue;
        EXPECT_EQ(x->thread, y->thread);
        EXPECT_EQ(x->thread_cells, y->thread_cells);
        EXPECT_EQ(x->block_cells, y->block_cells);
        EXPECT_EQ(x->a_tile, y->a_tile);
        EXPECT_EQ(x->b_tile, y->b_tile);
        ASSERT_EQ(x->copied.size(), y->copied.size());
        for (std::size_t i = 0; i < x->copied.size(); ++i) {
          EXPECT_EQ(x->copied[i].global, y->copied[i].global);
          EXPECT_EQ(x->copied[i].element, y->copied[i].element);
          EXPECT_EQ(x->copied[i].slot, y->copied[i].slot);
        }
        EXPECT_EQ(x->as_reads, y->as_reads);
        EXPECT_EQ(x->bs_reads, y->bs_reads);
        EXPECT_EQ(x->a_thread_reads, y->a_thread_reads);
        EXPECT_EQ(x->b_thread_reads, y->b_thread_reads);
        EXPECT_EQ(x->stored, y->stored);
        EXPECT_EQ(x->partial, y->partial);
        EXPECT_EQ(x->partial_after_iteration, y->partial_after_iteration);
        EXPECT_TRUE(y->partial_matches_stored);
      }
}

void expect_same_shared_words(const Trace& t, const Trace& u) {
  const ReplayTimeline tl(t.launch);
  for (std::uint32_t b = 0; b < t.launch.grid.count(); ++b)
    for (std::uint32_t it = 0; it < tl.iterations(); ++it) {
      const auto x = shared_contents(t, b, it), y = shared_contents(u, b, it);
      ASSERT_EQ(x.size(), y.size());
      for (std::size_t r = 0; r < x.size(); ++r) {
        EXPECT_EQ(x[r].role, y[r].role);
        ASSERT_EQ(x[r].words.size(), y[r].words.size());
        for (std::size_t w = 0; w < x[r].words.size(); ++w) {
          ASSERT_EQ(x[r].words[w].source, y[r].words[w].source) << "block " << b << " iteration " << it << " word " << w;
          ASSERT_EQ(x[r].words[w].source_role, y[r].words[w].source_role);
          ASSERT_EQ(x[r].words[w].value, y[r].words[w].value);
        }
      }
    }
}

void expect_same_elements_and_sums(const Trace& t, const Trace& u) {
  const TraceIndex it(t), iu(u);
  const auto dims = [&](BufferRole r) { return *t.launch.buffer_with_role(r); };
  for (BufferRole r : {BufferRole::A, BufferRole::B, BufferRole::C})
    for (std::uint32_t row = 0; row < dims(r).rows; ++row)
      for (std::uint32_t col = 0; col < dims(r).cols; ++col) {
        const auto x = describe_element(t, it, r, row, col, 1), y = describe_element(u, iu, r, row, col, 1);
        ASSERT_TRUE(x && y);
        ASSERT_EQ(x->value, y->value);
        ASSERT_EQ(x->loads_total, y->loads_total);
        ASSERT_EQ(x->loads_this_iteration, y->loads_this_iteration);
      }
  PartialSums px(t), py(u);
  for (std::uint32_t k : {0u, 3u, 7u, static_cast<std::uint32_t>(t.launch.k)}) ASSERT_EQ(px.after(k), py.after(k)) << k;
  const ReuseStats rx = analyze_reuse(t), ry = analyze_reuse(u);
  EXPECT_EQ(std::tie(rx.a_min, rx.a_max, rx.b_min, rx.b_max), std::tie(ry.a_min, ry.a_max, ry.b_min, ry.b_max));
  EXPECT_EQ(rx.global_loads, ry.global_loads);
  EXPECT_EQ(rx.staged_values, ry.staged_values);
  const TraceCounts cx = count_events(t, it), cy = count_events(u, iu);
  for (std::uint32_t id = 0; id < t.launch.memory_count(); ++id) EXPECT_EQ(cx.by_array[id], cy.by_array[id]) << id;
  EXPECT_EQ(std::tie(cx.a_loads_min, cx.a_loads_max, cx.b_loads_min, cx.b_loads_max),
            std::tie(cy.a_loads_min, cy.a_loads_max, cy.b_loads_min, cy.b_loads_max));
}

struct LayoutCase {
  const char* name;
  BufferRole role;
  MatrixOrder order;
  std::uint32_t extra_ld;  // over the inner extent
};

void PrintTo(const LayoutCase& c, std::ostream* os) { *os << c.name; }

class Layouts : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(Layouts, EveryViewReadsTheOperandThroughItsLayout) {
  const LayoutCase& c = GetParam();
  // Ragged sizes (a padded edge tile), a register-tiled kernel and the plain one.
  for (const auto& [kind, tile] : {std::pair{KernelKind::Tiled, 4}, std::pair{KernelKind::Coarsened, 4}}) {
    SCOPED_TRACE(std::string(kernel_info(kind).name));
    const Trace t = test::record_on(DeviceChoice::Cpu, kind, tile, 13, 11, 10);
    const Buffer& b = *t.launch.buffer_with_role(c.role);
    const std::uint32_t inner = c.order == MatrixOrder::RowMajor ? b.cols : b.rows;
    const Trace u = relayout(t, c.role, c.order, inner + c.extra_ld);
    // Through a version 3 file: validation accepts it and the layout survives.
    const Trace v = load_trace_from_memory(test::saved_bytes(u));
    ASSERT_EQ(v.launch.buffers, u.launch.buffers);
    expect_same_index(t, v);
    expect_same_highlights(t, v);
    expect_same_shared_words(t, v);
    expect_same_elements_and_sums(t, v);
  }
}

INSTANTIATE_TEST_SUITE_P(Operands, Layouts,
                         ::testing::Values(LayoutCase{"BColumnMajor", BufferRole::B, MatrixOrder::ColMajor, 0},
                                           LayoutCase{"APaddedLd", BufferRole::A, MatrixOrder::RowMajor, 3},
                                           LayoutCase{"CColumnMajorPadded", BufferRole::C, MatrixOrder::ColMajor, 2},
                                           LayoutCase{"AColumnMajorPadded", BufferRole::A, MatrixOrder::ColMajor, 5}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace ts
