// matrix_colors.h — the colour of every cell of A, B and C at one replay
// step: by replay state (the selected cell's block, thread, tiles, copies
// and reads; 'all blocks' tiles) or by value. Pure CPU work, recomputed only
// when the step, the selection or the options change; the grids upload the
// result as one texture per matrix.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "app/core/replay.h"
#include "app/render/renderer.h"
#include "app/ui/app_state.h"

namespace ts::ui {

struct ValueScale {
  float max_abs = 1.0f;
  bool signed_values = true;  // diverging colours; else 0 .. max
  static ValueScale of(std::span<const float> values);
  static ValueScale of(std::span<const float> a, std::span<const float> b);
};

render::Rgba8 value_color(float v, const ValueScale& s);
render::Rgba8 idle_color(float v, const ValueScale& s);

struct MatrixColorInput {
  const Trace* trace = nullptr;
  const TraceIndex* index = nullptr;
  const CellHighlight* highlight = nullptr;  // null: nothing selected
  ReplayStep step;
  ColorMode mode = ColorMode::ReplayState;
  bool all_blocks = false;
  // A and B coloured by value (or shaded, idle) before any highlight: they
  // change only with the trace and the mode, so they are computed once.
  std::span<const render::Rgba8> a_base, b_base;
  std::span<const float> c_values;  // what C holds at this step
  ValueScale c_scale;
};

struct MatrixColors {
  std::vector<render::Rgba8> a, b, c;
};

// The cells of each matrix a step's highlights cover (a bounding box each).
struct MatrixBoxes {
  render::CellBox a, b, c;
};

// Everything; returns where the highlights are.
MatrixBoxes compute_colors(const MatrixColorInput& in, MatrixColors& out);
// The highlights alone, over colours that hold the plain ones; returns where
// it painted.
MatrixBoxes paint_highlights(const MatrixColorInput& in, MatrixColors& out);

// The matrices panel's derived state: C's values at the step (partial sums
// until the store, then what the kernel stored) and the colours, cached
// against everything they depend on.
class MatrixScene {
 public:
  // Recomputes when needed; returns true when colours changed (upload them).
  bool update(AppState& app);
  const MatrixColors& colors() const { return colors_; }
  std::span<const float> c_values() const { return c_values_; }
  bool c_final() const { return c_final_; }  // C shows the stored values
  const DenseMatrix& a() const { return a_; }  // A and B as drawn (dense row-major)
  const DenseMatrix& b() const { return b_; }
  std::uint32_t c_terms() const { return c_terms_; }  // k's summed into C so far
  // What the last update() changed: everything (upload the whole matrices),
  // or only these boxes. At N = 4096 a step repaints, and the grids re-send,
  // only the old and new highlights and the traced blocks of C.
  bool changed_everything() const { return everything_; }
  const MatrixBoxes& changed() const { return changed_; }

 private:
  struct Key {
    std::uint64_t trace = ~0ull, highlight = ~0ull;
    std::uint32_t step = ~0u;
    ColorMode mode = ColorMode::ReplayState;
    bool all_blocks = false;
    friend bool operator==(const Key&, const Key&) = default;
  };
  Key key_;
  std::unique_ptr<PartialSums> partial_;
  // A, B and C as drawn: dense row-major, whatever their layouts in the trace.
  DenseMatrix a_, b_, c_;
  ValueScale ab_scale_, c_scale_;
  std::vector<render::Rgba8> a_base_, b_base_;  // see MatrixColorInput
  std::span<const float> c_values_;  // c_ or partial_'s sums, not a copy (64 MiB at N = 4096)
  bool c_final_ = false;
  std::uint32_t c_terms_ = 0;
  MatrixColors colors_;
  bool everything_ = true;
  MatrixBoxes changed_, painted_;  // painted_: the highlights now in colors_
  render::CellBox c_live_;         // the cells of C whose partial sums move with the step
};

}  // namespace ts::ui
