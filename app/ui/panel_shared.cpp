// panel_shared.cpp — As and Bs of the selected block at the current step:
// each word's value and bank, what the selected cell reads, and (hover) where
// a word came from and which thread stored it.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/core/display_text.h"
#include "app/ui/app_state.h"
#include "app/ui/grid_canvas.h"
#include "app/ui/matrix_colors.h"
#include "app/ui/palette.h"
#include "app/ui/panel_registry.h"

namespace ts::ui {
namespace {

// 32 banks as 32 hues, dim enough for white text.
render::Rgba8 bank_color(std::uint32_t bank) {
  const float h = static_cast<float>(bank % kSharedBanks) / kSharedBanks * 6.0f;
  const float x = 1.0f - std::fabs(std::fmod(h, 2.0f) - 1.0f);
  float r = 0, g = 0, b = 0;
  switch (static_cast<int>(h)) {
    case 0: r = 1, g = x; break;
    case 1: r = x, g = 1; break;
    case 2: g = 1, b = x; break;
    case 3: g = x, b = 1; break;
    case 4: r = x, b = 1; break;
    default: r = 1, b = x; break;
  }
  auto c = [](float v) { return static_cast<std::uint8_t>(40 + v * 110); };
  return {c(r), c(g), c(b), 255};
}

struct PanelShared : Panel {
  PanelShared() : Panel("Shared memory", {PanelSlot::Right, 1.0f, true}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this, ImGuiWindowFlags_NoScrollbar);
    if (!window) return;
    const LoadedTrace* lt = app.trace();
    const std::optional<CellHighlight>& h = app.highlight();
    if (!lt || !h) {
      ImGui::TextWrapped("The selected block's shared tiles (As, Bs) appear here: click a cell of C.");
      return;
    }
    if (lt->trace.launch.iteration_rule.barriers_per_iteration == 0) {
      ImGui::TextWrapped("%s reads A and B straight from global memory: no shared memory.", elided(lt->trace.launch.kernel, kShownKernel).c_str());
      return;
    }
    ImGui::Checkbox("colour by bank", &by_bank_);
    ImGui::SameLine();
    const ReplayStep s = h->step;
    const std::uint32_t iteration = s.phase == Phase::Store ? app.timeline().iterations() - 1 : s.iteration;
    ImGui::TextDisabled(s.phase == Phase::Load ? "iteration %u, being written" : "iteration %u", iteration);
    refresh(app, *lt, *h, iteration);

    const GridCanvas::Result r =
        canvas_.draw("##shared", app.renderer, grids_, rects_, app.trace_generation() + app.view.fit_requests * 7919ull);
    two_lines_ = canvas_.scale() >= ImGui::GetFontSize() * 2.6f;
    canvas_.draw_cell_text(grids_, &PanelShared::cell_text, this, ImGui::GetFontSize() * 1.8f);
    if (r.hover) tooltip(*r.hover);
  }

 private:
  using Grid = GridCanvas::Grid;

  void refresh(AppState& app, const LoadedTrace& lt, const CellHighlight& h, std::uint32_t iteration) {
    const std::uint64_t gen = app.highlight_generation();
    if (gen == seen_highlight_ && by_bank_ == seen_by_bank_) return;
    seen_highlight_ = gen;
    seen_by_bank_ = by_bank_;
    tiles_ = shared_contents(lt.trace, h.coord.block_linear, iteration);
    grids_.clear();
    rects_.clear();
    float x = 0;
    for (std::size_t i = 0; i < tiles_.size() && i < 2; ++i) {
      const SharedTileContents& tile = tiles_[i];
      const bool reading = h.step.phase == Phase::Mac || h.step.phase == Phase::Sync;
      const std::vector<std::uint32_t>& reads = tile.id == ArrayId::As ? h.as_reads : h.bs_reads;
      const std::optional<std::uint32_t>& now = tile.id == ArrayId::As ? h.as_now : h.bs_now;
      colors_[i].resize(tile.words.size());
      for (std::size_t w = 0; w < tile.words.size(); ++w) {
        const SharedWord& word = tile.words[w];
        colors_[i][w] = by_bank_ ? bank_color(word.bank) : idle_color(word.value, ValueScale{4.0f, true});
        if (!word.written) colors_[i][w] = palette::kIdleDark;
      }
      if (!by_bank_) {
        if (reading)
          for (std::uint32_t slot : reads) colors_[i][slot] = palette::kReads;
        if (now) colors_[i][*now] = palette::kNow;
        if (h.step.phase == Phase::Load || h.step.phase == Phase::Barrier)
          for (const CopiedWord& c : h.copied)
            if (c.shared == tile.id) colors_[i][c.slot] = palette::kCopied;
      }
      textures_[i].upload(tile.rows, tile.cols, colors_[i]);
      Grid g;
      g.colors = &textures_[i];
      g.x = x;
      g.y = 0;
      g.rows = tile.rows;
      g.cols = tile.cols;
      g.tile_rows = tile.rows;
      g.tile_cols = tile.cols;
      char label[64];
      std::snprintf(label, sizeof label, "%s", array_name(tile.id));
      g.label = label;
      grids_.push_back(g);
      if (now) rects_.push_back({g.x + *now % tile.cols, g.y + *now / tile.cols, g.x + *now % tile.cols + 1,
                                 g.y + *now / tile.cols + 1, palette::kSelectionOutline, 2.0f, false});
      x += static_cast<float>(tile.cols) + std::max(1.5f, tile.cols * 0.15f);
    }
  }

  static std::string cell_text(const void* self, int grid, std::uint32_t row, std::uint32_t col) {
    const auto* p = static_cast<const PanelShared*>(self);
    const SharedTileContents& tile = p->tiles_[grid];
    const SharedWord& w = tile.words[std::size_t{row} * tile.cols + col];
    if (!w.written) return {};
    // Value over bank when the cell has room for two lines; else the one the colours show.
    char buf[48];
    if (p->two_lines_) std::snprintf(buf, sizeof buf, "%g\nb%u", w.value, w.bank);
    else if (p->by_bank_) std::snprintf(buf, sizeof buf, "b%u", w.bank);
    else std::snprintf(buf, sizeof buf, "%g", w.value);
    return buf;
  }

  void tooltip(const GridCanvas::Hit& hit) {
    const SharedTileContents& tile = tiles_[hit.grid];
    const std::uint32_t slot = hit.row * tile.cols + hit.col;
    const SharedWord& w = tile.words[slot];
    ImGui::BeginTooltip();
    ImGui::Text("%s[%u][%u]  (word %u, bank %u)", array_name(tile.id), hit.row, hit.col, slot, w.bank);
    if (!w.written) ImGui::TextUnformatted("not written in this iteration (padding column)");
    else if (w.padding) ImGui::Text("0: the slot lies outside the matrices (written by thread %u)", w.writer);
    else
      ImGui::Text("%g, copied from %s[%u][%u] by thread %u of the block", w.value,
                  tile.id == ArrayId::As ? "A" : "B", w.source.row, w.source.col, w.writer);
    ImGui::EndTooltip();
  }

  bool by_bank_ = false, seen_by_bank_ = false;
  bool two_lines_ = false;  // cells tall enough for the value and the bank
  std::uint64_t seen_highlight_ = ~0ull;
  std::vector<SharedTileContents> tiles_;
  std::vector<render::Rgba8> colors_[2];
  render::GridTexture textures_[2];
  std::vector<Grid> grids_;
  std::vector<render::RectDraw> rects_;
  GridCanvas canvas_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(shared, ts::ui::PanelShared)
