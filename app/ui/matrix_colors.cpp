// matrix_colors.cpp — layers of colour: idle (value-shaded), 'all blocks',
// then the selected cell's block, tiles, copies and reads on top.
#include "app/ui/matrix_colors.h"

#include <algorithm>
#include <cmath>

#include "app/ui/palette.h"

namespace ts::ui {
namespace {

using render::Rgba8;

using render::CellBox;

CellBox to_box(const CellRect& r) { return {r.row0, r.row1, r.col0, r.col1}; }

// Paints highlights into one matrix and keeps the box of what it painted.
struct Painter {
  std::vector<Rgba8>& colors;
  std::uint32_t ld;
  CellBox& box;
  void rect(const CellRect& r, Rgba8 color) {
    if (r.empty()) return;
    for (std::uint32_t row = r.row0; row < r.row1; ++row)
      std::fill_n(colors.begin() + static_cast<std::ptrdiff_t>(std::size_t{row} * ld + r.col0), r.col1 - r.col0, color);
    box = box.united(to_box(r));
  }
  void cell(const ElementCoord& e, Rgba8 color) {
    const std::size_t i = std::size_t{e.row} * ld + e.col;
    if (i >= colors.size()) return;
    colors[i] = color;
    box = box.united({e.row, e.row + 1, e.col, e.col + 1});
  }
};

// Copies the box of `from` into `to` (both ld wide).
template <class T>
void copy_box(std::vector<T>& to, const std::vector<T>& from, std::uint32_t ld, const CellBox& b) {
  if (b.empty()) return;
  for (std::uint32_t row = b.row0; row < b.row1; ++row) {
    const std::size_t at = std::size_t{row} * ld + b.col0;
    std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(at), b.col1 - b.col0, to.begin() + static_cast<std::ptrdiff_t>(at));
  }
}

// How many blocks load each element in the iteration, as shades.
void shade_all_blocks(std::vector<Rgba8>& colors, std::uint32_t rows, std::uint32_t ld,
                      const std::vector<CellRect>& tiles, CellBox& box) {
  for (const CellRect& t : tiles) box = box.united(to_box(t));
  std::vector<std::uint16_t> count(std::size_t{rows} * ld, 0);
  std::uint16_t most = 1;
  for (const CellRect& t : tiles)
    for (std::uint32_t r = t.row0; r < t.row1; ++r)
      for (std::uint32_t c = t.col0; c < t.col1; ++c) {
        std::uint16_t& n = count[std::size_t{r} * ld + c];
        if (n < 0xFFFF) ++n;
        most = std::max(most, n);
      }
  for (std::size_t i = 0; i < count.size(); ++i)
    if (count[i])
      colors[i] = palette::mix(palette::kAllBlocksFew, palette::kAllBlocksMany,
                               most > 1 ? float(count[i] - 1) / float(most - 1) : 1.0f);
}

// The cells of C whose partial sums change with the step: all of C, or for a
// focused trace the traced blocks' (the box around the cells they stored).
// c: C as drawn (dense row-major, M x N).
CellBox live_cells(const Trace& t, const DenseMatrix& c) {
  const LaunchInfo& L = t.launch;
  const auto rows = static_cast<std::uint32_t>(L.m), cols = static_cast<std::uint32_t>(L.n);
  if (!L.focused()) return {0, rows, 0, cols};
  CellBox box;
  for (std::uint32_t r = 0; r < c.rows(); ++r)
    for (std::uint32_t col = 0; col < c.cols(); ++col)
      if (std::isfinite(c.at(r, col))) box = box.united({r, r + 1, col, col + 1});
  return box;
}

void paint_values(std::vector<Rgba8>& out, std::span<const float> values, const ValueScale& s, bool by_value) {
  out.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = by_value ? value_color(values[i], s) : idle_color(values[i], s);
}

}  // namespace

ValueScale ValueScale::of(std::span<const float> values) { return of(values, {}); }

ValueScale ValueScale::of(std::span<const float> a, std::span<const float> b) {
  ValueScale s;
  float lo = 0, hi = 0;
  for (auto span : {a, b})
    for (float v : span)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  s.signed_values = lo < 0;
  s.max_abs = std::max({std::fabs(lo), std::fabs(hi), 1e-30f});
  return s;
}

