// panel_source.cpp — the kernel's own source, as compiled (the header is
// embedded at build time), with the line of the current phase highlighted:
// kernel headers tag those lines `// [load]`, `// [barrier]`, `// [mac]`,
// `// [store]`.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "app/core/display_text.h"
#include "app/render/embedded_files.h"
#include "app/ui/app_state.h"
#include "app/ui/panel_registry.h"
#include "kernels/catalog.h"

namespace ts::ui {
namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

// The lines that carry the phase's tag: all of them, or only the n-th
// (the two barriers share a tag).
std::vector<int> tagged_lines(const std::vector<std::string_view>& lines, SourceTag tag, bool only_occurrence) {
  const std::string needle = std::string("// [") + tag.tag + "]";
  std::vector<int> all;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i)
    if (lines[i].find(needle) != std::string_view::npos) all.push_back(i);
  if (!only_occurrence) return all;
  if (tag.occurrence < static_cast<int>(all.size())) return {all[tag.occurrence]};
  return {};
}

struct PanelSource : Panel {
  PanelSource() : Panel("Kernel source", {PanelSlot::Right, 0.9f, true}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this);
    if (!window) return;
    const LoadedTrace* lt = app.trace();
    if (!lt) return;
    const auto kind = find_kernel(lt->trace.launch.kernel);
    if (!kind) {
      ImGui::TextWrapped("This trace's kernel '%s' is unknown to this build.", elided(lt->trace.launch.kernel, kShownKernel).c_str());
      return;
    }
    const KernelInfo& info = kernel_info(*kind);
    const embed::File* file = embed::find_file(embed::kernel_sources(), info.source_file);
    if (!file) {
      ImGui::TextWrapped("kernels/%s is not embedded in this build.", std::string(info.source_file).c_str());
      return;
    }
    if (file->name != shown_file_) {
      shown_file_ = file->name;
      lines_ = split_lines(file->text);
    }
    const ReplayStep s = app.step();
    const SourceTag tag = phase_source_tag(s.phase);
    const std::vector<int> hot = tagged_lines(lines_, tag, s.phase == Phase::Barrier || s.phase == Phase::Sync);
    const Tiling& tl = lt->trace.launch.tiling;
    if (takes_tile(*kind))
      ImGui::TextDisabled("kernels/%s  (template instantiated with TILE = %d)", std::string(info.source_file).c_str(),
                          lt->trace.launch.tile);
    else
      ImGui::TextDisabled("kernels/%s  (BM x BN x BK = %u x %u x %u, TM x TN = %u x %u)",
                          std::string(info.source_file).c_str(), tl.block_m, tl.block_n, tl.block_k, tl.thread_m,
                          tl.thread_n);
    ImGui::BeginChild("##code", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(app.fonts.code(app.view.presentation));
    const float line_h = ImGui::GetTextLineHeight();
    const bool phase_changed = hot != last_hot_;
    for (int i = 0; i < static_cast<int>(lines_.size()); ++i) {
      const bool is_hot = std::find(hot.begin(), hot.end(), i) != hot.end();
      if (is_hot) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + ImGui::GetContentRegionAvail().x + ImGui::GetScrollMaxX() + 2000, p.y + line_h),
                                                  IM_COL32(150, 120, 20, 170));
        if (phase_changed && i == hot.front()) ImGui::SetScrollHereY(0.4f);
      }
      ImGui::TextUnformatted(lines_[i].data(), lines_[i].data() + lines_[i].size());
    }
    last_hot_ = hot;
    ImGui::PopFont();
    ImGui::EndChild();
  }

  std::string_view shown_file_;
  std::vector<std::string_view> lines_;
  std::vector<int> last_hot_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(source, ts::ui::PanelSource)
