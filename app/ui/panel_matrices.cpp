// panel_matrices.cpp — the classic layout: A left of C, B above C, tile
// boundaries drawn; cells coloured by replay state or value; click a cell of
// C to follow it; hover for (row, col), value, block, thread and warp.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/core/display_text.h"
#include "app/render/renderer.h"
#include "app/ui/app_state.h"
#include "app/ui/grid_canvas.h"
#include "app/ui/matrix_colors.h"
#include "app/ui/palette.h"
#include "app/ui/panel_registry.h"
#include "kernels/catalog.h"
#include "app/counters/counter.h"

namespace ts::ui {
namespace {

enum GridId { kGridA = 0, kGridB = 1, kGridC = 2 };
constexpr int kValuesAlwaysUpTo = 16;  // presentation mode: numbers in every cell up to this N
// The emulator's pace on the two-core reference machine (docs/perf/record_bench_2core_emulator.json: ~130 M events/s).
constexpr double kEmulatorEventsPerSecond = 130e6;

std::string short_number(float v) {
  if (!std::isfinite(v)) return {};
  char buf[32];
  if (v == std::floor(v) && std::fabs(v) < 1e6f) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

ImVec4 to_imvec(render::Rgba8 c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f); }

// One swatch and its words, on the next line when the rest of this one is too short.
void legend_item(render::Rgba8 color, const char* text) {
  const float width = ImGui::GetFontSize() + 4 + ImGui::CalcTextSize(text).x;
  if (ImGui::GetCursorPosX() + width > ImGui::GetWindowContentRegionMax().x) ImGui::NewLine();
  ImGui::ColorButton(text, to_imvec(color), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoBorder,
                     ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
  ImGui::SameLine(0, 4);
  ImGui::TextUnformatted(text);
  ImGui::SameLine(0, 14);
}

// "A  (64 x 32)", "W  (64 x 32, column-major, ld 40)": the buffer's name,
// shape and, when it is not plain row-major, its layout.
std::string operand_label(const LaunchInfo& L, BufferRole role) {
  const Buffer* b = L.buffer_with_role(role);
  if (!b) return std::string(role_name(role));
  std::string s = elided(b->name, 24);
  s += "  (";
  s += std::to_string(b->rows);
  s += " x ";
  s += std::to_string(b->cols);
  if (b->order == MatrixOrder::ColMajor) s += ", column-major";
  if (b->ld != (b->order == MatrixOrder::RowMajor ? b->cols : b->rows)) s += ", ld " + std::to_string(b->ld);
  s += ')';
  return s;
}

int grid_of(BufferRole role) { return role == BufferRole::A ? kGridA : role == BufferRole::B ? kGridB : kGridC; }

// One access's elements of A or B, as the rectangle around them.
struct Access {
  BufferRole global = BufferRole::A;
  CellRect cells;
  std::uint32_t elements = 0;
};

void add_to(std::vector<Access>& out, bool starts, BufferRole global, const ElementCoord& e) {
  if (global != BufferRole::A && global != BufferRole::B) return;  // drawn on A and B only
  if (starts || out.empty() || out.back().global != global) out.push_back({global, {e.row, e.row + 1, e.col, e.col + 1}, 0});
  CellRect& r = out.back().cells;
  r = {std::min(r.row0, e.row), std::max(r.row1, e.row + 1), std::min(r.col0, e.col), std::max(r.col1, e.col + 1)};
  ++out.back().elements;
}

// A copy's words: a vector store's four are consecutive slots, the first at
// a multiple of four.
std::vector<Access> copy_accesses(const std::vector<CopiedWord>& copied) {
  std::vector<Access> out;
  for (std::size_t i = 0; i < copied.size(); ++i) {
    const CopiedWord& w = copied[i];
    if (w.padding) continue;
    const std::uint32_t floats = floats_of(w.width);
    const bool continues = floats > 1 && w.slot % floats != 0 && i > 0 && copied[i - 1].slot + 1 == w.slot &&
                           copied[i - 1].region == w.region && !copied[i - 1].padding;
    add_to(out, !continues, w.global, w.element);
  }
  return out;
}

std::vector<Access> register_accesses(const std::vector<RegisterRead>& reads) {
  std::vector<Access> out;
  bool starts = true;
  for (const RegisterRead& r : reads) {
    starts = starts || r.access_start;
    if (r.padding) continue;
    add_to(out, starts, r.global, r.element);
    starts = false;
  }
  return out;
}

std::string thread_words(const ThreadCoord& t) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "block (%u, %u), thread (%u, %u), warp %u", t.block.x, t.block.y, t.thread.x,
                t.thread.y, t.warp);
  return buf;
}

struct PanelMatrices : Panel {
  PanelMatrices() : Panel("Matrices", {PanelSlot::Center, 1.0f, true, true}) {}

