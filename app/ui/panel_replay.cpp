// panel_replay.cpp — the transport under the matrices: play / pause with a
// speed, step buttons, a scrubber over every step, 'all blocks' mode.
#include <imgui.h>

#include <cstdio>

#include "app/ui/app_state.h"
#include "app/ui/panel_registry.h"

namespace ts::ui {
namespace {

struct PanelReplay : Panel {
  PanelReplay() : Panel("Replay", {PanelSlot::Bottom, 1.0f, true}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this, ImGuiWindowFlags_NoScrollbar);
    if (!window) return;
    const ReplayTimeline& tl = app.timeline();
    const ReplayStep s = app.step();
    ImGui::BeginDisabled(app.trace() == nullptr);
    if (ImGui::Button("|<")) app.set_step(0);
    ImGui::SameLine();
    if (ImGui::Button("<<")) app.set_step(tl.first_step_of_iteration(s.iteration == 0 ? 0 : s.iteration - 1));
    ImGui::SameLine();
    if (ImGui::Button("<")) app.step_by(-1);
    ImGui::SameLine();
    if (ImGui::Button(app.replay.playing ? "Pause" : "Play", ImVec2(ImGui::GetFontSize() * 4, 0))) app.toggle_playing();
    ImGui::SameLine();
    if (ImGui::Button(">")) app.step_by(1);
    ImGui::SameLine();
    if (ImGui::Button(">>")) app.set_step(tl.first_step_of_iteration(s.iteration + 1));
    ImGui::SameLine();
    if (ImGui::Button(">|")) app.set_step(tl.last_step());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderFloat("steps/s", &app.replay.steps_per_second, 0.5f, 60.0f, "%.1f", ImGuiSliderFlags_Logarithmic);
    ImGui::SameLine();
    ImGui::Checkbox("all blocks", &app.replay.all_blocks);
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
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(replay, ts::ui::PanelReplay)
