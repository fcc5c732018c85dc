// panel_memory_ncu.cpp — the trace's memory counters next to Nsight Compute's
// for the same kernel, TILE and size, from the table recorded on a GPU
// (assets/ncu/memory-vs-ncu.json, made by scripts/gpu-checks.d/60-memory-vs-ncu.sh;
// another table's path can be typed in and loaded): whether each pair agrees,
// and why not where it does not. A table that has Nsight's shared wavefronts
// per executed instruction (SASS-patched) shows that count and its agreement
// as a second line of the Nsight Compute and agree cells (the Markdown's two
// more columns would leave the reasons a sliver of this panel); one without
// looks as it always did.
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <memory>
#include <set>
#include <string>

#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/ncu_table.h"
#include "app/core/assets.h"
#include "app/core/display_text.h"
#include "app/ui/app_state.h"
#include "app/ui/memory_widgets.h"
#include "app/ui/panel_registry.h"

namespace ts::ui {
namespace {

constexpr const char* kTableInRepo = "assets/ncu/memory-vs-ncu.json";

ImVec4 agreement_color(Agreement a) {
  switch (a) {
    case Agreement::Equal: return ImVec4(0.45f, 0.85f, 0.45f, 1);
    case Agreement::Close: return ImVec4(0.85f, 0.85f, 0.4f, 1);
    case Agreement::Differs: return ImVec4(1.0f, 0.55f, 0.35f, 1);
    case Agreement::Missing: break;
  }
  return ImVec4(0.6f, 0.6f, 0.6f, 1);
}

std::string number(double v) {
  if (v != v) return "-";  // NaN: not measured
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// The table's sizes, "64 and 256".
std::string sizes(const NcuTable& table) {
  std::set<int> n;
  for (const NcuRow& r : table.rows) n.insert(r.n);
  std::string out;
  for (auto it = n.begin(); it != n.end(); ++it)
    out += (it == n.begin() ? "" : std::next(it) == n.end() ? " and " : ", ") + std::to_string(*it);
  return out;
}

struct PanelMemoryNcu : Panel {
  PanelMemoryNcu() : Panel("Trace vs Nsight Compute", {PanelSlot::Float, 1.0f, false}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this);
    if (!window) return;
    if (!tried_) load();
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    ImGui::InputText("##table", path_, sizeof path_);
    ImGui::SameLine();
    if (ImGui::Button("Load")) load();
    if (!table_) {
      ImGui::TextWrapped("%s", error_.c_str());
      ImGui::TextWrapped("The table is recorded on a GPU with Nsight Compute by scripts/gpu-checks.d/"
                         "60-memory-vs-ncu.sh and committed as %s.", kTableInRepo);
      return;
    }
    ImGui::TextWrapped("Nsight Compute on %s, %s (%s, commit %s); traces recorded by %s.", table_->gpu.c_str(),
                       table_->date.c_str(), table_->ncu_version.c_str(), table_->commit.c_str(),
                       table_->trace_device.c_str());
    const std::shared_ptr<const LoadedTrace> lt = app.trace_shared();
    if (lt) current(app, lt);
    if (ImGui::CollapsingHeader("every launch in the table")) whole_table();
  }

 private:
  void load() {
    tried_ = true;
    try {
      table_ = load_ncu_table(resolve_asset(path_));
      per_instruction_ = has_per_instruction_counts(*table_);
      error_.clear();
    } catch (const NcuTableError& e) {
      table_.reset();
      error_ = e.what();
    }
  }

  // The row of the trace on screen, with the trace's own counters alongside.
  void current(AppState& app, const std::shared_ptr<const LoadedTrace>& lt) {
    const LaunchInfo& L = lt->trace.launch;
    const NcuRow* row = L.m == L.n && L.n == L.k ? table_->find(L.kernel, L.tile, L.n) : nullptr;
    ImGui::Separator();
    if (!row) {
      ImGui::TextWrapped("No hardware numbers for %s TILE %d at %d x %d x %d: the table's launches are at "
                         "M = N = K = %s (every launch in the table: below).",
                         elided(L.kernel, kShownKernel).c_str(), L.tile, L.m, L.n, L.k, sizes(*table_).c_str());
      return;
    }
    counters_.request(app.trace_generation(), [lt] { return memory_counters_json(analyze_memory(lt->trace)); });
    const nlohmann::json* mine = counters_.get();
    ImGui::Text("%s TILE %d, N = %d", row->kernel.c_str(), row->tile, row->n);
    if (!ImGui::BeginTable("##pairs", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable))
      return;
    ImGui::TableSetupColumn("counter");
    ImGui::TableSetupColumn("this trace");
    ImGui::TableSetupColumn("table's trace");
    ImGui::TableSetupColumn(per_instruction_ ? "Nsight Compute\nper instruction" : "Nsight Compute");
    ImGui::TableSetupColumn(per_instruction_ ? "agree\nper instruction" : "agree");
    ImGui::TableSetupColumn("why not", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const CounterComparison& c : compare_row(*row)) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(std::string(c.pair->label).c_str());
      ImGui::TableNextColumn();
      const std::string key(c.pair->trace_key);
      ImGui::TextUnformatted(mine && mine->contains(key) ? number((*mine)[key].get<double>()).c_str() : "...");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(number(c.trace).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(number(c.hardware).c_str());
      const bool second = !std::isnan(c.per_instruction);  // a shared wavefronts or conflicts row, measured
      if (second) ImGui::TextUnformatted(number(c.per_instruction).c_str());
      ImGui::TableNextColumn();
      ImGui::TextColored(agreement_color(c.agreement), "%s", agreement_name(c.agreement));
      if (second)
        ImGui::TextColored(agreement_color(c.per_instruction_agreement), "%s",
                           agreement_name(c.per_instruction_agreement));
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", c.why.c_str());
    }
    ImGui::EndTable();
    if (per_instruction_) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("Nsight Compute per instruction (second line): shared wavefronts counted per executed "
                          "instruction by patching the SASS, which no other traffic enters; for bank conflicts, those "
                          "wavefronts less the ones the hardware counter did not call conflicts. No second line: a "
                          "counter of another kind, or not measured for this launch.");
      ImGui::PopTextWrapPos();
    }
    // Past the recording limit (the 4096 table's size) the trace on screen holds some blocks, not the launch.
    const std::string part = L.focused() ? " (" + std::to_string(L.traced_blocks.size()) + " of " +
                                               std::to_string(L.grid.count()) + " blocks: a focused trace)"
                                         : "";
    ImGui::TextDisabled("this trace%s: recorded by %s; the table's trace: by %s at the profiled commit", part.c_str(),
                        elided(L.device_name, kShownDevice).c_str(), elided(table_->trace_device, kShownDevice).c_str());
  }

