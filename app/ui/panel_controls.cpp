// panel_controls.cpp — what to record and where: kernel, TILE (a prominent
// 16 / 32 toggle, every power of two to 32, and what TILE does to occupancy
// right under it), sizes, device, inputs, the
// seed-003 preset; open and save trace files. A change re-records at once.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "app/core/display_text.h"
#include "app/ui/app_state.h"
#include "app/ui/occupancy_columns.h"
#include "app/ui/panel_registry.h"
#include "kernels/catalog.h"
#include "kernels/kernel_resources.h"
#include "kernels/user/user_args.h"

namespace ts::ui {
namespace {

// Dim text that wraps at the column's edge rather than running past it.
void dim_wrapped(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

constexpr int kMaxEdit = 16384;  // sizes typed here; past the full-trace limit the app shows focused traces
constexpr std::uint64_t kPresetSeed = 3;

struct PanelControls : Panel {
  PanelControls() : Panel("Controls", {PanelSlot::Left, 1.0f, true}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this);
    if (!window) return;
    bool changed = false;
    RecordParams& p = app.params;

    // Kernel.
    ImGui::TextUnformatted("Kernel");
    const KernelInfo& current = kernel_info(p.kernel);
    ImGui::SetNextItemWidth(-1);
    const std::string shown = p.user ? "Your kernel: " + p.user->label() : std::string(current.title);
    if (ImGui::BeginCombo("##kernel", shown.c_str())) {
      for (KernelKind k : kAllKernels) changed |= kernel_item(k, p);
      // seed 004's ladder, in order: the recorded rungs, and the benchmark-only ones greyed with the reason.
      ImGui::Separator();
      ImGui::TextDisabled("The ladder (seed 004)");
      for (const LadderRung& rung : ladder_rungs()) {
        if (rung.kind) {
          changed |= kernel_item(*rung.kind, p, rung.title);
          continue;
        }
        ImGui::BeginDisabled();
        ImGui::Selectable(std::string(rung.title).c_str(), false);
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
          ImGui::SetTooltip("%s\n%s", std::string(rung.summary).c_str(), std::string(rung.benchmark_only).c_str());
      }
      ImGui::EndCombo();
    }
    if (p.user) {
      const std::string flags = flags_text(p.user->defines, p.user->args);
      ImGui::TextWrapped("%s, entry %s%s (File > Open kernel... to change; pick a kernel above to leave it)",
                         p.user->file.c_str(), p.user->entry.c_str(), flags.c_str());
    } else {
      ImGui::TextWrapped("%s", std::string(current.summary).c_str());
    }

    // TILE: 16 and 32 as big buttons (the comparison everyone makes), the rest
    // small. A rung of the ladder has its fixed tiles instead, a user's kernel
    // its block and block tile.
    ImGui::Separator();
    if (p.user) {
      ImGui::Text("Block %u x %u threads", p.user->block.x, p.user->block.y);
      ImGui::Text("Block tile %d x %d cells of C", p.user->rows_per_block(), p.user->cols_per_block());
    } else if (!takes_tile(p.kernel)) {
      const Tiling tl = kernel_tiling(p.kernel, p.tile);
      ImGui::Text("Block tile %u x %u, BK %u", tl.block_m, tl.block_n, tl.block_k);
      ImGui::Text("Thread tile %u x %u", tl.thread_m, tl.thread_n);
      if (tl.warp_m) ImGui::Text("Warp tile %u x %u", tl.warp_m, tl.warp_n);
      if (tl.stages > 1) ImGui::Text("%u pipeline stages", tl.stages);
    } else {
    ImGui::TextUnformatted("TILE");
    const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    for (int tile : {16, 32}) {
      const bool on = p.tile == tile;
      if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
      char text[16];
      std::snprintf(text, sizeof text, "%d", tile);
      if (ImGui::Button(text, ImVec2(half, ImGui::GetFrameHeight() * 1.6f)) && !on) {
        p.tile = tile;
        changed = true;
      }
      if (on) ImGui::PopStyleColor();
      if (tile == 16) ImGui::SameLine();
    }
    for (int tile : {2, 4, 8}) {
      char text[16];
      std::snprintf(text, sizeof text, "%d##t", tile);
      if (ImGui::RadioButton(text, p.tile == tile)) {
        p.tile = tile;
        changed = true;
      }
      ImGui::SameLine();
    }
    ImGui::NewLine();
    occupancy_strip(app);
    }

    // Sizes.
    ImGui::Separator();
    ImGui::TextUnformatted("Sizes");
    const bool square = p.m == p.n && p.n == p.k;
    if (square && !separate_sizes_) changed |= size_field("M = N = K", p.m, &p.n, &p.k);
    ImGui::Checkbox("separate M, K, N", &separate_sizes_);
    if (separate_sizes_ || !square) {
      changed |= size_field("M (rows of A, C)", p.m);
      changed |= size_field("K", p.k);
      changed |= size_field("N (cols of B, C)", p.n);
    }

    // Inputs and device.
    ImGui::Separator();
    int inputs = p.inputs == InputKind::SmallIntegers ? 1 : 0;
    ImGui::TextUnformatted("Inputs");
    if (ImGui::RadioButton("random in [-1, 1]", &inputs, 0)) changed = true;
    ImGui::SameLine();
    if (ImGui::RadioButton("integers 0..4", &inputs, 1)) changed = true;
    p.inputs = inputs == 1 ? InputKind::SmallIntegers : InputKind::Random;
    int seed = static_cast<int>(std::min<std::uint64_t>(p.seed, 0x7FFFFFFF));
    if (int_field("seed (0: keep)", seed, 0, 0x7FFFFFFF)) {
      p.seed = static_cast<std::uint64_t>(seed);
      changed = true;
    }

    ImGui::TextUnformatted("Record on");
    int device = static_cast<int>(p.device);
    const gpu::DeviceStatus& g = app.gpu();
    if (ImGui::RadioButton("auto", &device, static_cast<int>(DeviceChoice::Auto))) changed = true;
    ImGui::SameLine();
    ImGui::BeginDisabled(!g.available);
    if (ImGui::RadioButton("GPU", &device, static_cast<int>(DeviceChoice::Gpu))) changed = true;
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::RadioButton("emulator", &device, static_cast<int>(DeviceChoice::Cpu))) changed = true;
    p.device = static_cast<DeviceChoice>(device);
    if (g.available) ImGui::TextWrapped("GPU: %s (%d SMs)", g.name.c_str(), g.sm_count);
    else dim_wrapped("No GPU: " + g.reason);

    // Preset: seed 003's worked example, small enough to follow by hand.
    ImGui::Separator();
    if (ImGui::Button("Preset: 6 x 6 integers, TILE 2", ImVec2(-1, 0))) {
      p.kernel = KernelKind::Tiled;
      p.tile = 2;
      p.m = p.n = p.k = 6;
      p.inputs = InputKind::SmallIntegers;
      p.seed = kPresetSeed;  // the same numbers every time, as in the screenshots and the guide
      changed = true;
      ++app.view.fit_requests;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The tiled kernel on 6 x 6 matrices of small integers with 2 x 2 tiles (seed 3):\nthe arithmetic can be checked by hand.");

    // A size the kernel cannot take: the rule, and nothing recorded.
    const std::string refusal = size_refusal(p.kernel, p.m, p.n, p.k);
    if (!refusal.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
      ImGui::TextWrapped("%s", refusal.c_str());
      ImGui::PopStyleColor();
      changed = false;
    }

    // Size of what would be recorded.
    const EventCounts counts = expected_counts(p.kernel, p.tile, p.m, p.n, p.k);
    ImGui::TextDisabled("%llu events (%.1f MB)", static_cast<unsigned long long>(counts.total()),
                        static_cast<double>(counts.total()) * sizeof(Event) / 1e6);
    ImGui::Checkbox("re-record on change", &app.record_on_change);
    const float w2 = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    ImGui::BeginDisabled(!refusal.empty());
    if (ImGui::Button(app.busy() ? "Recording..." : "Record", ImVec2(w2, 0)) || (changed && app.record_on_change))
      app.record();
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Same inputs as the trace on screen (unless a seed is set)");
    ImGui::SameLine();
    if (ImGui::Button("New inputs", ImVec2(w2, 0))) app.record_new_inputs();

    // Files.
    ImGui::Separator();
    ImGui::TextUnformatted("Trace file");
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##path", path_, sizeof path_);
    const float w = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    if (ImGui::Button("Open", ImVec2(w, 0))) {
      if (std::strlen(path_) == 0) app.notify(NoticeLevel::Warning, "type the path of a .tstrace file first");
      else app.open_trace(path_);
    }
    ImGui::SameLine();
    if (ImGui::Button("Save", ImVec2(w, 0))) {
      if (std::strlen(path_) == 0) app.notify(NoticeLevel::Warning, "type where to save the trace first");
      else app.save_trace(path_);
    }

    // What is on screen.
    if (const LoadedTrace* t = app.trace()) {
      ImGui::Separator();
      const LaunchInfo& L = t->trace.launch;
      ImGui::TextWrapped("%s", launch_title(L).c_str());
      ImGui::TextWrapped("%s", recorded_by(L).c_str());
      char line[160];
      std::snprintf(line, sizeof line, "; grid %u x %u, block %u x %u", L.grid.x, L.grid.y, L.block.x, L.block.y);
      dim_wrapped(elided(t->origin, kShownPath) + line);
      ImGui::TextDisabled("%llu events, %.1f MB with index", static_cast<unsigned long long>(t->trace.events.size()),
                          static_cast<double>(t->trace.memory_bytes() + t->index->memory_bytes()) / 1e6);
    }
  }

  // One kernel in the picker: selecting it changes the recording's kernel.
  static bool kernel_item(KernelKind k, RecordParams& p, std::string_view title = {}) {
    const KernelInfo& info = kernel_info(k);
    bool picked = false;
    if (ImGui::Selectable(std::string(title.empty() ? info.title : title).c_str(), k == p.kernel && !p.user)) {
      p.kernel = k;
      p.user.reset();  // back to tilescope's own kernels
      picked = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(info.summary).c_str());
    return picked;
  }

  // What TILE does to occupancy, beside the TILE buttons: blocks per SM, the
  // limit that binds and the theoretical occupancy of this kernel and TILE,
  // on this machine's GPU and on the presets a class compares. It follows
  // the controls, so it changes the moment TILE does.
  void occupancy_strip(AppState& app) {
    const RecordParams& p = app.params;
    if (p.kernel != strip_kind_ || p.tile != strip_tile_ || strip_.empty()) {
      strip_kind_ = p.kernel;
      strip_tile_ = p.tile;
      strip_.clear();
      if (app.gpu().available) strip_.push_back(live_occupancy_column(app.gpu(), p.kernel, p.tile, -1));
      for (std::string_view name : kStripPresets)
        if (const auto preset = find_gpu_preset(name)) strip_.push_back(preset_occupancy_column(*preset, p.kernel, p.tile, -1));
    }
    ImGui::TextDisabled("Occupancy at TILE %d", p.tile);
    ScreenOccupancy shown{std::string(kernel_info(p.kernel).name), p.tile, {}, {}};
    const bool any = std::any_of(strip_.begin(), strip_.end(), [](const OccupancyColumn& c) { return c.resources.has_value(); });
    if (!any) {
      ImGui::TextWrapped("%s", strip_.empty() ? "no GPU to compute for" : strip_.back().missing.c_str());
    } else if (ImGui::BeginTable("##occupancy", 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerH)) {
      ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthStretch, 1.2f);
      ImGui::TableSetupColumn("blocks/SM", ImGuiTableColumnFlags_WidthStretch, 1.4f);
      ImGui::TableSetupColumn("occup.", ImGuiTableColumnFlags_WidthStretch, 0.8f);
      ImGui::TableHeadersRow();
      for (const OccupancyColumn& c : strip_) {
        ScreenOccupancyRow& row = shown.rows.emplace_back(ScreenOccupancyRow{c.gpu, false, 0, {}, 0});
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", c.gpu.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.origin.c_str());
        ImGui::TableNextColumn();
        if (!c.resources) {
          ImGui::TextDisabled("-");
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.missing.c_str());
          continue;
        }
        const Occupancy& o = c.occupancy;
        ImGui::TextWrapped("%d, by %s", o.blocks_per_sm, limit_name(o.limiting_factor));
        ImGui::TableNextColumn();
        ImGui::Text("%.0f%%", 100.0 * o.occupancy);
        row = {c.gpu, true, o.blocks_per_sm, limit_name(o.limiting_factor), o.occupancy};
      }
      ImGui::EndTable();
      // Small print: the presets' registers come from a compiler, this build's or the shipped data's.
      shown.registers_from = "presets' registers: " + resource_origin(resource_table());
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::SetWindowFontScale(0.85f);
      ImGui::TextWrapped("%s", shown.registers_from.c_str());
      ImGui::SetWindowFontScale(1.0f);
      ImGui::PopStyleColor();
    }
    app.on_screen_occupancy = std::move(shown);
    if (ImGui::Button("Occupancy panel", ImVec2(-1, 0))) app.view.open_panel = "occupancy";
  }

