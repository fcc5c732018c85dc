// panel_occupancy.cpp — why TILE changes occupancy. For the kernel and TILE
// on screen (or any other), GPUs side by side: the one in this machine
// (numbers from the CUDA runtime) and presets (documented limits, registers
// from ptxas at build time). Each shows what a block needs, the blocks per SM
// every limit allows, which one binds, and an SM drawn filling with blocks
// and warps; below, the occupancy of every kernel and TILE (and of each of
// the ladder's rungs, whose tiles are fixed) on the first GPU.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "trace/model/gpu_presets.h"
#include "app/ui/app_state.h"
#include "app/ui/occupancy_columns.h"
#include "app/ui/panel_registry.h"
#include "kernels/catalog.h"
#include "kernels/kernel_resources.h"

namespace ts::ui {
namespace {

using Column = OccupancyColumn;

ImU32 block_color(int block, float alpha = 1.0f) {
  return ImColor::HSV(static_cast<float>(block % 12) / 12.0f, 0.55f, 0.85f, alpha);
}

std::string limit_text(int blocks) { return blocks >= Occupancy::kUnlimited ? "-" : std::to_string(blocks); }

struct PanelOccupancy : Panel {
  PanelOccupancy() : Panel("Occupancy", {PanelSlot::Float, 1.0f, false}) {
    for (const GpuPreset& p : gpu_presets())
      preset_on_.push_back(p.short_name == "rtx5070ti" || p.short_name == "h100");
  }

  void Draw(AppState& app) override {
    const PanelWindow window(*this);
    if (!window) return;
    draw_choices(app);
    if (follow_) {
      kind_ = app.params.kernel;
      tile_ = app.params.tile;
    }
    refresh(app);
    ImGui::Separator();
    if (columns_.empty()) {
      ImGui::TextWrapped("Choose a GPU: this machine's, or presets.");
    } else if (ImGui::BeginTable("##gpus", static_cast<int>(columns_.size()),
                                 ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollX)) {
      for (std::size_t i = 0; i < columns_.size(); ++i)
        ImGui::TableSetupColumn(columns_[i].title.c_str(), ImGuiTableColumnFlags_WidthFixed,
                                ImGui::GetFontSize() * 20.0f);
      ImGui::TableHeadersRow();
      ImGui::TableNextRow();
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        ImGui::TableSetColumnIndex(static_cast<int>(i));
        ImGui::PushID(static_cast<int>(i));
        draw_column(columns_[i]);
        ImGui::PopID();
      }
      ImGui::EndTable();
    }
    if (!columns_.empty()) draw_overview(columns_.front());
  }

 private:
  void draw_choices(AppState& app) {
    ImGui::Checkbox("follow Controls", &follow_);
    ImGui::SameLine();
    ImGui::BeginDisabled(follow_);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 11);
    if (ImGui::BeginCombo("##kernel", std::string(kernel_info(kind_).name).c_str())) {
      for (KernelKind k : kAllKernels)
        if (ImGui::Selectable(std::string(kernel_info(k).name).c_str(), k == kind_)) kind_ = k;
      ImGui::Separator();
      for (KernelKind k : kRungKernels)
        if (ImGui::Selectable(std::string(kernel_info(k).name).c_str(), k == kind_)) kind_ = k;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(!takes_tile(kind_));  // a rung's tiles are fixed
    for (int t : kAllTiles) {
      char label[16];
      std::snprintf(label, sizeof label, "%d##tile", t);
      if (ImGui::RadioButton(label, tile_ == t)) tile_ = t;
      ImGui::SameLine();
    }
    ImGui::EndDisabled();
    ImGui::EndDisabled();
    ImGui::NewLine();

    // GPUs: this machine's first, then the presets the user ticks.
    const gpu::DeviceStatus& g = app.gpu();
    ImGui::BeginDisabled(!g.available);
    bool live = live_on_ && g.available;
    if (ImGui::Checkbox(g.available ? ("this machine: " + g.name).c_str() : "this machine (no GPU)", &live))
      live_on_ = live;
    ImGui::EndDisabled();
    if (!g.available && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", g.reason.c_str());
    const auto presets = gpu_presets();
    for (std::size_t i = 0; i < presets.size(); ++i) {
      const float need = ImGui::CalcTextSize(std::string(presets[i].short_name).c_str()).x + ImGui::GetFrameHeight() * 2;
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < need) ImGui::NewLine();  // wrap
      bool on = preset_on_[i];
      if (ImGui::Checkbox(std::string(presets[i].short_name).c_str(), &on)) preset_on_[i] = on;
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s (%s), compute capability %d.%d, %d SMs", std::string(presets[i].name).c_str(),
                          std::string(presets[i].chip).c_str(), presets[i].compute_capability / 10,
                          presets[i].compute_capability % 10, presets[i].sm_count);
    }
    ImGui::Checkbox("largest shared-memory carve-out (as the occupancy API assumes)", &carveout_largest_);
    if (!carveout_largest_) {
      ImGui::SameLine();
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
      ImGui::SliderInt("KiB preferred", &carveout_kib_, 0, 228);
    }
  }