  void whole_table() {
    if (!ImGui::BeginTable("##all", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY,
                           ImVec2(0, ImGui::GetFontSize() * 16)))
      return;
    ImGui::TableSetupColumn("kernel");
    ImGui::TableSetupColumn("TILE");
    ImGui::TableSetupColumn("N");
    ImGui::TableSetupColumn("agree");
    ImGui::TableSetupColumn("differ");
    ImGui::TableHeadersRow();
    for (const NcuRow& r : table_->rows) {
      int agree = 0, differ = 0;
      for (const CounterComparison& c : compare_row(r)) {
        if (c.agreement == Agreement::Equal || c.agreement == Agreement::Close) ++agree;
        if (c.agreement == Agreement::Differs) ++differ;
      }
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.kernel.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%d", r.tile);
      ImGui::TableNextColumn();
      ImGui::Text("%d", r.n);
      ImGui::TableNextColumn();
      ImGui::Text("%d", agree);
      ImGui::TableNextColumn();
      ImGui::Text("%d", differ);
    }
    ImGui::EndTable();
  }

  char path_[1024] = "assets/ncu/memory-vs-ncu.json";
  bool tried_ = false;
  std::optional<NcuTable> table_;
  bool per_instruction_ = false;  // some row has Nsight's per-instruction counts: the headers name them
  std::string error_;
  BackgroundValue<nlohmann::json> counters_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(memory_ncu, ts::ui::PanelMemoryNcu)
