// panel_shared.cpp — the shared regions of the selected block at the current
// step (As and Bs, or whatever the kernel names its own: sa, sb, a staged
// tile of C; an unnamed window as words in rows of 32 banks), each with its
// own shape and banks: each word's value and bank, what the selected cell
// reads, and (hover) where a word came from and which thread stored it.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app/core/display_text.h"
#include "app/ui/app_state.h"
#include "app/ui/grid_canvas.h"
#include "app/ui/matrix_colors.h"
#include "app/ui/palette.h"
#include "app/ui/panel_registry.h"
#include "app/ui/shared_layout.h"

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

// Below this many pixels a cell cannot be pointed at with a mouse.
constexpr float kAimablePx = 4.0f;
// From this many pixels a cell, a vector access's outline frames its words.
constexpr float kBracketPx = 6.0f;
// Following the thread, cells grow up to this many fonts: room for a value over its bank.
constexpr float kFollowFonts = 2.8f;

struct PanelShared : Panel {
  PanelShared() : Panel("Shared memory", {PanelSlot::Right, 1.0f, true}) {}

  void Draw(AppState& app) override {
    app.on_screen_shared = {};
    const PanelWindow window(*this, ImGuiWindowFlags_NoScrollbar);
    if (!window) return;
    const LoadedTrace* lt = app.trace();
    const std::optional<CellHighlight>& h = app.highlight();
    if (!lt || !h) {
      ImGui::TextWrapped("The selected block's shared memory appears here, region by region: click a cell of C.");
      return;
    }
    if (lt->trace.launch.iteration_rule.barriers_per_iteration == 0) {
      ImGui::TextWrapped("%s reads A and B straight from global memory: no shared memory.", elided(lt->trace.launch.kernel, kShownKernel).c_str());
      return;
    }
    ImGui::Checkbox("colour by bank", &by_bank_);
    ImGui::SameLine();
    focus_combo(app, lt->trace.launch);
    const ReplayStep s = h->step;
    const std::uint32_t iteration = s.phase == Phase::Store ? app.timeline().iterations() - 1 : s.iteration;
    char text[96];
    std::snprintf(text, sizeof text, s.phase == Phase::Load ? "iteration %u, being written" : "iteration %u", iteration);
    // Following, the buffer in view has no room for its label: it goes here
    // (a pipeline's label names the k-tile; a plain tile's, the array).
    if (app.view.follow_thread && focus_grid_ < grids_.size()) {
      const std::string& label = grids_[focus_grid_].label;
      if (label.find(':') != std::string::npos) std::snprintf(text, sizeof text, "%s", label.c_str());
      else std::snprintf(text + std::strlen(text), sizeof text - std::strlen(text), ", %s", label.c_str());
    }
    ImGui::SameLine();
    if (ImGui::CalcTextSize(text).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
    // Cells too small to aim at (a rung's 128-word rows in a side panel): say how to get closer, where it fits.
    const char* hint = " (wheel: zoom)";
    if (canvas_.scale() > 0 && canvas_.scale() < kAimablePx && !app.view.follow_thread &&
        ImGui::CalcTextSize(text).x + ImGui::CalcTextSize(hint).x <= ImGui::GetContentRegionAvail().x)
      std::strncat(text, hint, sizeof text - std::strlen(text) - 1);
    ImGui::TextDisabled("%s", text);
    refresh(app, *lt, *h, iteration);
    if (hidden_ > 0) ImGui::TextDisabled("%zu more region(s) not drawn: follow one to see it", hidden_);
    if (app.view.follow_thread && !lt->trace.launch.find_memory(*app.view.follow_thread))
      ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "this kernel has no shared region named %s",
                         elided(*app.view.follow_thread, 32).c_str());

    // The vector accesses' outlines once a cell is large enough (at a pixel a
    // cell they would cover the highlights they frame); last frame's zoom decides.
    // Under the other outlines (the pair at k stays framed in white).
    drawn_rects_.clear();
    if (canvas_.scale() >= kBracketPx) drawn_rects_ = detail_rects_;
    drawn_rects_.insert(drawn_rects_.end(), rects_.begin(), rects_.end());
    const GridCanvas::Result r = canvas_.draw("##shared", app.renderer, grids_, drawn_rects_,
                                              app.trace_generation() + app.view.fit_requests * 7919ull +
                                                  layout_generation_ * 104729ull);
    two_lines_ = canvas_.scale() >= ImGui::GetFontSize() * 2.6f;
    canvas_.draw_cell_text(grids_, &PanelShared::cell_text, this, ImGui::GetFontSize() * 1.8f);
    if (r.hover) tooltip(*r.hover);
    publish(app);
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
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // The canvas as GridCanvas::draw will size it.
    const ImVec2 canvas(std::max(avail.x, 50.0f), std::max(avail.y, 50.0f));
    const float font = ImGui::GetFontSize();
    const bool resized = canvas.x != placed_canvas_.x || canvas.y != placed_canvas_.y || font != placed_font_;
    if (gen == seen_highlight_ && by_bank_ == seen_by_bank_ && app.view.follow_thread == seen_follow_ && !resized) return;
    if (seen_follow_ && !app.view.follow_thread) ++layout_generation_;  // back to the whole tiles: refit
    seen_highlight_ = gen;
    seen_by_bank_ = by_bank_;
    seen_follow_ = app.view.follow_thread;
    tiles_ = shared_contents(lt.trace, h.coord.block_linear, iteration);
    // A grid per buffer, at most kMaxGrids: a pipeline's stages as one grid
    // when they do not fit, and the regions past the last that fits left
    // out (unless followed: the followed region comes first).
    if (app.view.follow_thread)
      std::stable_partition(tiles_.begin(), tiles_.end(),
                            [&](const SharedTileContents& t) { return t.name == *app.view.follow_thread; });
    std::size_t grids = 0;
    for (SharedTileContents& tile : tiles_) {
      if (tile.stages == 0 || tile.rows % tile.stages != 0) tile.stages = 1;
      grids += tile.stages;
    }
    if (grids > kMaxGrids)
      for (SharedTileContents& tile : tiles_) tile.stages = 1;  // one grid for the whole region
    hidden_ = tiles_.size() > kMaxGrids ? tiles_.size() - kMaxGrids : 0;
    tiles_.resize(tiles_.size() - hidden_);
    place(app, canvas, font);
    grids_.clear();
    rects_.clear();
    detail_rects_.clear();
    parts_.clear();
    const Phase phase = h.step.phase;
    const bool reading = phase == Phase::Mac || phase == Phase::Sync;
    for (std::size_t i = 0; i < tiles_.size(); ++i) {
      const SharedTileContents& tile = tiles_[i];
      const std::uint32_t rows = tile.rows / tile.stages;
      std::vector<render::Rgba8> colors(tile.words.size());
      for (std::size_t w = 0; w < tile.words.size(); ++w) {
        const SharedWord& word = tile.words[w];
        colors[w] = by_bank_ ? bank_color(word.bank) : idle_color(word.value, ValueScale{4.0f, true});
        if (!word.written) colors[w] = palette::kIdleDark;
        if (!by_bank_ && reading && word.in_flight) colors[w] = palette::kInFlight;
      }
      if (!by_bank_) paint_thread(h, tile, reading, colors);
      for (std::uint32_t stage = 0; stage < tile.stages; ++stage) {
        const std::size_t g = grids_.size();
        const std::uint32_t row0 = stage * rows;
        const auto from = colors.begin() + static_cast<std::ptrdiff_t>(std::size_t{row0} * tile.cols);
        textures_[g].upload(rows, tile.cols, std::span<const render::Rgba8>(&*from, std::size_t{rows} * tile.cols));
        Grid grid;
        grid.colors = &textures_[g];
        const SharedPlacement::Origin o = placement_.origins[i][stage];
        grid.x = o.x;
        grid.y = o.y;
        grid.rows = rows;
        grid.cols = tile.cols;
        grid.tile_rows = rows;
        grid.tile_cols = tile.cols;
        grid.label = buffer_label(tile, stage, iteration, app.timeline().iterations(), reading);
        grids_.push_back(grid);
        parts_.push_back({i, stage, row0});
      }
      brackets(h, tile, i);
    }
    focus_grid_ = kNoGrid;
    if (app.view.follow_thread) follow(h, *app.view.follow_thread, canvas);
  }

