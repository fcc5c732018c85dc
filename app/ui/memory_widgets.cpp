// memory_widgets.cpp — counter tables and the heat ramp of the memory panels.
#include "app/ui/memory_widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/ui/palette.h"

namespace ts::ui {

std::string counter_label(const std::string& key) {
  std::string s = key;
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

namespace {

std::string format_value(const nlohmann::json& v) {
  char buf[48];
  const double d = v.get<double>();
  if (v.is_number_integer() || v.is_number_unsigned() || d == std::floor(d)) std::snprintf(buf, sizeof buf, "%.0f", d);
  else std::snprintf(buf, sizeof buf, "%.3g", d);
  return buf;
}

}  // namespace

void counter_table(const char* id, std::span<const CounterColumn> columns, bool ratio_of_two) {
  if (columns.empty() || !columns[0].values) return;
  const int n = static_cast<int>(columns.size()) + 1 + (ratio_of_two ? 1 : 0);
  if (!ImGui::BeginTable(id, n, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn("counter", ImGuiTableColumnFlags_WidthStretch);
  for (const CounterColumn& c : columns) ImGui::TableSetupColumn(c.title.c_str());
  if (ratio_of_two) ImGui::TableSetupColumn("ratio");
  ImGui::TableHeadersRow();
  for (const auto& [key, first] : columns[0].values->items()) {
    if (!first.is_number()) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(counter_label(key).c_str());
    for (const CounterColumn& c : columns) {
      ImGui::TableNextColumn();
      const bool has = c.values && c.values->contains(key) && (*c.values)[key].is_number();
      ImGui::TextUnformatted(has ? format_value((*c.values)[key]).c_str() : "-");
    }
    if (ratio_of_two) {
      ImGui::TableNextColumn();
      const nlohmann::json* b = columns.size() > 1 ? columns[1].values : nullptr;
      if (b && b->contains(key) && (*b)[key].is_number() && first.get<double>() != 0)
        ImGui::Text("x%.3g", (*b)[key].get<double>() / first.get<double>());
      else
        ImGui::TextUnformatted("-");
    }
  }
  ImGui::EndTable();
}

render::Rgba8 heat_color(float t) {
  t = std::clamp(std::isfinite(t) ? t : 0.0f, 0.0f, 1.0f);
  constexpr render::Rgba8 low{30, 40, 110}, mid{200, 60, 90}, high{255, 230, 80};
  return t < 0.5f ? palette::mix(low, mid, t * 2.0f) : palette::mix(mid, high, (t - 0.5f) * 2.0f);
}

}  // namespace ts::ui
