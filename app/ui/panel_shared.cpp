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

  // One grid per buffer: a pipeline's As and Bs hold `stages` k-tiles each,
  // one read in this iteration, the next ones filling.
  struct Part {
    std::size_t tile = 0;
    std::uint32_t stage = 0, row0 = 0;  // first row of the buffer in its array
  };
  static constexpr std::size_t kMaxGrids = 8;

  void refresh(AppState& app, const LoadedTrace& lt, const CellHighlight& h, std::uint32_t iteration) {
    const std::uint64_t gen = app.highlight_generation();
    if (gen == seen_highlight_ && by_bank_ == seen_by_bank_) return;
    seen_highlight_ = gen;
    seen_by_bank_ = by_bank_;
    tiles_ = shared_contents(lt.trace, h.coord.block_linear, iteration);
    grids_.clear();
    rects_.clear();
    parts_.clear();
    const Phase phase = h.step.phase;
    const bool reading = phase == Phase::Mac || phase == Phase::Sync;
    float x = 0;
    for (std::size_t i = 0; i < tiles_.size() && i < 2; ++i) {
      SharedTileContents& tile = tiles_[i];
      if (tile.stages * 2 > kMaxGrids) tile.stages = 1;  // one grid for the whole array
      const std::uint32_t rows = tile.rows / tile.stages;
      std::vector<render::Rgba8> colors(tile.words.size());
      for (std::size_t w = 0; w < tile.words.size(); ++w) {
        const SharedWord& word = tile.words[w];
        colors[w] = by_bank_ ? bank_color(word.bank) : idle_color(word.value, ValueScale{4.0f, true});
        if (!word.written) colors[w] = palette::kIdleDark;
        if (!by_bank_ && reading && word.in_flight) colors[w] = palette::kInFlight;
      }
      if (!by_bank_) paint_thread(h, tile, reading, colors);
      float y = 0;
      for (std::uint32_t stage = 0; stage < tile.stages; ++stage) {
        const std::size_t g = grids_.size();
        const std::uint32_t row0 = stage * rows;
        const auto from = colors.begin() + static_cast<std::ptrdiff_t>(std::size_t{row0} * tile.cols);
        textures_[g].upload(rows, tile.cols, std::span<const render::Rgba8>(&*from, std::size_t{rows} * tile.cols));
        Grid grid;
        grid.colors = &textures_[g];
        grid.x = x;
        grid.y = y;
        grid.rows = rows;
        grid.cols = tile.cols;
        grid.tile_rows = rows;
        grid.tile_cols = tile.cols;
        grid.label = buffer_label(tile, stage, iteration, app.timeline().iterations(), reading);
        grids_.push_back(grid);
        parts_.push_back({i, stage, row0});
        y += static_cast<float>(rows) + std::max({2.0f, rows * 0.25f, tile.cols * 0.12f});  // room for the next label
      }
      brackets(h, tile, i);
      x += static_cast<float>(tile.cols) + std::max(1.5f, tile.cols * 0.15f);
    }
  }

  // "As", or for a pipeline "As buffer 1: k-tile 3, read now".
  static std::string buffer_label(const SharedTileContents& tile, std::uint32_t stage, std::uint32_t iteration,
                                  std::uint32_t iterations, bool reading) {
    std::string label = array_name(tile.id);
    if (tile.stages == 1) return label;
    label += " buffer " + std::to_string(stage);
    const std::uint32_t next = iteration + 1 + (stage + tile.stages - iteration % tile.stages - 1) % tile.stages;
    if (tile.stage_read[stage]) label += ": k-tile " + std::to_string(iteration) + ", read now";
    else if (reading && tile.stage_filling[stage] && next < iterations)
      label += ": cp.async filling k-tile " + std::to_string(next);
    else if (tile.stage_filling[stage] && next < iterations)
      label += ": k-tile " + std::to_string(next) + " next";
    return label;
  }

  // The selected thread's part: its copies (load phase); at k the cell's
  // pair, and every value its thread reads into registers.
  static void paint_thread(const CellHighlight& h, const SharedTileContents& tile, bool reading,
                           std::vector<render::Rgba8>& colors) {
    auto paint = [&](std::uint32_t slot, render::Rgba8 c) {
      if (slot < colors.size()) colors[slot] = c;
    };
    if (h.step.phase == Phase::Load || h.step.phase == Phase::Barrier)
      for (const CopiedWord& c : h.copied)
        if (c.shared == tile.id) paint(c.slot, palette::kCopied);
    if (!reading) return;
    for (std::uint32_t slot : tile.id == ArrayId::As ? h.as_reads : h.bs_reads) paint(slot, palette::kReads);
    for (const RegisterRead& r : h.registers_now)
      if (r.shared == tile.id) paint(r.slot, palette::kRegisters);
    const std::optional<std::uint32_t>& now = tile.id == ArrayId::As ? h.as_now : h.bs_now;
    if (now) paint(*now, palette::kNow);
  }

  // Outlines: the cell's slot at k, and each of the thread's register reads
  // at k as one access (a float4 read: one bracket over 4 words).
  void brackets(const CellHighlight& h, const SharedTileContents& tile, std::size_t tile_index) {
    auto outline = [&](std::uint32_t first, std::uint32_t last, render::Rgba8 color, float width) {
      const std::uint32_t rows = tile.rows / tile.stages, row = first / tile.cols, stage = row / rows;
      if (last / tile.cols != row || stage >= tile.stages) return;  // one row of one buffer
      const Grid* g = grid_of(tile_index, stage);
      if (!g) return;
      const float r = g->y + static_cast<float>(row - stage * rows);
      rects_.push_back({g->x + first % tile.cols, r, g->x + last % tile.cols + 1, r + 1, color, width, false});
    };
    if (h.step.phase == Phase::Mac) {
      for (std::size_t i = 0; i < h.registers_now.size();) {
        const RegisterRead& r = h.registers_now[i];
        std::size_t j = i + 1;
        while (j < h.registers_now.size() && !h.registers_now[j].access_start && !h.registers_now[j].fragment &&
               h.registers_now[j].slot == h.registers_now[j - 1].slot + 1)
          ++j;
        if (r.shared == tile.id && j - i > 1)
          outline(r.slot, h.registers_now[j - 1].slot, render::Rgba8{palette::kRegisters.r, palette::kRegisters.g,
                                                                     palette::kRegisters.b, 255}, 2.0f);
        i = j;
      }
    }
    const std::optional<std::uint32_t>& now = tile.id == ArrayId::As ? h.as_now : h.bs_now;
    if (now) outline(*now, *now, palette::kSelectionOutline, 2.0f);
  }

  const Grid* grid_of(std::size_t tile, std::uint32_t stage) const {
    for (std::size_t g = 0; g < parts_.size(); ++g)
      if (parts_[g].tile == tile && parts_[g].stage == stage) return &grids_[g];
    return nullptr;
  }

  const SharedWord* word_at(int grid, std::uint32_t row, std::uint32_t col) const {
    if (grid < 0 || static_cast<std::size_t>(grid) >= parts_.size()) return nullptr;
    const Part& p = parts_[static_cast<std::size_t>(grid)];
    const SharedTileContents& tile = tiles_[p.tile];
    const std::size_t i = std::size_t{p.row0 + row} * tile.cols + col;
    return i < tile.words.size() ? &tile.words[i] : nullptr;
  }

  static std::string cell_text(const void* self, int grid, std::uint32_t row, std::uint32_t col) {
    const auto* p = static_cast<const PanelShared*>(self);
    const SharedWord* w = p->word_at(grid, row, col);
    if (!w || !w->written) return {};
    // Value over bank when the cell has room for two lines; else the one the colours show.
    char buf[48];
    if (p->two_lines_) std::snprintf(buf, sizeof buf, "%g\nb%u", w->value, w->bank);
    else if (p->by_bank_) std::snprintf(buf, sizeof buf, "b%u", w->bank);
    else std::snprintf(buf, sizeof buf, "%g", w->value);
    return buf;
  }

  void tooltip(const GridCanvas::Hit& hit) {
    const SharedWord* w = word_at(hit.grid, hit.row, hit.col);
    if (!w) return;
    const Part& p = parts_[static_cast<std::size_t>(hit.grid)];
    const SharedTileContents& tile = tiles_[p.tile];
    const std::uint32_t row = p.row0 + hit.row, slot = row * tile.cols + hit.col;
    const char* global = tile.id == ArrayId::As ? "A" : "B";
    ImGui::BeginTooltip();
    ImGui::Text("%s[%u][%u]  (word %u, bank %u)", array_name(tile.id), row, hit.col, slot, w->bank);
    if (!w->written) ImGui::TextUnformatted("not written before this iteration's reads (padding column)");
    else if (w->padding) ImGui::Text("0: the slot lies outside the matrices (written by thread %u)", w->writer);
    else
      ImGui::Text("%g, copied from %s[%u][%u] by thread %u of the block%s", w->value, global, w->source.row,
                  w->source.col, w->writer, w->async ? " (cp.async)" : "");
    if (w->written && !w->read) ImGui::TextDisabled("not read in this iteration");
    if (w->in_flight) {
      if (w->in_flight_padding) ImGui::TextUnformatted("cp.async in flight: a zero (outside the matrices)");
      else
        ImGui::Text("cp.async in flight: %s[%u][%u] = %g, visible after the wait and the barrier", global,
                    w->in_flight_source.row, w->in_flight_source.col, w->in_flight_value);
    }
    ImGui::EndTooltip();
  }

  bool by_bank_ = false, seen_by_bank_ = false;
  bool two_lines_ = false;  // cells tall enough for the value and the bank
  std::uint64_t seen_highlight_ = ~0ull;
  std::vector<SharedTileContents> tiles_;
  render::GridTexture textures_[kMaxGrids];
  std::vector<Grid> grids_;
  std::vector<Part> parts_;
  std::vector<render::RectDraw> rects_;
  GridCanvas canvas_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(shared, ts::ui::PanelShared)
