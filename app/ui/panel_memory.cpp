// panel_memory.cpp — the memory requests of the selected cell's warp at the
// current step: for a global access, its 32 lanes -> addresses -> the 32-byte
// sectors they touch (coalescing); for a shared access, the 32 banks and the
// lanes that hit each, one row per wavefront (bank conflicts). Follows the
// replay (the request the step is about) or steps through the warp's requests.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/core/analysis/memory_stats.h"
#include "app/core/display_text.h"
#include "app/core/analysis/warp_view.h"
#include "app/ui/app_state.h"
#include "app/ui/memory_widgets.h"
#include "app/ui/palette.h"
#include "app/ui/panel_registry.h"

namespace ts::ui {
namespace {

ImU32 to_u32(render::Rgba8 c) { return IM_COL32(c.r, c.g, c.b, c.a); }

constexpr render::Rgba8 kLane{70, 120, 200}, kLaneOff{55, 57, 64}, kSector{60, 160, 90}, kSectorUnused{45, 60, 50},
    kWordOk{60, 160, 90}, kWordConflict{215, 80, 60};

// A buffer's or region's name, as the launch's tables give it.
std::string memory_name(const LaunchInfo& L, std::uint32_t id) { return elided(L.memory_name(id), 24); }

std::string request_title(const LaunchInfo& L, const WarpRequestView& v) {
  const WarpRequest& r = v.request;
  const std::string name = memory_name(L, static_cast<std::uint32_t>(r.array));
  char buf[160];
  if (r.space() == Space::Global)
    std::snprintf(buf, sizeof buf, "%s %s #%u: %u lanes, %u sectors", name.c_str(), op_name(r.op), r.ordinal,
                  r.count, v.footprint.sectors);
  else
    std::snprintf(buf, sizeof buf, "%s %s #%u: %u lanes, %u-way", name.c_str(), op_name(r.op), r.ordinal,
                  r.count, v.banks.ways);
  return buf;
}

struct PanelMemory : Panel {
  PanelMemory() : Panel("Warp memory", {PanelSlot::Right, 1.0f, true}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this);
    if (!window) return;
    const LoadedTrace* lt = app.trace();
    const std::optional<CellHighlight>& h = app.highlight();
    if (!lt || !h) {
      ImGui::TextWrapped("Click a cell of C: its warp's memory requests at each step appear here, lane by lane, "
                         "with the sectors (global) or banks (shared) they touch.");
      return;
    }
    const Trace& t = lt->trace;
    refresh(app, t, *h);
    ImGui::Text("block (%u, %u), warp %u, step %u: %zu requests", h->coord.block.x, h->coord.block.y, h->coord.warp,
                h->step.iteration, views_.size());
    ImGui::Checkbox("follow the replay", &follow_);
    if (views_.empty()) {
      ImGui::TextDisabled("this warp makes no memory request in this step");
      return;
    }
    // The requests this step is about, as buttons; following the replay
    // picks the costliest of them.
    const std::vector<std::size_t> now = requests_at(views_, h->step, app.timeline());
    if (follow_ && (followed_key_ != key_ || followed_step_ != h->step)) {
      followed_key_ = key_;
      followed_step_ = h->step;
      if (const auto worst = costliest(views_, now)) selected_ = *worst;
    }
    selected_ = std::min(selected_, views_.size() - 1);
    for (std::size_t i : now) {
      ImGui::SameLine();
      char label[48];
      std::snprintf(label, sizeof label, "%s %s##now%zu",
                    memory_name(t.launch, static_cast<std::uint32_t>(views_[i].request.array)).c_str(),
                    op_name(views_[i].request.op), i);
      if (ImGui::RadioButton(label, selected_ == i)) selected_ = i;
    }
    if (ImGui::ArrowButton("##prev", ImGuiDir_Left) && selected_ > 0) --selected_, follow_ = false;
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next", ImGuiDir_Right) && selected_ + 1 < views_.size()) ++selected_, follow_ = false;
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##request", request_title(t.launch, views_[selected_]).c_str())) {
      for (std::size_t i = 0; i < views_.size(); ++i)
        if (ImGui::Selectable(request_title(t.launch, views_[i]).c_str(), i == selected_)) selected_ = i, follow_ = false;
      ImGui::EndCombo();
    }
    const WarpRequestView& v = views_[selected_];
    if (v.request.space() == Space::Global) draw_warp_view(t, v);
    else draw_bank_view(t, v);

    if (ImGui::CollapsingHeader("this warp and this block, this step")) {
      const CounterColumn columns[] = {{"warp", &warp_counters_}, {"block", &block_counters_}};
      counter_table("##scope", columns);
    }
  }