Rgba8 value_color(float v, const ValueScale& s) {
  if (!std::isfinite(v)) return palette::kIdleDark;
  const float t = std::clamp(v / s.max_abs, -1.0f, 1.0f);
  if (!s.signed_values) return palette::mix(palette::kZero, palette::kPositive, std::max(0.0f, t));
  return t < 0 ? palette::mix(palette::kZero, palette::kNegative, -t) : palette::mix(palette::kZero, palette::kPositive, t);
}

Rgba8 idle_color(float v, const ValueScale& s) {
  if (!std::isfinite(v)) return palette::kIdleDark;
  return palette::mix(palette::kIdleDark, palette::kIdleLight, std::min(1.0f, std::fabs(v) / s.max_abs));
}

MatrixBoxes compute_colors(const MatrixColorInput& in, MatrixColors& out) {
  out.a.assign(in.a_base.begin(), in.a_base.end());
  out.b.assign(in.b_base.begin(), in.b_base.end());
  paint_values(out.c, in.c_values, in.c_scale, in.mode == ColorMode::Value);
  return paint_highlights(in, out);
}

MatrixBoxes paint_highlights(const MatrixColorInput& in, MatrixColors& out) {
  MatrixBoxes boxes;
  if (in.mode == ColorMode::Value) return boxes;
  const Trace& t = *in.trace;
  // The colours are dense row-major (DenseMatrix), whatever the layouts.
  const auto k = static_cast<std::uint32_t>(t.launch.k), n = static_cast<std::uint32_t>(t.launch.n);
  Painter a{out.a, k, boxes.a}, b{out.b, n, boxes.b}, c{out.c, n, boxes.c};
  const bool loading = in.step.phase != Phase::Store;
  if (in.all_blocks && loading && in.index) {
    const auto m = static_cast<std::uint32_t>(t.launch.m);
    shade_all_blocks(out.a, m, k, all_block_tiles(*in.index, in.step.iteration, BufferRole::A), boxes.a);
    shade_all_blocks(out.b, k, n, all_block_tiles(*in.index, in.step.iteration, BufferRole::B), boxes.b);
  }
  const CellHighlight* h = in.highlight;
  if (!h) return boxes;

  // C: the block, the thread's other cells, the selected cell.
  c.rect(h->block_cells, palette::kBlockCell);
  for (const ElementCoord& e : h->thread_cells) c.cell(e, palette::kThreadCell);
  c.cell(h->cell, palette::kSelectedCell);
  if (!loading) return boxes;

  // A and B: the block's tiles this iteration.
  a.rect(h->a_tile, palette::kBlockTile);
  b.rect(h->b_tile, palette::kBlockTile);
  const Phase p = in.step.phase;
  if (p == Phase::Load || p == Phase::Barrier) {
    // This thread's own slots of the cooperative load.
    for (const CopiedWord& w : h->copied)
      if (!w.padding && w.global == BufferRole::A) a.cell(w.element, palette::kCopied);
      else if (!w.padding && w.global == BufferRole::B) b.cell(w.element, palette::kCopied);
    return boxes;
  }
  // Multiply-accumulate. A thread with a register tile: its slab of each
  // tile, then the row of A and column of B the cell consumes, the values in
  // registers at k (the outer product's factors), the cell's pair at k.
  for (const ElementCoord& e : h->a_thread_reads) a.cell(e, palette::kThreadReads);
  for (const ElementCoord& e : h->b_thread_reads) b.cell(e, palette::kThreadReads);
  a.rect(h->a_reads, palette::kReads);
  b.rect(h->b_reads, palette::kReads);
  if (h->thread_cells.size() > 1)
    for (const RegisterRead& r : h->registers_now)
      if (!r.padding && r.global == BufferRole::A) a.cell(r.element, palette::kRegisters);
      else if (!r.padding && r.global == BufferRole::B) b.cell(r.element, palette::kRegisters);
  if (h->a_now) a.cell(*h->a_now, palette::kNow);
  if (h->b_now) b.cell(*h->b_now, palette::kNow);
  return boxes;
}

