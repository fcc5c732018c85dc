// panel_memory_reuse.cpp — reuse drawn on the matrices: how many times each
// element of A and of B was loaded from global memory over the launch (a
// heatmap), the bytes that adds up to against the minimum, the arithmetic
// intensity, and how often each value staged in shared memory was read.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/core/analysis/reuse.h"
#include "app/ui/app_state.h"
#include "app/ui/grid_canvas.h"
#include "app/ui/memory_widgets.h"
#include "app/ui/panel_registry.h"

namespace ts::ui {
namespace {

struct PanelMemoryReuse : Panel {
  PanelMemoryReuse() : Panel("Reuse", {PanelSlot::Float, 1.0f, false}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this, ImGuiWindowFlags_NoScrollbar);
    if (!window) return;
    const std::shared_ptr<const LoadedTrace> lt = app.trace_shared();
    if (!lt) {
      ImGui::TextWrapped("Record or open a trace: how often each element of A and B is fetched appears here.");
      return;
    }
    reuse_.request(app.trace_generation(), [lt] { return analyze_reuse(lt->trace); });
    const ReuseStats* r = reuse_.get();
    if (!r) {
      ImGui::TextDisabled(reuse_.error().empty() ? "counting the loads of every element..." : reuse_.error().c_str());
      return;
    }
    summary(*r);
    if (!app.renderer) {  // the heatmap is a GL texture
      ImGui::TextDisabled("the grid renderer is unavailable: no heatmap");
      return;
    }
    if (uploaded_ != app.trace_generation()) upload(lt->trace, *r, app.trace_generation());
    const GridCanvas::Result hit =
        canvas_.draw("##reuse", app.renderer, grids_, {}, app.trace_generation() + app.view.fit_requests * 7919ull);
    canvas_.draw_cell_text(grids_, &PanelMemoryReuse::cell_text, this, app.view.presentation ? 40.0f : 26.0f);
    if (hit.hover) tooltip(*hit.hover);
  }

 private:
  void summary(const ReuseStats& r) {
    const double times = r.min_bytes ? static_cast<double>(r.global_bytes_loaded + r.global_bytes_stored) / r.min_bytes : 0;
    ImGui::TextWrapped("Global loads per element: A %u..%u, B %u..%u. The threads load %.3g MB from global memory "
                       "and store %.3g MB: %.1fx the minimum of %.3g MB (each input read once, C written once).",
                       r.a_min, r.a_max, r.b_min, r.b_max, r.global_bytes_loaded / 1e6, r.global_bytes_stored / 1e6,
                       times, r.min_bytes / 1e6);
    ImGui::TextWrapped("Arithmetic intensity: %.3g FLOP per byte loaded (%.3g with each input read once).",
                       r.arithmetic_intensity, r.ideal_arithmetic_intensity);
    if (r.staged_values)
      ImGui::TextWrapped("Shared memory: %llu values staged, each read %.3g times on average (%u..%u) before its "
                         "slot was overwritten; %llu zeros padded slots outside the matrices.",
                         static_cast<unsigned long long>(r.staged_values), r.staged_reads_mean(), r.staged_reads_min,
                         r.staged_reads_max, static_cast<unsigned long long>(r.padding_values));
    else
      ImGui::TextDisabled("No shared memory: every multiply reads global memory.");
  }

  void upload(const Trace& t, const ReuseStats& r, std::uint64_t generation) {
    uploaded_ = generation;
    grids_.clear();
    layouts_[0] = t.launch.buffer_with_role(BufferRole::A) ? *t.launch.buffer_with_role(BufferRole::A) : Buffer{};
    layouts_[1] = t.launch.buffer_with_role(BufferRole::B) ? *t.launch.buffer_with_role(BufferRole::B) : Buffer{};
    // One colour scale for both matrices, so that A and B compare.
    const std::uint32_t lo = std::min(r.a_min, r.b_min), hi = std::max(r.a_max, r.b_max);
    auto color = [&](std::uint32_t v) {
      return heat_color(hi > lo ? static_cast<float>(v - lo) / static_cast<float>(hi - lo) : 0.5f);
    };
    float x = 0;
    const struct {
      const std::vector<std::uint32_t>* loads;
      const char* name;
    } mats[] = {{&r.a_loads, "A"}, {&r.b_loads, "B"}};
    loads_[0] = &r.a_loads;
    loads_[1] = &r.b_loads;
    for (int i = 0; i < 2; ++i) {
      const Buffer& l = layouts_[i];
      colors_[i].resize(std::size_t{l.rows} * l.cols);
      for (std::uint32_t row = 0; row < l.rows; ++row)
        for (std::uint32_t col = 0; col < l.cols; ++col)
          colors_[i][std::size_t{row} * l.cols + col] = color(loads_at(i, row, col));
      textures_[i].upload(l.rows, l.cols, colors_[i]);
      GridCanvas::Grid g;
      g.colors = &textures_[i];
      g.x = x;
      g.rows = l.rows;
      g.cols = l.cols;
      g.tile_rows = g.tile_cols = static_cast<std::uint32_t>(std::max(1, t.launch.tile));
      g.label = std::string(mats[i].name) + ": global loads per element";
      grids_.push_back(g);
      x += static_cast<float>(l.cols) + std::max(2.0f, 0.1f * static_cast<float>(l.cols));
    }
  }

  // Loads of element (row, col) of A (grid 0) or B (1), through its layout.
  std::uint32_t loads_at(int grid, std::uint32_t row, std::uint32_t col) const {
    const std::uint64_t i = layouts_[grid].index_of(row, col);
    return i < loads_[grid]->size() ? (*loads_[grid])[i] : 0;
  }

  static std::string cell_text(const void* self, int grid, std::uint32_t row, std::uint32_t col) {
    const auto* p = static_cast<const PanelMemoryReuse*>(self);
    return std::to_string(p->loads_at(grid, row, col));
  }

  void tooltip(const GridCanvas::Hit& hit) {
    const std::uint32_t n = loads_at(hit.grid, hit.row, hit.col);
    ImGui::BeginTooltip();
    ImGui::Text("%s[%u][%u]: loaded %u times from global memory (%u bytes)", hit.grid == 0 ? "A" : "B", hit.row,
                hit.col, n, n * 4);
    ImGui::EndTooltip();
  }

  BackgroundValue<ReuseStats> reuse_;
  std::uint64_t uploaded_ = ~0ull;
  std::vector<render::Rgba8> colors_[2];
  render::GridTexture textures_[2];
  std::vector<GridCanvas::Grid> grids_;
  Buffer layouts_[2];  // of A and B: their loads are in storage order
  const std::vector<std::uint32_t>* loads_[2] = {nullptr, nullptr};
  GridCanvas canvas_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(memory_reuse, ts::ui::PanelMemoryReuse)