 private:
  void refresh(AppState& app, const Trace& t, const CellHighlight& h) {
    const Key key{app.trace_generation(), h.coord.block_linear, h.coord.warp, h.step.iteration};
    if (key == key_) return;
    // The block's and the warp's alignments are kept while the replay steps:
    // a new step only picks its requests and counts out of them.
    if (!aligned_ || key.generation != key_.generation || key.block != key_.block) {
      block_steps_ = std::make_unique<BlockStepStats>(t, key.block);
      aligned_.reset();
    }
    if (!aligned_ || key.warp != key_.warp) {
      aligned_ = std::make_unique<WarpAligner>(t);
      aligned_->align(key.block, key.warp, true);
    }
    key_ = key;
    views_ = warp_request_views(t, *aligned_, key.step);
    warp_counters_ = memory_counters_json(block_steps_->warp(key.warp, key.step));
    block_counters_ = memory_counters_json(block_steps_->block(key.step));
    selected_ = 0;
  }

  // 32 lanes on top, the touched lines' sectors below, a line from each lane
  // to its sector: a coalesced warp draws a fan into one line's 4 sectors.
  void draw_warp_view(const Trace& t, const WarpRequestView& v) {
    const GlobalFootprint& f = v.footprint;
    ImGui::TextWrapped("%u lanes read %u distinct floats; they touch %u sectors of 32 bytes in %u lines of 128 "
                       "(ideal: %u sectors): %.0f%% of the bytes moved are used.",
                       f.lanes, f.words, f.sectors, f.lines, f.ideal_sectors(),
                       f.sectors ? 100.0 * f.words * kElementBytes / (f.sectors * kSectorBytes) : 0.0);
    if (v.copy_line_wavefronts)
      ImGui::TextWrapped("A cp.async copy: its write to %s takes %u more wavefronts, one per 128-byte line it reads "
                         "beyond the first in each phase (measured on Hopper; counted with the shared stores as bank "
                         "conflicts).",
                         memory_name(t.launch, static_cast<std::uint32_t>(v.request.copy_to)).c_str(), v.copy_line_wavefronts);
    // The touched lines, each as its 4 sector slots.
    std::vector<std::uint64_t> lines;
    for (std::uint64_t s : v.sectors)
      if (lines.empty() || lines.back() != s / 4) lines.push_back(s / 4);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);
    const float lane_w = width / kWarpSize, box_h = ImGui::GetFontSize() * 1.4f;
    const float slot_gap = 3.0f, slots = static_cast<float>(lines.size() * 4);
    const float slot_w = std::max(2.0f, (width - slot_gap * static_cast<float>(lines.size())) / std::max(1.0f, slots));
    const float sectors_y = origin.y + box_h * 4.0f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    auto slot_x = [&](std::uint64_t sector) {
      const auto line = static_cast<std::size_t>(std::lower_bound(lines.begin(), lines.end(), sector / 4) - lines.begin());
      return origin.x + static_cast<float>(line) * (4 * slot_w + slot_gap) + static_cast<float>(sector % 4) * slot_w;
    };
    std::vector<const LaneView*> by_lane(kWarpSize, nullptr);
    for (const LaneView& l : v.lanes) by_lane[l.lane] = &l;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const LaneView* hovered = nullptr;
    for (std::uint32_t lane = 0; lane < kWarpSize; ++lane) {
      const ImVec2 p0(origin.x + lane * lane_w + 1, origin.y), p1(origin.x + (lane + 1) * lane_w - 1, origin.y + box_h);
      dl->AddRectFilled(p0, p1, to_u32(by_lane[lane] ? kLane : kLaneOff), 2.0f);
      if (lane_w > ImGui::GetFontSize() * 1.2f) {
        char label[8];
        std::snprintf(label, sizeof label, "%u", lane);
        dl->AddText(ImVec2(p0.x + 2, p0.y + 2), IM_COL32_WHITE, label);
      }
      if (const LaneView* l = by_lane[lane]) {
        const float sx = slot_x(v.sectors[l->sector]) + slot_w * 0.5f;
        dl->AddLine(ImVec2((p0.x + p1.x) * 0.5f, p1.y), ImVec2(sx, sectors_y), IM_COL32(200, 200, 200, 110), 1.0f);
        if (mouse.x >= p0.x && mouse.x < p1.x && mouse.y >= p0.y && mouse.y < p1.y) hovered = l;
      }
    }
    for (std::uint64_t line : lines)
      for (std::uint64_t s = line * 4; s < line * 4 + 4; ++s) {
        const bool used = std::binary_search(v.sectors.begin(), v.sectors.end(), s);
        const float x = slot_x(s);
        dl->AddRectFilled(ImVec2(x + 0.5f, sectors_y), ImVec2(x + slot_w - 0.5f, sectors_y + box_h),
                          to_u32(used ? kSector : kSectorUnused));
      }
    dl->AddText(ImVec2(origin.x, sectors_y + box_h + 2), IM_COL32(180, 180, 180, 255),
                "sectors of the touched 128-byte lines (dark: not touched)");
    ImGui::Dummy(ImVec2(width, sectors_y - origin.y + box_h * 2.2f));
    if (hovered) {
      const auto id = static_cast<std::uint32_t>(v.request.array);
      const std::string name = memory_name(t.launch, id);
      const Buffer* buffer = t.launch.buffer_at(id);
      ImGui::BeginTooltip();
      ImGui::Text("lane %u: %s[%u][%u]", hovered->lane, name.c_str(), hovered->element.row, hovered->element.col);
      ImGui::Text("address 0x%llx (byte %llu of %s)", static_cast<unsigned long long>(hovered->address),
                  static_cast<unsigned long long>(hovered->address - (buffer ? buffer->base : 0)), name.c_str());
      ImGui::Text("sector %llu, line %llu", static_cast<unsigned long long>(hovered->address / kSectorBytes),
                  static_cast<unsigned long long>(hovered->address / kLineBytes));
      ImGui::EndTooltip();
    }
  }

  // 32 banks across, one row per wavefront as the access is served: phase by
  // phase (a line between them), each bank's distinct words of the phase in
  // address order, and the lanes that read each word; red rows are conflicts.
  void draw_bank_view(const Trace& t, const WarpRequestView& v) {
    const BankAccess& b = v.banks;
    ImGui::TextWrapped("%u lanes, %u distinct words: %u-way, %u wavefronts in %u phases (%u bank conflicts)%s", b.lanes,
                       b.distinct_words, b.ways, b.wavefronts(), b.phases, b.conflicts(),
                       b.broadcast_lanes ? "; lanes on the same word share it (broadcast)" : "");
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);
    const float col_w = width / kBanks, font = ImGui::GetFontSize();
    const auto rows = static_cast<std::uint32_t>(std::max<std::size_t>(1, v.wavefronts.size()));
    const float row_h = std::clamp(ImGui::GetContentRegionAvail().y / static_cast<float>(rows + 3), 4.0f, font * 1.3f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    std::optional<std::pair<std::uint32_t, std::uint32_t>> hovered;  // (bank, wavefront)
    for (std::uint32_t bank = 0; bank < kBanks && col_w > font * 1.2f; ++bank) {
      char label[8];
      std::snprintf(label, sizeof label, "%u", bank);
      dl->AddText(ImVec2(origin.x + bank * col_w + 2, origin.y), IM_COL32(180, 180, 180, 255), label);
    }
    for (std::uint32_t w = 0; w < v.wavefronts.size(); ++w) {
      const BankWavefront& row = v.wavefronts[w];
      const float y0 = origin.y + font * 1.2f + w * row_h, y1 = y0 + row_h - 1;
      if (w > 0 && row.phase != v.wavefronts[w - 1].phase)
        dl->AddLine(ImVec2(origin.x, y0 - 0.5f), ImVec2(origin.x + width, y0 - 0.5f), IM_COL32(200, 200, 200, 255));
      for (std::uint32_t bank = 0; bank < kBanks; ++bank) {
        if (row.word[bank] < 0) continue;
        const float x0 = origin.x + bank * col_w + 1, x1 = origin.x + (bank + 1) * col_w - 1;
        dl->AddRectFilled(ImVec2(x0, y0 + 1), ImVec2(x1, y1), to_u32(row.conflict ? kWordConflict : kWordOk), 1.0f);
        if (mouse.x >= x0 && mouse.x < x1 && mouse.y >= y0 && mouse.y < y1) hovered = {{bank, w}};
      }
    }
    ImGui::Dummy(ImVec2(width, font * 1.2f + rows * row_h + 4));
    ImGui::TextDisabled("columns: banks; rows: wavefronts, phase by phase (red: a conflict); hover for the lanes");
    if (hovered) {
      const auto [bank, w] = *hovered;
      const BankWavefront& row = v.wavefronts[w];
      ImGui::BeginTooltip();
      ImGui::Text("bank %u, wavefront %u (phase %u)", bank, w, row.phase);
      std::string lanes;
      const LaneView* any = nullptr;
      for (const LaneView& l : v.lanes)
        if (row.lanes[bank] >> (l.lane % 32) & 1u) {
          if (!lanes.empty()) lanes += ' ';
          lanes += std::to_string(l.lane);
          if (!any) any = &l;
        }
      if (any) {
        // A lane's vector covers words from its first: the hovered one is that many floats on.
        const auto along = static_cast<std::uint64_t>(row.word[bank]) - any->address / kBankWordBytes;
        ImGui::Text("%s[%u][%u]%s (byte offset %llu)",
                    memory_name(t.launch, static_cast<std::uint32_t>(v.request.array)).c_str(), any->element.row,
                    any->element.col, along ? (" + " + std::to_string(along) + " floats").c_str() : "",
                    static_cast<unsigned long long>(row.word[bank]) * kBankWordBytes);
        ImGui::TextWrapped("lanes: %s", lanes.c_str());
      }
      ImGui::EndTooltip();
    }
  }

  struct Key {
    std::uint64_t generation = ~0ull;
    std::uint32_t block = 0, warp = 0, step = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  Key key_;
  std::unique_ptr<BlockStepStats> block_steps_;  // of key_.block
  std::unique_ptr<WarpAligner> aligned_;         // key_.warp of key_.block, in program order
  std::vector<WarpRequestView> views_;
  nlohmann::json warp_counters_, block_counters_;
  std::size_t selected_ = 0;
  bool follow_ = true;
  Key followed_key_;  // where the selection last followed the replay to
  ReplayStep followed_step_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(memory, ts::ui::PanelMemory)
