// panel_memory_compare.cpp — the trace on screen next to a second one (naive
// vs tiled, transposed vs padded): the same inputs recorded with another
// kernel or TILE, or a trace file; for the selected cell, the block and warp
// that computed it in each, at the same step; and both whole launches.
#include <imgui.h>

#include <cstdio>
#include <memory>
#include <string>

#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/reuse.h"
#include "app/core/analysis/trace_compare.h"
#include "app/ui/app_state.h"
#include "app/ui/memory_widgets.h"
#include "app/ui/panel_registry.h"
#include "kernels/catalog.h"

namespace ts::ui {
namespace {

nlohmann::json whole_launch(const Trace& t) {
  nlohmann::json j = memory_counters_json(analyze_memory(t));
  j.update(reuse_counters_json(analyze_reuse(t)));
  j.erase("shared_reads_per_staged_value");  // an object, not a counter
  return j;
}

struct PanelMemoryCompare : Panel {
  PanelMemoryCompare() : Panel("Compare traces", {PanelSlot::Float, 1.0f, false}) { loader_.set_prefetch(false); }

  void Draw(AppState& app) override {
    const PanelWindow window(*this);
    if (!window) return;
    poll(app);
    const std::shared_ptr<const LoadedTrace> a = app.trace_shared();
    if (!a) {
      ImGui::TextWrapped("Record or open a trace first; then record a second one to compare with it.");
      return;
    }
    chooser(app, *a);
    if (!other_) {
      ImGui::TextWrapped("Record the same inputs with another kernel or TILE (naive against tiled, "
                         "tiled-transposed against tiled-padded), or open a trace file.");
      return;
    }
    const LaunchInfo& la = a->trace.launch;
    const LaunchInfo& lb = other_->trace.launch;
    ImGui::Text("a: %s", launch_title(la).c_str());
    ImGui::Text("b: %s", launch_title(lb).c_str());
    if (la.m != lb.m || la.n != lb.n || la.k != lb.k)
      ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "different sizes: the cell and step compare positions, not work");
    else if (la.tile != lb.tile)
      ImGui::TextDisabled("different TILEs: step s is k-iteration s of each, over different k's");

    const std::optional<CellHighlight>& h = app.highlight();
    if (h) cell_section(app, *a, *h);
    else ImGui::TextDisabled("click a cell of C to compare the block and warp that computed it");

    const std::shared_ptr<const LoadedTrace> b = other_;
    launches_.request(app.trace_generation() * 1000003ull + other_generation_, [a, b] {
      return std::make_pair(whole_launch(a->trace), whole_launch(b->trace));
    });
    if (ImGui::CollapsingHeader("whole launches", ImGuiTreeNodeFlags_DefaultOpen)) {
      if (const auto* both = launches_.get()) {
        const CounterColumn columns[] = {{"a", &both->first}, {"b", &both->second}};
        counter_table("##launches", columns, true);
      } else {
        ImGui::TextDisabled("%s", launches_.error().empty() ? "analysing both traces..." : launches_.error().c_str());
      }
    }
  }

 private:
  void chooser(AppState& app, const LoadedTrace& a) {
    if (kernel_ < 0) {  // start from the trace on screen
      const auto kind = find_kernel(a.trace.launch.kernel);
      kernel_ = kind ? static_cast<int>(*kind) : 0;
      tile_ = a.trace.launch.tile;
    }
    const KernelKind kind = kAllKernels[kernel_];
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    if (ImGui::BeginCombo("##kernel", std::string(kernel_info(kind).name).c_str())) {
      for (int i = 0; i < static_cast<int>(std::size(kAllKernels)); ++i)
        if (ImGui::Selectable(std::string(kernel_info(kAllKernels[i]).name).c_str(), i == kernel_)) kernel_ = i;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
    if (ImGui::BeginCombo("TILE##cmp", std::to_string(tile_).c_str())) {
      for (int t : kAllTiles)
        if (ImGui::Selectable(std::to_string(t).c_str(), t == tile_)) tile_ = t;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(loader_.busy());
    if (ImGui::Button("Record b")) {
      // The same sizes, inputs and device as the trace on screen.
      RecordParams p = app.params;
      const LaunchInfo& L = a.trace.launch;
      p.kernel = kind;
      p.tile = tile_;
      p.m = L.m;
      p.n = L.n;
      p.k = L.k;
      p.seed = L.seed;
      loader_.record(p);
    }
    ImGui::EndDisabled();
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    ImGui::InputText("##path", path_, sizeof path_);
    ImGui::SameLine();
    if (ImGui::Button("Open b") && path_[0] != '\0') loader_.open(path_);
    if (loader_.busy()) ImGui::TextDisabled("%s (%.1f s)", loader_.busy_what().c_str(), loader_.busy_seconds());
  }

  void poll(AppState& app) {
    if (auto r = loader_.take()) {
      if (!r->error.empty()) {
        app.notify(NoticeLevel::Error, "compare: " + r->error);
      } else if (r->trace) {
        other_ = r->trace;
        ++other_generation_;
      }
    }
  }

  // The block and warp that computed the selected cell in each trace, in the same step.
  void cell_section(AppState& app, const LoadedTrace& a, const CellHighlight& h) {
    const std::uint32_t step = h.step.iteration;
    const Key key{app.trace_generation(), other_generation_, h.cell.row, h.cell.col, step};
    if (key != key_) {
      key_ = key;
      const ThreadScope sa = thread_scope(a.trace, h.thread, step);
      block_a_ = memory_counters_json(sa.block_stats);
      warp_a_ = memory_counters_json(sa.warp_stats);
      const auto writer = other_->index->c_writer(h.cell.row, h.cell.col);
      has_b_ = writer.has_value();
      if (writer) {
        const ThreadScope sb = thread_scope(other_->trace, writer->thread, step);
        block_b_ = memory_counters_json(sb.block_stats);
        warp_b_ = memory_counters_json(sb.warp_stats);
        const ThreadCoord c = other_->trace.thread_coord(writer->thread);
        std::snprintf(where_b_, sizeof where_b_, "block (%u, %u), warp %u", c.block.x, c.block.y, c.warp);
      }
    }
    ImGui::Text("C[%u][%u], step %u: a's block (%u, %u), warp %u; b's %s", h.cell.row, h.cell.col, step,
                h.coord.block.x, h.coord.block.y, h.coord.warp, has_b_ ? where_b_ : "cell is not in b's C");
    if (!has_b_) return;
    if (ImGui::CollapsingHeader("the warp that computed the cell, this step", ImGuiTreeNodeFlags_DefaultOpen)) {
      const CounterColumn columns[] = {{"a", &warp_a_}, {"b", &warp_b_}};
      counter_table("##warps", columns, true);
    }
    if (ImGui::CollapsingHeader("its block, this step")) {
      const CounterColumn columns[] = {{"a", &block_a_}, {"b", &block_b_}};
      counter_table("##blocks", columns, true);
    }
  }

  struct Key {
    std::uint64_t a = ~0ull, b = ~0ull;
    std::uint32_t row = 0, col = 0, step = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  TraceLoader loader_;
  std::shared_ptr<const LoadedTrace> other_;
  std::uint64_t other_generation_ = 0;
  int kernel_ = -1, tile_ = 16;
  char path_[1024] = "";
  Key key_;
  nlohmann::json block_a_, warp_a_, block_b_, warp_b_;
  bool has_b_ = false;
  char where_b_[64] = "";
  BackgroundValue<std::pair<nlohmann::json, nlohmann::json>> launches_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(memory_compare, ts::ui::PanelMemoryCompare)