  // Every region in view (whole tiles), or zoomed in on the thread's words of one region.
  static void focus_combo(AppState& app, const LaunchInfo& L) {
    std::optional<std::string>& f = app.view.follow_thread;
    const std::string shown = f ? "follow " + elided(*f, 24) : std::string("whole tiles");
    ImGui::SetNextItemWidth(std::max(ImGui::CalcTextSize("whole tiles").x, ImGui::CalcTextSize(shown.c_str()).x) +
                            ImGui::GetFrameHeight() * 1.6f);
    if (ImGui::BeginCombo("##focus", shown.c_str())) {
      if (ImGui::Selectable("whole tiles", !f)) f.reset();
      for (const Region& r : L.regions) {
        const std::string item = "follow " + elided(r.name, 24);
        if (ImGui::Selectable(item.c_str(), f && *f == r.name)) f = r.name;
      }
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("follow a region: zoom in on its words the selected cell's thread reads or writes\n"
                        "at this step, and keep them in view while stepping. Whole tiles: wheel zooms, drag pans, F fits.");
  }

  // Puts the words the thread touches at this step (its copies while loading,
  // its reads while multiplying) in the middle of the canvas, as large as they
  // fit, up to cells that hold their numbers; no less than all buffers fitted.
  void follow(const CellHighlight& h, const std::string& name, ImVec2 canvas) {
    float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
    auto cover = [&](std::uint32_t in, std::uint32_t slot) {
      for (std::size_t i = 0; i < tiles_.size(); ++i) {
        const SharedTileContents& tile = tiles_[i];
        if (tile.region != in || tile.name != name || tile.cols == 0) continue;
        const std::uint32_t rows = tile.rows / tile.stages, row = slot / tile.cols;
        const Grid* g = grid_of(i, row / rows);
        if (!g) continue;
        const float x = g->x + static_cast<float>(slot % tile.cols), y = g->y + static_cast<float>(row % rows);
        x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x + 1), y1 = std::max(y1, y + 1);
      }
    };
    const Phase phase = h.step.phase;
    if (phase == Phase::Load || phase == Phase::Barrier) {
      for (const CopiedWord& c : h.copied) cover(c.region, c.slot);
    } else if (phase == Phase::Mac) {
      for (const RegisterRead& r : h.registers_now) cover(r.region, r.slot);
      if (h.as_now) cover(h.as_now->region, h.as_now->slot);
      if (h.bs_now) cover(h.bs_now->region, h.bs_now->slot);
    } else if (phase == Phase::Sync) {
      for (const SlotRef& r : h.as_reads) cover(r.region, r.slot);
      for (const SlotRef& r : h.bs_reads) cover(r.region, r.slot);
    }
    if (x1 < x0) return;  // nothing this step (the store): the view stays
    const float cx = (x0 + x1) * 0.5f, cy = (y0 + y1) * 0.5f;
    for (std::size_t g = 0; g < grids_.size(); ++g)
      if (cx >= grids_[g].x && cx <= grids_[g].x + grids_[g].cols && cy >= grids_[g].y && cy <= grids_[g].y + grids_[g].rows)
        focus_grid_ = g;
    const float margin = 1.0f;  // cells around them
    const float fit = std::min(canvas.x / (x1 - x0 + 2 * margin), canvas.y / (y1 - y0 + 2 * margin));
    const float most = ImGui::GetFontSize() * kFollowFonts;
    canvas_.look_at(cx, cy, std::max(placement_.scale, std::min(fit, most)));
  }

