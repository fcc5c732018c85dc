// panel_source.cpp — the kernel's own source, as compiled (the header is
// embedded at build time), with the line of the current phase highlighted:
// kernel headers tag those lines `// [load]`, `// [barrier]`, `// [mac]`
// (tf32-tensor-core: `// [fragment]` and `// [mma]`), `// [store]`; and
// beside each line that touches memory, its figures over the whole launch
// (as `stats --by-line`), the lines that waste in amber.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "app/core/display_text.h"
#include "app/ui/app_state.h"
#include "app/ui/panel_registry.h"
#include "kernels/catalog.h"
#include "kernels/user/user_args.h"
#include "kernels/kernel_sources.h"
#include "kernels/user/user_kernel.h"

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

// The lines that carry the phase's tag (or one of its other tags): all of
// them, or only the n-th (the two barriers share a tag; a kernel with one
// barrier line lights it for both).
std::vector<int> tagged_lines(const std::vector<std::string_view>& lines, SourceTag tag, bool only_occurrence) {
  std::vector<std::string> needles{std::string("// [") + tag.tag + "]"};
  for (const char* other : tag.also)
    if (other) needles.push_back(std::string("// [") + other + "]");
  std::vector<int> all;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i)
    for (const std::string& needle : needles)
      if (lines[i].find(needle) != std::string_view::npos) {
        all.push_back(i);
        break;
      }
  if (!only_occurrence) return all;
  if (tag.occurrence < static_cast<int>(all.size())) return {all[tag.occurrence]};
  if (!all.empty()) return {all.back()};
  return {};
}

// "G 45x 6.3/3.0 sect  S 45x 1.0 wf": global requests, sectors per request
// (ideal); shared requests, wavefronts per request.
std::string figures(const LineStats& s) {
  AccessTotals g = s.memory.total(Space::Global, Op::Load), sh = s.memory.total(Space::Shared, Op::Load);
  g.add(s.memory.total(Space::Global, Op::Store));
  sh.add(s.memory.total(Space::Shared, Op::Store));
  char buf[96];
  std::string out;
  if (g.requests) {
    std::snprintf(buf, sizeof buf, "G %llux %.1f/%.1f sect", static_cast<unsigned long long>(g.requests),
                  g.per_request(), double(g.ideal_sectors) / double(g.requests));
    out += buf;
  }
  if (sh.requests) {
    std::snprintf(buf, sizeof buf, "%sS %llux %.1f wf", out.empty() ? "" : "  ",
                  static_cast<unsigned long long>(sh.requests), sh.per_request());
    out += buf;
  }
  return out;
}

struct PanelSource : Panel {
  PanelSource() : Panel("Kernel source", {PanelSlot::Right, 0.9f, true}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this);
    if (!window) return;
    const LoadedTrace* lt = app.trace();
    if (!lt) return;
    if (const auto& user = lt->trace.launch.user_kernel) return draw_user_source(app, *lt, *user);
    if (const auto& traced = lt->trace.launch.tracer) return draw_traced(*traced);
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
      user_trace_ = nullptr;
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
    draw_lines(app, *lt, hot);
  }

  // A launch the tracer recorded: no source lines yet (its PCs are not mapped
  // to lines), but where it came from, what else ran, and what was not seen.
  void draw_traced(const TracerInfo& t) {
    ImGui::TextWrapped("Traced through the Compute Sanitizer API (%s): the kernel as it was compiled, unmodified.",
                       t.source.c_str());
    ImGui::TextDisabled("program");
    ImGui::TextWrapped("%s", t.program.c_str());
    ImGui::TextDisabled("kernel");
    ImGui::TextWrapped("%s", t.symbol.c_str());
    ImGui::TextDisabled("launches (the traced one marked)");
    for (std::size_t i = 0; i < t.launches.size(); ++i)
      ImGui::Text("%s %zu  %s", i == t.launch_index ? ">" : " ", i, t.launches[i].c_str());
    ImGui::TextDisabled("what the tracer did not see");
    for (const std::string& limit : t.limits) {
      ImGui::Bullet();
      ImGui::TextWrapped("%s", limit.c_str());
    }
    if (t.sass.empty()) return;
    ImGui::TextDisabled("SASS (%zu instructions; the trace's lines number %s)", t.sass.size(),
                        t.source_file.empty() ? "these instructions" : t.source_file.c_str());
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(t.sass.size()));
    while (clip.Step())
      for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i)
        ImGui::TextUnformatted(t.sass[static_cast<std::size_t>(i)].c_str());
  }

  // A user kernel: its file as it is on disk now (the trace says which file; the app
  // records it again when it changes). It has no phase tags: nothing is lit.
  void draw_user_source(AppState& app, const LoadedTrace& lt, const UserKernelInfo& user) {
    const std::int64_t stamp = kernel_file_stamp(user.file);
    if (&lt != user_trace_ || stamp != user_stamp_) {
      user_trace_ = &lt;
      user_stamp_ = stamp;
      try {
        user_text_ = read_kernel_source(user.file);
      } catch (const UserKernelError& e) {
        user_text_ = std::string("// ") + e.what() + "\n";
      }
      shown_file_ = {};
      lines_ = split_lines(user_text_);
    }
    ImGui::TextDisabled("%s  (entry %s%s)", user.file.c_str(), user.entry.c_str(),
                        flags_text(user.defines, user.args).c_str());
    draw_lines(app, lt, {});
  }

  void draw_lines(AppState& app, const LoadedTrace& lt, const std::vector<int>& hot) {
    if (!lt.line_stats_note.empty()) ImGui::TextDisabled("%s", elided(lt.line_stats_note, kShownNotice).c_str());
    by_line_.assign(lines_.size(), nullptr);  // a few lines: rebuilt each frame, never stale
    for (const LineStats& s : lt.line_stats)
      if (s.line >= 1 && s.line <= by_line_.size()) by_line_[s.line - 1] = &s;
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
      if (by_line_[i]) draw_figures(*by_line_[i]);
    }
    last_hot_ = hot;
    ImGui::PopFont();
    ImGui::EndChild();
  }

  // The figures after the code; the findings in a tooltip.
  void draw_figures(const LineStats& s) {
    const std::vector<std::string> found = s.findings();
    ImGui::SameLine(0.0f, 24.0f);
    const ImVec4 color = found.empty() ? ImGui::GetStyle().Colors[ImGuiCol_TextDisabled] : ImVec4(1.0f, 0.7f, 0.3f, 1.0f);
    ImGui::TextColored(color, "%s%s", figures(s).c_str(), found.empty() ? "" : "  (!)");
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::Text("line %u over the whole launch", s.line);
      if (s.global_load_events) ImGui::Text("global loads per element: %.2f", s.loads_per_element());
      for (const std::string& f : found) ImGui::BulletText("%s", f.c_str());
      ImGui::EndTooltip();
    }
  }

  std::string_view shown_file_;
  std::vector<const LineStats*> by_line_;  // per source line, or null
  const LoadedTrace* user_trace_ = nullptr;  // the trace whose user kernel user_text_ holds
  std::int64_t user_stamp_ = 0;
  std::string user_text_;
  std::vector<std::string_view> lines_;
  std::vector<int> last_hot_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(source, ts::ui::PanelSource)
