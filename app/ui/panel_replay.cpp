// panel_replay.cpp — the transport under the matrices: play / pause with a
// speed, step buttons, a scrubber over every step, 'all blocks' mode. The
// buttons wrap onto more rows when the window is narrow (presentation mode).
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "app/ui/app_state.h"
#include "app/ui/panel_registry.h"

namespace ts::ui {
namespace {

constexpr const char* kButtons[] = {"|<", "<<", "<", "Pause", ">", ">>", ">|"};
constexpr int kPlayButton = 3;
constexpr const char* kSpeedLabel = "steps/s";
constexpr const char* kAllBlocksLabel = "all blocks";

struct PanelReplay : Panel {
  PanelReplay() : Panel("Replay", {PanelSlot::Bottom, 1.0f, true, true}) {}

  // Rows of buttons for the width (they wrap), then the scrubber.
  float height_for_width(float width) const override {
    const ImGuiStyle& st = ImGui::GetStyle();
    const int rows = count_rows(width - 2 * st.WindowPadding.x) + 1;
    const float title = ImGui::GetFontSize() + 2 * st.FramePadding.y;
    return title + 2 * st.WindowPadding.y + rows * ImGui::GetFrameHeight() + (rows - 1) * st.ItemSpacing.y +
           2 * st.WindowBorderSize + 2.0f;
  }

  void Draw(AppState& app) override {
    const PanelWindow window(*this, ImGuiWindowFlags_NoScrollbar);
    if (!window) return;
    const ReplayTimeline& tl = app.timeline();
    const ReplayStep s = app.step();
    ImGui::BeginDisabled(app.trace() == nullptr);
    const std::vector<float> widths = item_widths();
    Flow flow{ImGui::GetContentRegionAvail().x};
    flow.next(widths[0]);
    if (ImGui::Button("|<")) app.set_step(0);
    flow.next(widths[1]);
    if (ImGui::Button("<<")) app.set_step(tl.first_step_of_iteration(s.iteration == 0 ? 0 : s.iteration - 1));
    flow.next(widths[2]);
    if (ImGui::Button("<")) app.step_by(-1);
    flow.next(widths[kPlayButton]);
    if (ImGui::Button(app.replay.playing ? "Pause" : "Play", ImVec2(widths[kPlayButton], 0))) app.toggle_playing();
    flow.next(widths[4]);
    if (ImGui::Button(">")) app.step_by(1);
    flow.next(widths[5]);
    if (ImGui::Button(">>")) app.set_step(tl.first_step_of_iteration(s.iteration + 1));
    flow.next(widths[6]);
    if (ImGui::Button(">|")) app.set_step(tl.last_step());
    flow.next(widths[7]);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderFloat(kSpeedLabel, &app.replay.steps_per_second, 0.5f, 60.0f, "%.1f", ImGuiSliderFlags_Logarithmic);
    flow.next(widths[8]);
    ImGui::Checkbox(kAllBlocksLabel, &app.replay.all_blocks);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Shade the A and B tiles every block loads in this iteration (B)");

    // The scrubber, labelled with where the step is.
    char label[160];
    if (s.phase == Phase::Store)
      std::snprintf(label, sizeof label, "step %u / %u: store C", app.replay.step, tl.last_step());
    else if (s.phase == Phase::Mac)
      std::snprintf(label, sizeof label, "step %u / %u: iteration %u, k = %u", app.replay.step, tl.last_step(),
                    s.iteration, s.k);
    else
      std::snprintf(label, sizeof label, "step %u / %u: iteration %u, %s", app.replay.step, tl.last_step(), s.iteration,
                    phase_name(s.phase));
    int step = static_cast<int>(app.replay.step);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderInt("##scrub", &step, 0, static_cast<int>(tl.last_step()), label)) {
      app.set_step(static_cast<std::uint32_t>(step));
      app.replay.playing = false;
    }
    ImGui::EndDisabled();
  }

 private:
  // Items on one line while they fit, the next one below when not.
  struct Flow {
    float avail, x = 0;
    void next(float width) {
      const float gap = ImGui::GetStyle().ItemSpacing.x;
      if (x > 0 && x + gap + width <= avail) {
        ImGui::SameLine();
        x += gap + width;
      } else {
        x = width;
      }
    }
  };

  // The buttons, the speed slider and the checkbox, in order.
  static std::vector<float> item_widths() {
    const ImGuiStyle& st = ImGui::GetStyle();
    std::vector<float> w;
    for (const char* b : kButtons) w.push_back(ImGui::CalcTextSize(b).x + 2 * st.FramePadding.x);
    w[kPlayButton] = std::max(w[kPlayButton], ImGui::GetFontSize() * 4);
    w.push_back(ImGui::GetFontSize() * 8 + st.ItemInnerSpacing.x + ImGui::CalcTextSize(kSpeedLabel).x);
    w.push_back(ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + ImGui::CalcTextSize(kAllBlocksLabel).x);
    return w;
  }

  static int count_rows(float avail) {
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    int rows = 1;
    float x = 0;
    for (float w : item_widths()) {
      if (x > 0 && x + gap + w > avail) {
        ++rows;
        x = w;
      } else {
        x += (x > 0 ? gap : 0) + w;
      }
    }
    return rows;
  }
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(replay, ts::ui::PanelReplay)