bool MatrixScene::update(AppState& app) {
  const LoadedTrace* lt = app.trace();
  if (!lt) return false;
  Key key{app.trace_generation(), app.highlight_generation(), app.replay.step, app.view.color_mode,
          app.replay.all_blocks};
  if (key == key_) return false;
  const Trace& t = lt->trace;
  if (key.trace != key_.trace) {
    partial_ = std::make_unique<PartialSums>(t);
    a_ = DenseMatrix(t, BufferRole::A);
    b_ = DenseMatrix(t, BufferRole::B);
    c_ = DenseMatrix(t, BufferRole::C);
    ab_scale_ = ValueScale::of(a_.values(), b_.values());
    c_scale_ = ValueScale::of(c_.values());
  }
  if (key.trace != key_.trace || key.mode != key_.mode) {
    paint_values(a_base_, a_.values(), ab_scale_, key.mode == ColorMode::Value);
    paint_values(b_base_, b_.values(), ab_scale_, key.mode == ColorMode::Value);
  }
  // Everything is repainted for a new trace or mode, and in 'all blocks'
  // mode (its shading spans the matrices); otherwise only what moved.
  const bool everything = key.trace != key_.trace || key.mode != key_.mode || key.all_blocks || key_.all_blocks;
  const bool step_moved = key.step != key_.step;
  if (key.trace != key_.trace) c_live_ = live_cells(t, c_);
  key_ = key;

  // C at this step: the partial sums of the k's done so far, then what the kernel stored.
  const ReplayStep s = app.step();
  const std::uint32_t T = app.timeline().tile(), K = static_cast<std::uint32_t>(t.launch.k);
  switch (s.phase) {
    case Phase::Load:
    case Phase::Barrier: c_terms_ = s.iteration * T; break;
    case Phase::Mac: c_terms_ = s.iteration * T + s.k + 1; break;
    case Phase::Sync: c_terms_ = (s.iteration + 1) * T; break;
    case Phase::Store: c_terms_ = K; break;
  }
  c_terms_ = std::min(c_terms_, K);
  c_final_ = s.phase == Phase::Store;
  if (c_final_) c_values_ = c_.values();
  else c_values_ = partial_->after(c_terms_);  // a view: copying all of C cost 3.5 ms a step at N = 4096

  MatrixColorInput in;
  in.trace = &t;
  in.index = lt->index.get();
  const std::optional<CellHighlight>& h = app.highlight();
  in.highlight = h ? &*h : nullptr;
  in.step = s;
  in.mode = app.view.color_mode;
  in.all_blocks = app.replay.all_blocks;
  in.a_base = a_base_;
  in.b_base = b_base_;
  in.c_values = c_values_;
  in.c_scale = c_scale_;
  everything_ = everything;
  if (everything) {
    painted_ = compute_colors(in, colors_);
    return true;
  }
  // Back to the plain colours where the last highlights were (and where C's sums moved), then the new highlights.
  const std::uint32_t lda = a_.cols(), ldb = b_.cols(), ldc = c_.cols();
  copy_box(colors_.a, a_base_, lda, painted_.a);
  copy_box(colors_.b, b_base_, ldb, painted_.b);
  const render::CellBox c_plain = step_moved ? painted_.c.united(c_live_) : painted_.c;
  const bool by_value = key.mode == ColorMode::Value;
  for (std::uint32_t row = c_plain.row0; row < c_plain.row1; ++row)
    for (std::uint32_t col = c_plain.col0; col < c_plain.col1; ++col) {
      const std::size_t i = std::size_t{row} * ldc + col;
      colors_.c[i] = by_value ? value_color(c_values_[i], c_scale_) : idle_color(c_values_[i], c_scale_);
    }
  const MatrixBoxes now = paint_highlights(in, colors_);
  changed_ = {painted_.a.united(now.a), painted_.b.united(now.b), c_plain.united(now.c)};
  painted_ = now;
  return true;
}

}  // namespace ts::ui