  void Draw(AppState& app) override {
    // On a projector the matrices get every pixel: no title bar, no header
    // (the step is explained beside them, in Selected cell).
    const bool big = app.view.presentation;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, big ? ImVec2(4, 4) : ImVec2(6, 6));
    const PanelWindow window(*this, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                        (big ? ImGuiWindowFlags_NoTitleBar : 0));
    ImGui::PopStyleVar();
    app.on_screen = {};
    if (!window) return;
    const LoadedTrace* lt = app.trace();
    if (!lt) {
      ImGui::TextWrapped(app.busy() ? "Recording the first scene..." : "No trace yet: record one in Controls, or open a file.");
      return;
    }
    const Trace& t = lt->trace;
    const LaunchInfo& L = t.launch;
    trace_ = &t;
    // One texel per cell: a matrix wider than the GPU's largest texture cannot be drawn.
    const int max_edge = app.renderer ? app.renderer->max_texture_size() : 0;
    if (max_edge > 0 && std::max({L.m, L.n, L.k}) > max_edge) {
      ImGui::TextWrapped("%s: a matrix edge of %d cells is beyond this GPU's largest texture (%d); the other "
                         "panels still work.",
                         launch_title(L).c_str(), std::max({L.m, L.n, L.k}), max_edge);
      return;
    }
    if (scene_.update(app)) upload(t);
    if (!big) header(app);
    if (L.focused()) focus_notice(app, L);

    // World layout, in cells: A (M x K) at the left, B (K x N) on top, C below B.
    const float gap = std::max(1.0f, std::round(0.08f * static_cast<float>(std::max({L.m, L.n, L.k}))));
    const float cx = static_cast<float>(L.k) + gap, cy = static_cast<float>(L.k) + gap;
    const auto kind = find_kernel(L.kernel);
    const std::uint32_t per_edge = kind ? static_cast<std::uint32_t>(kernel_info(*kind).cells_per_thread_edge) : 1;
    std::uint32_t T = static_cast<std::uint32_t>(L.tile), E = T * per_edge;
    // The ladder's rungs: grid lines at the block tile (BM x BN) and the k-tile (BK).
    const bool rung = kind && !takes_tile(*kind) && L.tiling.block_m > 0;
    const std::uint32_t Em = rung ? L.tiling.block_m : E, En = rung ? L.tiling.block_n : E;
    if (rung) T = L.tiling.block_k;
    const std::uint32_t M = static_cast<std::uint32_t>(L.m), N = static_cast<std::uint32_t>(L.n),
                        K = static_cast<std::uint32_t>(L.k);
    grids_[kGridA] = {&tex_[kGridA], 0, cy, M, K, Em, T, operand_label(L, BufferRole::A)};
    grids_[kGridB] = {&tex_[kGridB], cx, 0, K, N, T, En, operand_label(L, BufferRole::B)};
    grids_[kGridC] = {&tex_[kGridC], cx, cy, M, N, Em, En,
                      operand_label(L, BufferRole::C) + (scene_.c_final() ? ": stored" : ": partial sums")};

    if (const auto& cam = app.view.camera_request)
      canvas_.look_at(cx + cam->center_col, cy + cam->center_row, cam->pixels_per_cell);
    build_rects(app);
    const GridCanvas::Result r = canvas_.draw("##matrices", app.renderer, grids_, rects_,
                                              app.view.fit_requests + app.trace_generation() * 1000003ull);
    // Numbers in cells when they are large enough; in presentation mode in
    // every cell of a small launch (N <= 16), in a smaller font if need be.
    const bool small = std::max({L.m, L.n, L.k}) <= kValuesAlwaysUpTo;
    if (app.view.show_values)
      canvas_.draw_cell_text(grids_, &PanelMatrices::cell_text, this, big ? 34.0f : 22.0f, big && small);
    if (r.clicked && r.clicked->grid == kGridC) app.select_cell(r.clicked->row, r.clicked->col);
    hover_ = r.hover;
    if (r.hover) tooltip(app, *r.hover);

