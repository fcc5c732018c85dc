// app_chrome.cpp — menu bar and notices.
#include "app/ui/app_chrome.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/ui/app_state.h"
#include "app/ui/input.h"

namespace ts::ui {
namespace {

constexpr double kNoticeSeconds = 8.0;  // info and warnings fade; errors stay until closed

ImVec4 notice_color(NoticeLevel level) {
  switch (level) {
    case NoticeLevel::Info: return ImVec4(0.75f, 0.9f, 1.0f, 1.0f);
    case NoticeLevel::Warning: return ImVec4(1.0f, 0.85f, 0.3f, 1.0f);
    case NoticeLevel::Error: return ImVec4(1.0f, 0.45f, 0.4f, 1.0f);
  }
  return ImVec4(1, 1, 1, 1);
}

}  // namespace

// File > Open kernel...: the flags of `record --kernel-file`, then Record.
void draw_open_kernel_menu(AppState& app) {
  if (!ImGui::BeginMenu("Open kernel...")) return;
  KernelForm& f = app.kernel_form;
  const float w = ImGui::GetFontSize() * 22;
  ImGui::TextDisabled("A file that includes <tilescope/kernel.h> (examples/kernels/)");
  ImGui::SetNextItemWidth(w);
  ImGui::InputText("file", f.file, sizeof f.file);
  ImGui::SetNextItemWidth(w);
  ImGui::InputText("entry (the function)", f.entry, sizeof f.entry);
  ImGui::SetNextItemWidth(w);
  ImGui::InputText("block XxY", f.block, sizeof f.block);
  ImGui::SetNextItemWidth(w);
  ImGui::InputText("block tile ROWSxCOLS (empty: the block's)", f.block_tile, sizeof f.block_tile);
  ImGui::SetNextItemWidth(w);
  ImGui::InputText("defines NAME=VALUE ...", f.defines, sizeof f.defines);
  ImGui::SetNextItemWidth(w);
  ImGui::InputText("args NAME=VALUE ... (the entry's scalars after M, N, K)", f.args, sizeof f.args);
  ImGui::TextDisabled("Size, inputs and device: the Controls panel. Saving the file records it again.");
  if (ImGui::Button("Compile and record")) {
    UserKernelSpec spec;
    if (std::string err = user_spec_from_flags(f.file, f.entry, f.block, f.block_tile, field_words(f.defines),
                                               field_words(f.args), spec);
        !err.empty())
      app.notify(NoticeLevel::Error, err);
    else
      app.open_kernel(std::move(spec));
    ImGui::CloseCurrentPopup();
  }
  if (app.params.user) {
    ImGui::SameLine();
    if (ImGui::Button("Back to tilescope's kernels")) {
      app.params.user.reset();
      app.record();
      ImGui::CloseCurrentPopup();
    }
  }
  ImGui::EndMenu();
}

// File > Trace a kernel as it is...: a CUDA file as written, cuBLAS's GEMM or
// any program's launch, recorded by the tracer on this machine's GPU.
void draw_tracer_menu(AppState& app) {
  if (!ImGui::BeginMenu("Trace a kernel as it is...")) return;
  TracerForm& f = app.tracer_form;
  const float w = ImGui::GetFontSize() * 22;
  ImGui::TextDisabled("Unmodified kernels, on the GPU, through the Compute Sanitizer API (docs/tracer.md)");
  ImGui::RadioButton("a CUDA file", &f.source, 0);
  ImGui::SameLine();
  ImGui::RadioButton("cuBLAS", &f.source, 1);
  ImGui::SameLine();
  ImGui::RadioButton("a program", &f.source, 2);
  if (f.source == 0) {
    const std::pair<const char*, std::pair<char*, std::size_t>> fields[] = {
        {"file (.cu)", {f.file, sizeof f.file}},
        {"entry (the __global__ function)", {f.entry, sizeof f.entry}},
        {"grid X,Y[,Z]", {f.grid, sizeof f.grid}},
        {"block X,Y[,Z]", {f.block, sizeof f.block}},
        {"dynamic shared bytes", {f.dynamic_shared, sizeof f.dynamic_shared}},
        {"defines NAME=VALUE ...", {f.defines, sizeof f.defines}},
        {"args NAME=VALUE ... (pointers: @A, @B, @C)", {f.args, sizeof f.args}},
    };
    for (const auto& [label, buf] : fields) {
      ImGui::SetNextItemWidth(w);
      ImGui::InputText(label, buf.first, buf.second);
    }
  } else if (f.source == 1) {
    ImGui::RadioButton("FP32 (SGEMM)", &f.math, 0);
    ImGui::SameLine();
    ImGui::RadioButton("TF32", &f.math, 1);
  } else {
    ImGui::SetNextItemWidth(w);
    ImGui::InputText("program and its arguments", f.command, sizeof f.command);
    ImGui::SetNextItemWidth(w);
    ImGui::InputText("kernel name (a regex)", f.kernel_name, sizeof f.kernel_name);
    ImGui::SetNextItemWidth(w / 3);
    ImGui::InputInt("launch (from 0)", &f.launch);
    f.launch = std::max(f.launch, 0);
  }
  ImGui::RadioButton("default order", &f.layout, 0);
  ImGui::SameLine();
  ImGui::RadioButton("row-major", &f.layout, 1);
  ImGui::SameLine();
  ImGui::RadioButton("column-major", &f.layout, 2);
  ImGui::TextDisabled("M, N, K: the Controls panel (%d x %d x %d)", app.params.m, app.params.n, app.params.k);
  if (ImGui::Button("Trace")) {
    app.trace_command(tracer_form_arguments(f, app.params.m, app.params.n, app.params.k));
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndMenu();
}

float draw_main_menu(AppState& app, std::vector<std::unique_ptr<Panel>>& panels, WindowLayout& layout) {
  ImGui::PushFont(app.fonts.ui);
  const float height = ImGui::GetFrameHeight();
  if (!ImGui::BeginMainMenuBar()) {
    ImGui::PopFont();
    return height;
  }
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Record again, new random inputs", nullptr, false, !app.busy())) app.record_new_inputs();
    draw_open_kernel_menu(app);
#if !defined(__EMSCRIPTEN__)  // a page starts no processes: tracing is the desktop's
    draw_tracer_menu(app);
#endif
    if (ImGui::MenuItem("Export PNG of the window", "F12")) app.screenshot_request = "tilescope.png";
    ImGui::TextDisabled("Open and save traces: Controls panel");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    // Each mode keeps its own set of open panels.
    ImGui::TextDisabled(app.view.presentation ? "Panels (presentation mode)" : "Panels");
    for (auto& p : panels) ImGui::MenuItem(p->name(), nullptr, &p->open);
    ImGui::Separator();
    if (ImGui::MenuItem("Presentation mode", "F11", app.view.presentation))
      app.view.presentation = !app.view.presentation;
    if (ImGui::MenuItem("Colour by value", "V", app.view.color_mode == ColorMode::Value)) app.view.toggle_color_mode();
    ImGui::MenuItem("Numbers in large cells", nullptr, &app.view.show_values);
    if (ImGui::MenuItem("Larger text", "Ctrl +")) app.view.larger_text();
    if (ImGui::MenuItem("Smaller text", "Ctrl -")) app.view.smaller_text();
    if (ImGui::MenuItem("Fit matrices", "F")) ++app.view.fit_requests;
    ImGui::MenuItem("Lock layout", nullptr, &app.view.lock_layout);
    if (ImGui::MenuItem("Reset layout")) layout.reset();
    if (const auto ini = layout.ini_file()) ImGui::TextDisabled("saved in %s", ini->c_str());
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Keys")) {
    for (const KeyHelp& k : kKeyHelp) {
      ImGui::TextUnformatted(k.keys);
      ImGui::SameLine(ImGui::GetFontSize() * 11);
      ImGui::TextUnformatted(k.action);
    }
    ImGui::EndMenu();
  }
  // What is on screen and who recorded it: always visible.
  if (const LoadedTrace* t = app.trace()) {
    const std::string label = launch_title(t->trace.launch) + "   |   " + recorded_by(t->trace.launch);
    ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 20.0f, ImGui::GetWindowWidth() - ImGui::CalcTextSize(label.c_str()).x - 16.0f));
    ImGui::TextUnformatted(label.c_str());
  }
  ImGui::EndMainMenuBar();
  ImGui::PopFont();
  return height;
}

