// matrix_colors.cpp — layers of colour: idle (value-shaded), 'all blocks',
// then the selected cell's block, tiles, copies and reads on top.
#include "app/ui/matrix_colors.h"

#include <algorithm>
#include <cmath>

#include "app/ui/palette.h"

namespace ts::ui {
namespace {

using render::Rgba8;

void fill_rect(std::vector<Rgba8>& colors, std::uint32_t ld, const CellRect& r, Rgba8 color) {
  for (std::uint32_t row = r.row0; row < r.row1; ++row)
    for (std::uint32_t col = r.col0; col < r.col1; ++col) colors[std::size_t{row} * ld + col] = color;
}

void set_cell(std::vector<Rgba8>& colors, std::uint32_t ld, const ElementCoord& e, Rgba8 color) {
  const std::size_t i = std::size_t{e.row} * ld + e.col;
  if (i < colors.size()) colors[i] = color;
}

// How many blocks load each element in the iteration, as shades.
void shade_all_blocks(std::vector<Rgba8>& colors, std::uint32_t rows, std::uint32_t ld,
                      const std::vector<CellRect>& tiles) {
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

void compute_colors(const MatrixColorInput& in, MatrixColors& out) {
  const Trace& t = *in.trace;
  const bool by_value = in.mode == ColorMode::Value;
  out.a.assign(in.a_base.begin(), in.a_base.end());
  out.b.assign(in.b_base.begin(), in.b_base.end());
  paint_values(out.c, in.c_values, in.c_scale, by_value);
  if (by_value) return;

  const std::uint32_t lda = t.launch.arrays[0].ld, ldb = t.launch.arrays[1].ld, ldc = t.launch.arrays[2].ld;
  const bool loading = in.step.phase != Phase::Store;
  if (in.all_blocks && loading && in.index) {
    shade_all_blocks(out.a, t.launch.arrays[0].rows, lda, all_block_tiles(*in.index, in.step.iteration, ArrayId::A));
    shade_all_blocks(out.b, t.launch.arrays[1].rows, ldb, all_block_tiles(*in.index, in.step.iteration, ArrayId::B));
  }
  const CellHighlight* h = in.highlight;
  if (!h) return;

  // C: the block, the thread's other cells, the selected cell.
  fill_rect(out.c, ldc, h->block_cells, palette::kBlockCell);
  for (const ElementCoord& e : h->thread_cells) set_cell(out.c, ldc, e, palette::kThreadCell);
  set_cell(out.c, ldc, h->cell, palette::kSelectedCell);
  if (!loading) return;

  // A and B: the block's tiles this iteration.
  fill_rect(out.a, lda, h->a_tile, palette::kBlockTile);
  fill_rect(out.b, ldb, h->b_tile, palette::kBlockTile);
  const Phase p = in.step.phase;
  if (p == Phase::Load || p == Phase::Barrier) {
    // This thread's own slots of the cooperative load.
    for (const CopiedWord& w : h->copied) {
      if (w.padding) continue;
      set_cell(w.global == ArrayId::A ? out.a : out.b, w.global == ArrayId::A ? lda : ldb, w.element, palette::kCopied);
    }
    return;
  }
  // Multiply-accumulate: the row of A and column of B the cell consumes, the pair at k.
  fill_rect(out.a, lda, h->a_reads, palette::kReads);
  fill_rect(out.b, ldb, h->b_reads, palette::kReads);
  if (h->a_now) set_cell(out.a, lda, *h->a_now, palette::kNow);
  if (h->b_now) set_cell(out.b, ldb, *h->b_now, palette::kNow);
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
    ab_scale_ = ValueScale::of(t.a, t.b);
    c_scale_ = ValueScale::of(t.c);
  }
  if (key.trace != key_.trace || key.mode != key_.mode) {
    paint_values(a_base_, t.a, ab_scale_, key.mode == ColorMode::Value);
    paint_values(b_base_, t.b, ab_scale_, key.mode == ColorMode::Value);
  }
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
  if (c_final_) c_values_ = t.c;
  else c_values_ = partial_->after(c_terms_);

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
  compute_colors(in, colors_);
  return true;
}

}  // namespace ts::ui