    auto screen = [&](const GridCanvas::Grid& g) {
      const ImVec2 o = canvas_.grid_origin(g);
      return ScreenGrid{true, o.x, o.y, canvas_.scale(), g.rows, g.cols};
    };
    app.on_screen = {screen(grids_[kGridA]), screen(grids_[kGridB]), screen(grids_[kGridC]), std::nullopt};
    if (app.view.probe) probe(app);
  }

 private:
  void upload(const Trace& t) {
    const MatrixColors& c = scene_.colors();
    if (!scene_.changed_everything()) {  // a step: only what moved
      tex_[kGridA].update(c.a, scene_.changed().a);
      tex_[kGridB].update(c.b, scene_.changed().b);
      tex_[kGridC].update(c.c, scene_.changed().c);
      return;
    }
    // The colours are dense row-major (M x K, K x N, M x N), whatever the layouts in the trace.
    const auto m = static_cast<std::uint32_t>(t.launch.m), n = static_cast<std::uint32_t>(t.launch.n),
               k = static_cast<std::uint32_t>(t.launch.k);
    tex_[kGridA].upload(m, k, c.a);
    tex_[kGridB].upload(k, n, c.b);
    tex_[kGridC].upload(m, n, c.c);
  }

  void header(AppState& app) {
    const ReplayStep s = app.step();
    const ReplayTimeline& tl = app.timeline();
    if (s.phase == Phase::Store) ImGui::Text("Store: every thread writes its cell of C");
    else if (s.phase == Phase::Mac)
      ImGui::Text("Iteration t = %u (of 0..%u): multiply-accumulate, k = %u", s.iteration, tl.iterations() - 1, s.k);
    else ImGui::Text("Iteration t = %u (of 0..%u): %s", s.iteration, tl.iterations() - 1, phase_name(s.phase));
    ImGui::SameLine(0, 24);
    if (!app.selection.cell) {
      ImGui::TextDisabled("click a cell of C to follow it");
    } else if (app.view.color_mode == ColorMode::Value) {
      ImGui::TextDisabled("coloured by value (V: by replay state)");
    } else {
      const std::optional<CellHighlight>& h = app.highlight();
      const bool register_tile = h && h->thread_cells.size() > 1;
      legend_item(palette::kSelectedCell, "cell");
      legend_item(palette::kBlockCell, "its block");
      if (h && h->warp_cells != h->block_cells) legend_item(palette::kWarpOutline, "its warp");
      if (register_tile) legend_item(palette::kThreadCell, "its thread's register tile");
      if (s.phase != Phase::Store) {
        legend_item(palette::kBlockTile, "block's tiles");
        legend_item(palette::kCopied, "its thread's copy");
        if (register_tile && s.phase == Phase::Mac) legend_item(palette::kThreadReads, "its thread reads");
        legend_item(palette::kReads, "the cell reads");
        if (register_tile && s.phase == Phase::Mac) legend_item(palette::kRegisters, "in registers at k");
        legend_item(palette::kNow, "the cell's pair at k");
      }
      ImGui::NewLine();
    }
    if (app.replay.all_blocks) {
      ImGui::SameLine();
      legend_item(palette::kAllBlocksMany, "all blocks' tiles (brighter: more blocks)");
      ImGui::NewLine();
    }
  }