  // Where the buffers go: the arrangement with the largest cells and room
  // for every label (shared_layout.h), for the widest label each buffer can
  // have, so that stepping never moves a grid. A new arrangement refits.
  void place(const AppState& app, ImVec2 canvas, float font) {
    std::vector<SharedArrayShape> shapes;
    for (const SharedTileContents& tile : tiles_) {
      const std::string widest = widest_label(tile, app.timeline().iterations());
      shapes.push_back({tile.stages, tile.rows / tile.stages, tile.cols, ImGui::CalcTextSize(widest.c_str()).x});
    }
    const ImVec2 room = GridCanvas::fit_room(canvas);
    SharedPlacement p = place_shared_arrays(shapes, room.x, room.y, font);
    bool moved = p.origins.size() != placement_.origins.size() || p.world_w != placement_.world_w ||
                 p.world_h != placement_.world_h;
    for (std::size_t i = 0; !moved && i < p.origins.size(); ++i)
      moved = p.origins[i].size() != placement_.origins[i].size() ||
              !std::equal(p.origins[i].begin(), p.origins[i].end(), placement_.origins[i].begin(),
                          [](auto a, auto b) { return a.x == b.x && a.y == b.y; });
    placement_ = std::move(p);
    placed_canvas_ = canvas;
    placed_font_ = font;
    if (moved) ++layout_generation_;
    canvas_.reserve_world(placement_.world_w, placement_.world_h);
  }