void draw_notices(AppState& app, const Rect& strip) {
  std::vector<Notice>& notices = app.notices();
  const double now = app.now();
  std::erase_if(notices, [&](const Notice& n) { return n.level != NoticeLevel::Error && now - n.shown_at > kNoticeSeconds; });
  const bool busy = app.busy();
  if (notices.empty() && !busy) return;
  if (strip.empty()) return;
  ImGui::SetNextWindowPos(ImVec2(strip.x, strip.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(strip.w, strip.h), ImGuiCond_Always);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("##notices", nullptr, flags)) {
    if (busy) {
      const char spinner[] = "|/-\\";
      ImGui::Text("%c %s... %.1f s", spinner[static_cast<int>(now * 8) % 4], app.busy_what().c_str(), app.busy_seconds());
    }
    int to_remove = -1;
    for (int i = 0; i < static_cast<int>(notices.size()); ++i) {
      const Notice& n = notices[i];
      ImGui::PushID(i);
      if (ImGui::SmallButton("x")) to_remove = i;
      ImGui::SameLine();
      ImGui::PushStyleColor(ImGuiCol_Text, notice_color(n.level));
      ImGui::PushTextWrapPos(0.0f);  // wrap at the strip's edge
      ImGui::TextUnformatted(n.text.c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
      ImGui::PopID();
    }
    if (to_remove >= 0) notices.erase(notices.begin() + to_remove);
  }
  ImGui::End();
}

}  // namespace ts::ui