  // A focused trace: which blocks are traced, that the rest is counted and
  // not traced, and the whole launch's counters (counted on request: minutes
  // on the emulator at N = 4096).
  void focus_notice(AppState& app, const LaunchInfo& L) {
    std::string which;
    for (std::size_t i = 0; i < L.traced_blocks.size() && i < 3; ++i) {
      const std::uint32_t b = L.traced_blocks[i];
      which += (i ? ", (" : "(") + std::to_string(b % L.grid.x) + ", " + std::to_string(b / L.grid.x) + ")";
    }
    if (L.traced_blocks.size() > 3) which += " and " + std::to_string(L.traced_blocks.size() - 3) + " more";
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec(palette::kThreadCell));
    ImGui::TextWrapped("Focused trace: block%s %s traced, every event. The rest of the launch (%llu blocks) is counted, "
                       "not traced: click a cell of C elsewhere to record its block.",
                       L.traced_blocks.size() > 1 ? "s" : "", which.c_str(),
                       static_cast<unsigned long long>(L.grid.count() - L.traced_blocks.size()));
    ImGui::PopStyleColor();
    if (ImGui::Checkbox("also the blocks sharing its tiles", &app.focus_sharing) && app.selection.cell)
      app.select_cell(app.selection.cell->row, app.selection.cell->col);  // records them if missing
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The blocks of its block row (the same tiles of A) and block column (the same tiles of B)");
    ImGui::SameLine(0, 20);
    const RecordParams p = app.trace_params();
    CounterJob& job = app.counters;
    const bool this_launch = same_recording(job.params(), p);
    if (const auto c = job.result_for(p)) {
      counters_table(*c);
    } else if (job.running() && this_launch) {
      ImGui::Text("counting the whole launch on the emulator: %llu of %llu blocks, %.0f s",
                  static_cast<unsigned long long>(job.blocks_done()), static_cast<unsigned long long>(job.blocks_total()),
                  job.seconds());
      ImGui::SameLine();
      if (ImGui::SmallButton("Stop")) job.stop();
    } else {
      if (ImGui::SmallButton("Count the whole launch")) job.start(p);
      if (ImGui::IsItemHovered()) {
        const EventCounts n = expected_counts(p.kernel, p.tile, p.m, p.n, p.k);
        ImGui::SetTooltip("Requests, sectors, wavefronts and bank conflicts of all %llu blocks, without keeping events.\n"
                          "%.3g events: on the GPU in seconds; on the emulator about %.0f s on this machine's cores.",
                          static_cast<unsigned long long>(L.grid.count()), double(n.total()),
                          double(n.total()) / kEmulatorEventsPerSecond);
      }
      if (this_launch && !job.error().empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("(last count: %s)", job.error().c_str());
      }
    }
  }

  static void counters_table(const LaunchCounters& c) {
    const nlohmann::json j = counters_to_json(c);
    const std::string who = c.launch.recorded_on_gpu() ? "counted on the GPU (" + c.launch.device_name + ")"
                                                        : "counted by the emulator";
    ImGui::NewLine();
    if (!ImGui::BeginTable("##counted", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerH)) return;
    ImGui::TableSetupColumn("whole launch");
    ImGui::TableSetupColumn(who.c_str());
    ImGui::TableHeadersRow();
    const std::pair<const char*, const char*> rows[] = {
        {"global load requests", "global_load_requests"}, {"global load sectors", "global_load_sectors"},
        {"global store sectors", "global_store_sectors"},  {"shared load wavefronts", "shared_load_wavefronts"},
        {"shared bank conflicts (loads)", "shared_bank_conflicts_load"},
        {"shared load instructions, as compiled", "shared_load_requests_compiled"},
        {"shared load wavefronts, as compiled", "shared_load_wavefronts_compiled"},
        {"bytes loaded", "global_bytes_loaded"},
        {"minimum bytes", "min_bytes"},                   {"arithmetic intensity", "arithmetic_intensity"}};
    for (const auto& [name, key] : rows) {
      if (!j.contains(key)) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      ImGui::TableNextColumn();
      const nlohmann::json& v = j[key];
      if (v.is_number_integer()) ImGui::Text("%llu", static_cast<unsigned long long>(v.get<std::uint64_t>()));
      else ImGui::Text("%.3g", v.get<double>());
    }
    ImGui::EndTable();
  }

  void build_rects(AppState& app) {
    rects_.clear();
    auto outline = [&](const GridCanvas::Grid& g, const CellRect& r, render::Rgba8 color, float width) {
      if (r.empty()) return;
      rects_.push_back({g.x + r.col0, g.y + r.row0, g.x + r.col1, g.y + r.row1, color, width, false});
    };
    const std::optional<CellHighlight>& h = app.highlight();
    if (h && app.view.color_mode == ColorMode::ReplayState) {
      outline(grids_[kGridC], h->block_cells, palette::kBlockOutline, 2.0f);
      // The block -> warp -> thread hierarchy: the warp's tile, the thread's register tile.
      if (h->warp_cells != h->block_cells) outline(grids_[kGridC], h->warp_cells, palette::kWarpOutline, 2.0f);
      if (h->thread_cells.size() > 1)
        for (const CellRect& piece : h->thread_pieces) outline(grids_[kGridC], piece, palette::kThreadOutline, 1.5f);
      outline(grids_[kGridC], {h->cell.row, h->cell.row + 1, h->cell.col, h->cell.col + 1}, palette::kSelectionOutline, 2.0f);
      // The thread's copies, one outline per access: a float4 copy is one
      // bracket over its 4 elements. In the load phase the cells are painted
      // already; there only the vector accesses get their bracket.
      const Phase p = h->step.phase;
      if (p != Phase::Store)
        for (const Access& a : copy_accesses(h->copied))
          if (a.elements > 1 || p == Phase::Mac || p == Phase::Sync)
            outline(grids_[grid_of(a.global)], a.cells, palette::opaque(palette::kCopied), 2.0f);
      // The registers the thread fills at k, one outline per shared read: a
      // float4 read of a transposed As is 4 rows of one column of A.
      if (p == Phase::Mac && h->thread_cells.size() > 1 && h->fragment_tiles.empty())
        for (const Access& a : register_accesses(h->registers_now))
          outline(grids_[grid_of(a.global)], a.cells, palette::opaque(palette::kRegisters), 2.0f);
      // mma.sync: the warp's operand pieces (16 x 8 of A, 8 x 8 of B) this
      // lane holds a part of, and the 16 x 8 accumulator tile of the cell.
      if (p == Phase::Mac)
        for (const CellHighlight::FragmentTile& f : h->fragment_tiles)
          if (f.global == BufferRole::A || f.global == BufferRole::B) outline(grids_[grid_of(f.global)], f.cells, palette::opaque(palette::kRegisters), 2.0f);
      if (p == Phase::Mac) outline(grids_[kGridC], h->mma_c_tile, palette::opaque(palette::kRegisters), 2.0f);
    }
    if (hover_ && hover_->grid >= 0 && hover_->grid < 3)
      outline(grids_[hover_->grid], {hover_->row, hover_->row + 1, hover_->col, hover_->col + 1}, palette::kHoverOutline, 1.5f);
  }

  // A scripted pointer: the cell under a window pixel, found as hover and click find it.
  void probe(AppState& app) {
    const auto hit = canvas_.hit(grids_, ImVec2(app.view.probe->first, app.view.probe->second));
    if (!hit) return;
    app.on_screen.probe = ScreenProbe{"ABC"[hit->grid], hit->row, hit->col};
    if (app.view.probe_click && hit->grid == kGridC) app.select_cell(hit->row, hit->col);
    app.view.probe_click = false;
  }

  static std::string cell_text(const void* self, int grid, std::uint32_t row, std::uint32_t col) {
    const auto* p = static_cast<const PanelMatrices*>(self);
    const GridCanvas::Grid& g = p->grids_[grid];
    const std::size_t i = std::size_t{row} * g.cols + col;
    if (grid == kGridC) return i < p->scene_.c_values().size() ? short_number(p->scene_.c_values()[i]) : std::string();
    const std::span<const float> v = grid == kGridA ? p->scene_.a().values() : p->scene_.b().values();
    return i < v.size() ? short_number(v[i]) : std::string();
  }

  void tooltip(AppState& app, const GridCanvas::Hit& hit) {
    const LoadedTrace* lt = app.trace();
    const BufferRole array = hit.grid == kGridA ? BufferRole::A : hit.grid == kGridB ? BufferRole::B : BufferRole::C;
    const ReplayStep s = app.step();
    const auto info = describe_element(lt->trace, *lt->index, array, hit.row, hit.col, s.iteration);
    if (!info) return;
    ImGui::BeginTooltip();
    ImGui::Text("%s[%u][%u]", lt->trace.launch.buffer_with_role(array)->name.c_str(), hit.row, hit.col);
    if (array == BufferRole::C) {
      const std::size_t i = std::size_t{hit.row} * lt->trace.launch.n + hit.col;
      if (!scene_.c_final() && i < scene_.c_values().size())
        ImGui::Text("partial sum after %u of %d k's: %g", scene_.c_terms(), lt->trace.launch.k, scene_.c_values()[i]);
      ImGui::Text("stored: %g", info->value);
      if (info->thread) ImGui::TextUnformatted(("computed by " + thread_words(*info->thread)).c_str());
      ImGui::TextDisabled("click to follow this cell");
    } else {
      ImGui::Text("value %g", info->value);
      ImGui::Text("loaded from global memory %u times in all", info->loads_total);
      if (s.phase != Phase::Store) {
        if (info->thread)
          ImGui::TextUnformatted(("this iteration: " + std::to_string(info->loads_this_iteration) + " load(s), first by " +
                                  thread_words(*info->thread)).c_str());
        else
          ImGui::TextUnformatted("not loaded in this iteration");
      }
    }
    ImGui::EndTooltip();
  }

  MatrixScene scene_;
  render::GridTexture tex_[3];
  GridCanvas canvas_;
  GridCanvas::Grid grids_[3];
  std::vector<render::RectDraw> rects_;
  std::optional<GridCanvas::Hit> hover_;
  const Trace* trace_ = nullptr;  // this frame's, for cell_text
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(matrices, ts::ui::PanelMatrices)