  // "As", "sc", "smem (raw: 4-byte words, 32 banks a row)".
  static std::string region_label(const SharedTileContents& tile) {
    std::string label = elided(tile.name, 24);
    if (tile.raw) label += " (raw: 4-byte words, 32 banks a row)";
    return label;
  }

  static std::string widest_label(const SharedTileContents& tile, std::uint32_t iterations) {
    std::string label = region_label(tile);
    if (tile.stages == 1) return label;
    return label + " " + std::to_string(tile.stages - 1) + ": k-tile " + std::to_string(iterations) + " read now";
  }

  // "As", or for a pipeline's buffer 1 "As 1: k-tile 3 read now" (or "filling",
  // cp.async copies in flight, or "next"; the tooltip says more).
  static std::string buffer_label(const SharedTileContents& tile, std::uint32_t stage, std::uint32_t iteration,
                                  std::uint32_t iterations, bool reading) {
    std::string label = region_label(tile);
    if (tile.stages == 1) return label;
    label += " " + std::to_string(stage);
    const std::uint32_t next = iteration + 1 + (stage + tile.stages - iteration % tile.stages - 1) % tile.stages;
    if (tile.stage_read[stage]) label += ": k-tile " + std::to_string(iteration) + " read now";
    else if (reading && tile.stage_filling[stage] && next < iterations)
      label += ": k-tile " + std::to_string(next) + " filling";
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
        if (c.region == tile.region) paint(c.slot, palette::kCopied);
    if (!reading) return;
    for (const std::vector<SlotRef>* reads : {&h.as_reads, &h.bs_reads})
      for (const SlotRef& r : *reads)
        if (r.region == tile.region) paint(r.slot, palette::kReads);
    for (const RegisterRead& r : h.registers_now)
      if (r.region == tile.region) paint(r.slot, palette::kRegisters);
    for (const std::optional<SlotRef>& now : {h.as_now, h.bs_now})
      if (now && now->region == tile.region) paint(now->slot, palette::kNow);
  }