  // Recomputes the columns when the question changes (the live GPU's
  // attribute queries are cheap, but not free, and the answer never changes).
  void refresh(AppState& app) {
    std::string key = std::to_string(static_cast<int>(kind_)) + "/" + std::to_string(tile_) + "/" +
                      std::to_string(carveout_bytes()) + "/" + (live_on_ && app.gpu().available ? "L" : "-");
    for (bool on : preset_on_) key += on ? '1' : '0';
    if (key == key_) return;
    key_ = key;
    columns_.clear();
    if (live_on_ && app.gpu().available)
      columns_.push_back(live_occupancy_column(app.gpu(), kind_, tile_, carveout_bytes()));
    const auto presets = gpu_presets();
    for (std::size_t i = 0; i < presets.size(); ++i)
      if (preset_on_[i]) columns_.push_back(preset_occupancy_column(presets[i], kind_, tile_, carveout_bytes()));
  }

  int carveout_bytes() const { return carveout_largest_ ? -1 : carveout_kib_ * 1024; }

  void draw_column(const Column& c) {
    ImGui::TextWrapped("%s", c.origin.c_str());
    if (!c.resources) {
      ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f), "%s", c.missing.c_str());
      return;
    }
    const KernelResources& k = *c.resources;
    const Occupancy& o = c.occupancy;
    ImGui::TextWrapped("block: %d threads = %d warps", k.threads_per_block, o.warps_per_block);
    ImGui::TextWrapped("registers: %d per thread, %d per warp allocated", k.registers_per_thread, o.registers_per_warp);
    ImGui::TextWrapped("shared memory: %d B + %d B reserved = %d B per block", k.static_shared_bytes + k.dynamic_shared_bytes,
                       c.limits.reserved_shared_per_block, o.shared_per_block);
    if (ImGui::BeginTable("##limits", 3, ImGuiTableFlags_SizingFixedFit)) {
      for (OccupancyLimit l : kAllOccupancyLimits) {
        const bool binds = std::find(o.binding.begin(), o.binding.end(), l) != o.binding.end();
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(limit_name(l));
        ImGui::TableSetColumnIndex(1);
        if (binds) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s", limit_text(o.limit_value(l)).c_str());
        else ImGui::TextDisabled("%s", limit_text(o.limit_value(l)).c_str());
        ImGui::TableSetColumnIndex(2);
        ImGui::TextDisabled("%s", limit_detail(c, l).c_str());
      }
      ImGui::EndTable();
    }
    ImGui::Text("%d blocks/SM, %d of %d warps", o.blocks_per_sm, o.active_warps_per_sm, o.max_warps_per_sm);
    ImGui::Text("occupancy %.1f%%, bound by %s", 100.0 * o.occupancy, limit_name(o.limiting_factor));
    if (!o.unlaunchable.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", o.unlaunchable.c_str());
    if (c.api_blocks_per_sm)
      ImGui::TextDisabled("CUDA occupancy API: %d blocks/SM%s", *c.api_blocks_per_sm,
                          *c.api_blocks_per_sm == o.blocks_per_sm ? " (agrees)" : " (differs!)");
    draw_sm(c);
  }

  static std::string limit_detail(const Column& c, OccupancyLimit l) {
    const SmLimits& s = c.limits;
    const Occupancy& o = c.occupancy;
    char buf[96];
    switch (l) {
      case OccupancyLimit::Threads: std::snprintf(buf, sizeof buf, "%d / SM", s.max_threads_per_sm); break;
      case OccupancyLimit::Warps: std::snprintf(buf, sizeof buf, "%d / SM", s.max_warps_per_sm()); break;
      case OccupancyLimit::Registers: std::snprintf(buf, sizeof buf, "%dK / SM", s.registers_per_sm / 1024); break;
      case OccupancyLimit::SharedMemory: std::snprintf(buf, sizeof buf, "%d KiB carve-out", o.shared_per_sm / 1024); break;
      case OccupancyLimit::Blocks: std::snprintf(buf, sizeof buf, "%d / SM", s.max_blocks_per_sm); break;
      case OccupancyLimit::Barriers: std::snprintf(buf, sizeof buf, "%s", s.barriers_per_block_slot ? "named barriers" : "no limit"); break;
    }
    return buf;
  }

  // The SM: its warp slots in four sub-partition rows, each resident
  // block's warps in its own colour (filled as far as the warp has threads),
  // and how full the register file and shared memory are.
  static void draw_sm(const Column& c) {
    const Occupancy& o = c.occupancy;
    const int slots = std::max(1, o.max_warps_per_sm), parts = std::max(1, c.limits.register_sub_partitions);
    const int per_part = (slots + parts - 1) / parts;
    const float cell = std::clamp(ImGui::GetFontSize() * 0.8f, 8.0f, 18.0f), gap = 2.0f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const int threads = c.resources->threads_per_block;
    int hovered_block = -1;
    for (int w = 0; w < slots; ++w) {
      // Warps go round-robin to the sub-partitions' schedulers.
      const int row = w % parts, col = w / parts;
      const ImVec2 a(p0.x + col * (cell + gap), p0.y + row * (cell + gap)), b(a.x + cell, a.y + cell);
      const int block = o.warps_per_block ? w / o.warps_per_block : 0;
      if (w < o.active_warps_per_sm) {
        const int lanes = std::min(32, threads - (w % o.warps_per_block) * 32);
        dl->AddRectFilled(a, b, block_color(block, 0.25f));
        dl->AddRectFilled(a, ImVec2(a.x + cell * lanes / 32.0f, b.y), block_color(block));
        if (ImGui::IsMouseHoveringRect(a, b)) hovered_block = block;
      } else {
        dl->AddRect(a, b, IM_COL32(110, 110, 120, 255));
      }
    }
    ImGui::Dummy(ImVec2(per_part * (cell + gap), parts * (cell + gap)));
    if (hovered_block >= 0)
      ImGui::SetTooltip("block %d of %d on this SM: %d warps, %d threads", hovered_block + 1, o.blocks_per_sm,
                        o.warps_per_block, threads);
    auto bar = [&](const char* what, double used, double total) {
      const float frac = total > 0 ? static_cast<float>(std::min(1.0, used / total)) : 0.0f;
      char text[96];
      std::snprintf(text, sizeof text, "%s %.0f%%", what, 100.0 * frac);
      ImGui::ProgressBar(frac, ImVec2(ImGui::GetFontSize() * 15, 0), text);
    };
    bar("warp slots", o.active_warps_per_sm, slots);
    bar("registers", double(o.blocks_per_sm) * o.registers_per_block, c.limits.registers_per_sm);
    bar("shared memory", double(o.blocks_per_sm) * o.shared_per_block, o.shared_per_sm);
    bar("block slots", o.blocks_per_sm, c.limits.max_blocks_per_sm);
  }

  // Every kernel and TILE on one GPU: the occupancy and what binds.
  void draw_overview(const Column& first) {
    ImGui::Separator();
    ImGui::TextDisabled("every kernel and TILE on %s", first.title.c_str());
    if (!ImGui::BeginTable("##overview", 1 + static_cast<int>(std::size(kAllTiles)),
                           ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit))
      return;
    ImGui::TableSetupColumn("kernel");
    for (int t : kAllTiles) ImGui::TableSetupColumn(("TILE " + std::to_string(t)).c_str());
    ImGui::TableHeadersRow();
    const auto cell = [&](KernelKind k, int t) {
      std::optional<KernelResources> r =
          first.live ? live_resources(k, t) : compiled_kernel_resources(first.limits.compute_capability, k, t);
      if (!r) {
        ImGui::TextDisabled("?");
        return;
      }
      const Occupancy o = compute_occupancy(first.limits, *r, carveout_bytes());
      const bool current = k == kind_ && (t == tile_ || !takes_tile(k));
      if (!o.unlaunchable.empty()) {
        ImGui::TextDisabled("no launch");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", o.unlaunchable.c_str());
        return;
      }
      ImGui::TextColored(current ? ImVec4(1.0f, 0.8f, 0.3f, 1.0f) : ImVec4(0.85f, 0.85f, 0.9f, 1.0f), "%3.0f%% %s",
                         100.0 * o.occupancy, limit_name(o.limiting_factor));
    };
    for (KernelKind k : kAllKernels) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(std::string(kernel_info(k).name).c_str());
      for (std::size_t i = 0; i < std::size(kAllTiles); ++i) {
        ImGui::TableSetColumnIndex(static_cast<int>(i) + 1);
        cell(k, kAllTiles[i]);
      }
    }
    for (KernelKind k : kRungKernels) {  // the ladder's rungs: fixed tiles, one figure each
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(std::string(kernel_info(k).name).c_str());
      ImGui::TableSetColumnIndex(1);
      cell(k, 0);
      ImGui::TableSetColumnIndex(2);
      ImGui::TextDisabled("(fixed tiles)");
    }
    ImGui::EndTable();
  }

  // The live GPU's resources for the overview, queried once per kernel and TILE.
  std::optional<KernelResources> live_resources(KernelKind k, int t) {
    const auto key = std::make_pair(k, t);
    if (auto it = live_cache_.find(key); it != live_cache_.end()) return it->second;
    try {
      return live_cache_[key] = gpu::live_plain_occupancy(k, t).resources;
    } catch (const gpu::GpuError&) {
      return std::nullopt;
    }
  }

  bool follow_ = true;
  KernelKind kind_ = KernelKind::Tiled;
  int tile_ = 16;
  bool carveout_largest_ = true;
  int carveout_kib_ = 64;
  bool live_on_ = true;
  std::vector<bool> preset_on_;
  std::string key_;
  std::vector<Column> columns_;
  std::map<std::pair<KernelKind, int>, KernelResources> live_cache_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(occupancy, ts::ui::PanelOccupancy)