  // An integer field that commits when editing ends (not on every keystroke),
  // or at once for its +/- buttons. Writes the value to every target.
  bool size_field(const char* label, int& target, int* also1 = nullptr, int* also2 = nullptr) {
    if (!int_field(label, target, 1, kMaxEdit)) return false;
    if (also1) *also1 = target;
    if (also2) *also2 = target;
    return true;
  }
  bool int_field(const char* label, int& target, int lo, int hi) {
    Edit& e = edits_[label];  // what is being typed, kept across frames
    if (!e.active) e.value = target;
    int& v = e.value;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    const bool edited = ImGui::InputInt(label, &v, 1, 16);
    e.active = ImGui::IsItemActive();
    const bool commit = (edited && !e.active) || ImGui::IsItemDeactivatedAfterEdit();
    if (!commit) return false;
    target = std::clamp(v, lo, hi);
    return true;
  }

  static constexpr std::string_view kStripPresets[] = {"rtx5070ti", "h100"};  // seed 001's GPU, and a datacentre one
  KernelKind strip_kind_ = KernelKind::Tiled;
  int strip_tile_ = 0;
  std::vector<OccupancyColumn> strip_;
  bool separate_sizes_ = false;
  struct Edit {
    int value = 0;
    bool active = false;
  };
  std::map<std::string, Edit> edits_;
  char path_[1024] = "trace.tstrace";
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(controls, ts::ui::PanelControls)