  // Outlines: the cell's slot at k, each of the thread's register reads at
  // k as one access (a float4 read: one bracket over 4 words), and for
  // mma.sync the warp's fragments (16 x 8 of As, 8 x 8 of Bs) as the warp's
  // 32 lanes read them together.
  void brackets(const CellHighlight& h, const SharedTileContents& tile, std::size_t tile_index) {
    const std::uint32_t rows = tile.rows / tile.stages;
    // [row0, row1) x [col0, col1) of the array, inside one buffer.
    // Detail: drawn only while a cell is large enough for an outline to frame it.
    auto outline = [&](std::uint32_t row0, std::uint32_t row1, std::uint32_t col0, std::uint32_t col1,
                       render::Rgba8 color, float width, bool detail = false) {
      const std::uint32_t stage = row0 / rows;
      if (row1 <= row0 || col1 <= col0 || (row1 - 1) / rows != stage || stage >= tile.stages || col1 > tile.cols)
        return;
      const Grid* g = grid_of(tile_index, stage);
      if (!g) return;
      const float r = g->y + static_cast<float>(row0 - stage * rows);
      (detail ? detail_rects_ : rects_).push_back({g->x + col0, r, g->x + col1, r + (row1 - row0), color, width, false});
    };
    auto outline_words = [&](std::uint32_t first, std::uint32_t last, render::Rgba8 color, float width,
                             bool detail = false) {
      if (last / tile.cols != first / tile.cols) return;  // one row
      outline(first / tile.cols, first / tile.cols + 1, first % tile.cols, last % tile.cols + 1, color, width, detail);
    };
    const render::Rgba8 registers = palette::opaque(palette::kRegisters);
    if (h.step.phase == Phase::Load || h.step.phase == Phase::Barrier)
      for (std::size_t i = 0; i < h.copied.size();) {  // a vector copy's words come in order
        const CopiedWord& c = h.copied[i];
        const std::size_t n = std::min<std::size_t>(floats_of(c.width), h.copied.size() - i);
        if (c.region == tile.region && n > 1) outline_words(c.slot, h.copied[i + n - 1].slot, palette::kVectorAccess, 2.0f, true);
        i += n;
      }
    if (h.step.phase == Phase::Mac) {
      for (std::size_t i = 0; i < h.registers_now.size();) {
        const RegisterRead& r = h.registers_now[i];
        std::size_t j = i + 1;
        while (j < h.registers_now.size() && !h.registers_now[j].access_start && !h.registers_now[j].fragment &&
               h.registers_now[j].slot == h.registers_now[j - 1].slot + 1)
          ++j;
        if (r.region == tile.region && j - i > 1)
          outline_words(r.slot, h.registers_now[j - 1].slot, palette::kVectorAccess, 2.0f, true);
        i = j;
      }
      for (const CellHighlight::FragmentTile& f : h.fragment_tiles)
        if (const std::optional<CellRect> in_shared = fragment_in_shared(h, tile, f))
          outline(in_shared->row0, in_shared->row1, in_shared->col0, in_shared->col1, registers, 2.0f);
    }
    for (const std::optional<SlotRef>& now : {h.as_now, h.bs_now})
      if (now && now->region == tile.region) outline_words(now->slot, now->slot, palette::kSelectionOutline, 2.0f);
  }

  // A warp's fragment (a rectangle of A or B) where the block copied it in
  // this array: the lane's own fragment reads say where their elements lie;
  // when every one of them is shifted by the same offset (a tile copied
  // as is, not transposed), the fragment is that rectangle shifted.
  static std::optional<CellRect> fragment_in_shared(const CellHighlight& h, const SharedTileContents& tile,
                                                    const CellHighlight::FragmentTile& f) {
    if (f.global != tile.role || tile.cols == 0) return std::nullopt;
    std::optional<std::pair<std::int64_t, std::int64_t>> shift;
    for (const RegisterRead& r : h.registers_now) {
      if (!r.fragment || r.padding || r.region != tile.region || !f.cells.contains(r.element.row, r.element.col)) continue;
      const std::pair<std::int64_t, std::int64_t> d{std::int64_t{r.slot / tile.cols} - r.element.row,
                                                    std::int64_t{r.slot % tile.cols} - r.element.col};
      if (shift && *shift != d) return std::nullopt;
      shift = d;
    }
    if (!shift) return std::nullopt;
    const std::int64_t r0 = f.cells.row0 + shift->first, c0 = f.cells.col0 + shift->second;
    if (r0 < 0 || c0 < 0) return std::nullopt;
    return CellRect{static_cast<std::uint32_t>(r0), static_cast<std::uint32_t>(r0 + f.cells.row1 - f.cells.row0),
                    static_cast<std::uint32_t>(c0), static_cast<std::uint32_t>(c0 + f.cells.col1 - f.cells.col0)};
  }

  // What the window tests read back: where each buffer and its label are,
  // and the word under the scripted pointer.
  void publish(AppState& app) const {
    ScreenShared& out = app.on_screen_shared;
    for (std::size_t g = 0; g < grids_.size(); ++g) {
      const Grid& grid = grids_[g];
      const Part& p = parts_[g];
      const ImVec2 o = canvas_.grid_origin(grid);
      ScreenSharedGrid s{{true, o.x, o.y, canvas_.scale(), grid.rows, grid.cols},
                         tiles_[p.tile].name, p.stage, p.row0, grid.label};
      for (const GridCanvas::LabelDrawn& l : canvas_.labels_drawn())
        if (l.grid == static_cast<int>(g)) {
          s.label_drawn = true;
          s.label_x = l.min.x, s.label_y = l.min.y, s.label_w = l.max.x - l.min.x, s.label_h = l.max.y - l.min.y;
          s.label_px = l.px;
        }
      out.grids.push_back(std::move(s));
    }
    if (!app.view.probe) return;
    if (const auto hit = canvas_.hit(grids_, ImVec2(app.view.probe->first, app.view.probe->second)))
      out.probe = ScreenShared::Probe{static_cast<std::size_t>(hit->grid), parts_[hit->grid].row0 + hit->row, hit->col};
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
    const char* global = tile.role == BufferRole::B ? "B" : "A";
    ImGui::BeginTooltip();
    ImGui::Text("%s[%u][%u]  (word %u, bank %u)", elided(tile.name, 32).c_str(), row, hit.col, slot, w->bank);
    if (!w->written) ImGui::TextUnformatted("not written before this iteration's reads (padding column)");
    else if (w->padding) ImGui::Text("0: the slot lies outside the matrices (written by thread %u)", w->writer);
    else if (w->source_role == BufferRole::Other)
      ImGui::Text("%g, stored by thread %u of the block (a value no load of A or B gave it)", w->value, w->writer);
    else
      ImGui::Text("%g, copied from %s[%u][%u] by thread %u of the block%s", w->value,
                  role_name(w->source_role).data(), w->source.row, w->source.col, w->writer, w->async ? " (cp.async)" : "");
    if (w->written && !w->read) ImGui::TextDisabled("not read in this iteration");
    if (w->in_flight) {
      if (w->in_flight_padding) ImGui::TextUnformatted("cp.async in flight: a zero (outside the matrices)");
      else
        ImGui::Text("cp.async in flight: %s[%u][%u] = %g, visible after the wait and the barrier", global,
                    w->in_flight_source.row, w->in_flight_source.col, w->in_flight_value);
    }
    ImGui::EndTooltip();
  }

  SharedPlacement placement_;
  ImVec2 placed_canvas_{0, 0};
  float placed_font_ = 0;
  std::uint64_t layout_generation_ = 0;  // a new arrangement: the view refits
  bool by_bank_ = false, seen_by_bank_ = false;
  std::optional<std::string> seen_follow_;
  std::size_t hidden_ = 0;  // regions past kMaxGrids, not drawn
  static constexpr std::size_t kNoGrid = ~std::size_t{0};
  std::size_t focus_grid_ = kNoGrid;  // following: the buffer in view
  bool two_lines_ = false;  // cells tall enough for the value and the bank
  std::uint64_t seen_highlight_ = ~0ull;
  std::vector<SharedTileContents> tiles_;
  render::GridTexture textures_[kMaxGrids];
  std::vector<Grid> grids_;
  std::vector<Part> parts_;
  std::vector<render::RectDraw> rects_, detail_rects_, drawn_rects_;
  GridCanvas canvas_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(shared, ts::ui::PanelShared)
