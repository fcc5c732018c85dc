// panel_timeline.cpp — the SM timeline of one full-size launch, like a
// profiler's: one track per SM, one row per co-resident block slot, each
// block a bar from its first warp's start to its last warp's end, coloured by
// wave; the tail shaded; achieved occupancy over time above. Recorded on this
// GPU (per-block timing only, no per-access events) or opened from a file
// saved by `tilescope timeline -o`. Wheel zooms around the mouse, dragging
// pans, a double click fits the whole launch.
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/core/assets.h"
#include "app/core/display_text.h"
#include "trace/model/gpu_presets.h"
#include "app/core/timeline.h"
#include "app/core/timing_file.h"
#include "app/ui/app_state.h"
#include "app/ui/panel_registry.h"
#include "kernels/catalog.h"

namespace ts::ui {
namespace {

constexpr float kLabelWidth = 56.0f;  // "SM 131" column, in pixels at the normal font size

ImU32 wave_color(std::uint32_t wave, bool in_tail) {
  const float hue = (wave % 2 == 0) ? 0.58f : 0.08f;  // waves alternate blue / orange
  return ImColor::HSV(hue, in_tail ? 0.75f : 0.5f, in_tail ? 0.95f : 0.8f);
}

// A loaded recording and what is derived from it.
struct Loaded {
  TimingRecording recording;
  Timeline timeline;
  std::string origin;  // "recorded on this GPU" or the file's path
};

std::shared_ptr<Loaded> analyse(TimingRecording r, std::string origin) {
  auto l = std::make_shared<Loaded>();
  const TimelineShape shape{r.sm_count, r.warps_per_block(), r.max_warps_per_sm, r.api_blocks_per_sm};
  l->timeline = build_timeline(r.blocks, shape);
  l->recording = std::move(r);
  l->origin = std::move(origin);
  return l;
}

struct PanelTimeline : Panel {
  PanelTimeline() : Panel("SM timeline", {PanelSlot::Float, 1.0f, false}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this);
    if (!window) return;
    if (!tried_default_) {  // the recording shipped in assets/, when there is one: a laptop shows a real GPU's timeline
      tried_default_ = true;
      // From the working directory, else where tilescope is installed, else its source tree.
      const std::string found = resolve_asset(path_).string();
      std::snprintf(path_, sizeof path_, "%s", found.c_str());
      std::error_code ec;
      if (std::filesystem::is_regular_file(path_, ec)) start_loading(app);
    }
    poll(app);
    draw_source(app);
    if (!loaded_) {
      ImGui::TextWrapped("Record a launch on this GPU, or open a timing file saved by `tilescope timeline -o FILE`.");
      return;
    }
    draw_summary(*loaded_);
    draw_occupancy_plot(*loaded_);
    draw_tracks(*loaded_);
  }

 private:
  // ---- where the recording comes from ----
  void draw_source(AppState& app) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    if (ImGui::BeginCombo("##kernel", std::string(kernel_info(kind_).name).c_str())) {
      for (KernelKind k : kAllKernels)
        if (ImGui::Selectable(std::string(kernel_info(k).name).c_str(), k == kind_)) kind_ = k;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
    if (ImGui::BeginCombo("TILE", std::to_string(tile_).c_str())) {
      for (int t : kAllTiles)
        if (ImGui::Selectable(std::to_string(t).c_str(), t == tile_)) tile_ = t;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputInt("N", &size_, 256, 1024);
    size_ = std::clamp(size_, 1, 32768);
    ImGui::SameLine();
    const bool busy = job_.valid();
    ImGui::BeginDisabled(busy || !app.gpu().available);
    if (ImGui::Button("Record on this GPU")) start_recording();
    ImGui::EndDisabled();
    if (!app.gpu().available && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", app.gpu().reason.c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 22);
    ImGui::InputText("##file", path_, sizeof path_);
    ImGui::SameLine();
    ImGui::BeginDisabled(busy);
    if (ImGui::Button("Open")) start_loading(app);
    ImGui::EndDisabled();
    ImGui::SameLine();
    const std::string why_not = trace_timing_unavailable(app);
    ImGui::BeginDisabled(busy || !why_not.empty());
    if (ImGui::Button("Use the trace on screen")) use_trace(app);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", why_not.empty() ? "the instrumented GPU recording's per-block SM and times "
                                                "(blocks run slower with every access recorded)"
                                              : why_not.c_str());
    if (busy) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s %.1f s", job_what_.c_str(),
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - job_started_).count());
    }
  }

  void start_recording() {
    const KernelKind kind = kind_;
    const int tile = tile_, n = size_;
    job_what_ = "recording " + std::string(kernel_info(kind).name) + " TILE " + std::to_string(tile) + "...";
    job_started_ = std::chrono::steady_clock::now();
    job_ = std::async(std::launch::async, [kind, tile, n] {
      return analyse(gpu::record_timing(kind, tile, n, n, n, 0), "recorded on this GPU");
    });
  }

  void start_loading(AppState& app) {
    if (std::strlen(path_) == 0) {
      app.notify(NoticeLevel::Warning, "type the path of a timing file first");
      return;
    }
    const std::string path = path_;
    job_what_ = "opening " + path + "...";
    job_started_ = std::chrono::steady_clock::now();
    job_ = std::async(std::launch::async, [path] { return analyse(load_timing(path), path); });
  }

  // The trace on screen can be shown when a GPU recorded it and its GPU's SM
  // count and warp slots are known: this machine's, or a preset of that name.
  static bool is_this_gpu(AppState& app, const std::string& device) {
    return app.gpu().available && app.gpu().name == device;
  }
  static std::optional<GpuPreset> preset_named(const std::string& device) {
    for (const GpuPreset& p : gpu_presets())
      if (device == p.name) return p;
    return std::nullopt;
  }
  static std::optional<SmLimits> trace_gpu(AppState& app, const std::string& device) {
    if (is_this_gpu(app, device)) {
      try {
        return gpu::live_sm_limits();
      } catch (const gpu::GpuError&) {
        return std::nullopt;
      }
    }
    if (const auto p = preset_named(device)) return preset_limits(*p);
    return std::nullopt;
  }

  static std::string trace_timing_unavailable(AppState& app) {
    const LoadedTrace* lt = app.trace();
    if (!lt || lt->trace.block_timing.empty()) return "the trace on screen was not recorded on a GPU";
    const std::string& device = lt->trace.launch.device_name;
    if (!is_this_gpu(app, device) && !preset_named(device)) return "unknown GPU '" + elided(device, kShownDevice) + "': its SM count is not known here";
    return {};
  }

  void use_trace(AppState& app) {
    const LoadedTrace* lt = app.trace();
    if (!lt) return;
    const std::optional<SmLimits> sm = trace_gpu(app, lt->trace.launch.device_name);
    if (!sm) return;
    TimingRecording r;
    r.launch = lt->trace.launch;
    r.blocks = lt->trace.block_timing;
    r.sm_count = sm->sm_count;
    r.compute_capability = sm->compute_capability;
    r.max_warps_per_sm = sm->max_warps_per_sm();
    r.timed_kernel.threads_per_block = static_cast<int>(r.launch.block.count());
    r.timed_kernel.source = "instrumented kernel: resources not recorded";
    try {
      loaded_ = analyse(std::move(r), "the instrumented trace on screen");
      fit();
    } catch (const std::exception& e) {
      app.notify(NoticeLevel::Error, std::string("timeline: ") + e.what());
    }
  }

  // Takes a finished job: a new recording, or a notice saying why not.
  void poll(AppState& app) {
    if (!job_.valid() || job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    try {
      loaded_ = job_.get();
      fit();
    } catch (const std::exception& e) {
      job_ = {};
      app.notify(NoticeLevel::Error, std::string("timeline: ") + e.what());
    }
  }

  void fit() {
    view_begin_ = 0;
    view_end_ = std::max<double>(1.0, double(loaded_->timeline.duration_ns));
  }

  // ---- what it shows ----
  static void draw_summary(const Loaded& l) {
    const TimingRecording& r = l.recording;
    const Timeline& tl = l.timeline;
    const LaunchInfo& L = r.launch;
    ImGui::Separator();
    ImGui::TextWrapped("%s TILE %d, %d x %d x %d on %s (%s, %s): %zu blocks, %.3f ms", elided(L.kernel, kShownKernel).c_str(), L.tile,
                L.m, L.n, L.k, elided(L.device_name, kShownDevice).c_str(), elided(L.date, kShownDate).c_str(),
                elided(l.origin, kShownPath).c_str(), r.blocks.size(), r.elapsed_ms);
    const double theoretical =
        r.max_warps_per_sm ? double(r.api_blocks_per_sm * r.warps_per_block()) / r.max_warps_per_sm : 0.0;
    if (r.api_blocks_per_sm > 0)
      ImGui::TextWrapped("occupancy: theoretical %.1f%% (%d blocks/SM), achieved %.1f%% while SMs are busy, %.1f%% "
                         "over the launch",
                         100.0 * theoretical, r.api_blocks_per_sm, 100.0 * tl.achieved_occupancy,
                         100.0 * tl.occupancy_over_launch);
    else
      ImGui::TextWrapped("occupancy: achieved %.1f%% while SMs are busy, %.1f%% over the launch (theoretical: not "
                         "recorded)",
                         100.0 * tl.achieved_occupancy, 100.0 * tl.occupancy_over_launch);
    ImGui::TextWrapped("waves: %.2f (longest slot ran %u blocks), at most %u blocks co-resident per SM; tail: last %.3f ms "
                "(%.1f%%) at %.1f%%",
                tl.waves, tl.waves_observed, tl.max_coresident, double(tl.tail_ns) * 1e-6,
                tl.duration_ns ? 100.0 * double(tl.tail_ns) / double(tl.duration_ns) : 0.0,
                100.0 * tl.tail_occupancy);
  }

  double ns_at(float x, float x0, float width) const {
    return view_begin_ + (view_end_ - view_begin_) * double(x - x0) / std::max(1.0f, width);
  }
  float x_at(double ns, float x0, float width) const {
    return x0 + static_cast<float>((ns - view_begin_) / (view_end_ - view_begin_) * width);
  }

  // Achieved occupancy over the visible range, with the theoretical bound dashed.
  void draw_occupancy_plot(const Loaded& l) {
    const float label = kLabelWidth * ImGui::GetFontSize() / 13.0f;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x - label, height = ImGui::GetFontSize() * 4.0f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float x0 = p0.x + label;
    dl->AddText(ImVec2(p0.x, p0.y), IM_COL32(200, 200, 210, 255), "occup.");
    dl->AddRectFilled(ImVec2(x0, p0.y), ImVec2(x0 + width, p0.y + height), IM_COL32(30, 32, 38, 255));
    const int bins = std::max(1, static_cast<int>(width / 2));
    const auto t0 = static_cast<std::uint64_t>(std::max(0.0, view_begin_));
    const auto t1 = static_cast<std::uint64_t>(std::max(view_begin_ + 1, view_end_));
    const std::vector<double> v = occupancy_series(l.timeline, t0, t1, bins);
    for (int i = 0; i < static_cast<int>(v.size()); ++i) {
      const float xa = x0 + width * i / bins, xb = x0 + width * (i + 1) / bins;
      const float y = p0.y + height * (1.0f - static_cast<float>(std::min(1.0, v[i])));
      dl->AddRectFilled(ImVec2(xa, y), ImVec2(xb, p0.y + height), IM_COL32(90, 200, 120, 255));
    }
    const TimingRecording& r = l.recording;
    if (r.max_warps_per_sm > 0) {
      const double th = double(r.api_blocks_per_sm * r.warps_per_block()) / r.max_warps_per_sm;
      const float y = p0.y + height * (1.0f - static_cast<float>(std::min(1.0, th)));
      for (float x = x0; x < x0 + width; x += 8) dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 4, x0 + width), y), IM_COL32(255, 220, 80, 255));
    }
    ImGui::Dummy(ImVec2(width + label, height));
    if (ImGui::IsItemHovered()) {
      const double t = ns_at(ImGui::GetIO().MousePos.x, x0, width);
      const int i = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - x0) / width * bins), 0, bins - 1);
      ImGui::SetTooltip("%.3f ms: achieved occupancy %.1f%% of all SMs' warp slots\n(dashed: theoretical)", t * 1e-6,
                        v.empty() ? 0.0 : 100.0 * v[i]);
    }
  }

  // One track per SM, one row per block slot; the visible time range only.
  void draw_tracks(const Loaded& l) {
    const Timeline& tl = l.timeline;
    const float label = kLabelWidth * ImGui::GetFontSize() / 13.0f;
    const float lane_h = std::max(3.0f, std::min(12.0f, ImGui::GetFontSize() * 0.6f));
    ImGui::BeginChild("##tracks", ImVec2(0, 0), true, ImGuiWindowFlags_NoScrollWithMouse);
    const float width = ImGui::GetContentRegionAvail().x - label;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float x0 = origin.x + label;
    const ImVec2 clip_min = ImGui::GetWindowPos(), clip_max(clip_min.x + ImGui::GetWindowSize().x,
                                                            clip_min.y + ImGui::GetWindowSize().y);
    const float tail_x = x_at(double(tl.last_start_ns), x0, width);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const TimelineBlock* hovered = nullptr;
    float y = origin.y;
    for (std::uint32_t sm = 0; sm < tl.sms.size(); ++sm) {
      const SmTrack& track = tl.sms[sm];
      const float h = std::max<std::uint32_t>(1, track.lanes) * lane_h + 3.0f;
      if (y + h >= clip_min.y && y <= clip_max.y) {
        char name[16];
        std::snprintf(name, sizeof name, "SM %u", sm);
        dl->AddText(ImVec2(origin.x, y), IM_COL32(170, 170, 180, 255), name);
        dl->AddRectFilled(ImVec2(std::max(x0, tail_x), y), ImVec2(x0 + width, y + h - 2), IM_COL32(70, 40, 40, 90));
        // Zoomed out over many small blocks (TILE 2 at N = 4096 runs tens of
        // thousands per SM), bars would be sub-pixel: draw the SM's occupancy instead.
        const double visible = double(track.count) * (view_end_ - view_begin_) / std::max(1.0, double(tl.duration_ns));
        if (visible > width) {
          draw_density(dl, tl, sm, x0, y, width, h - 3.0f);
          y += h;
          continue;
        }
        for (const TimelineBlock& b : tl.sm_blocks(sm)) {
          const float xa = x_at(double(b.start_ns), x0, width), xb = x_at(double(b.end_ns), x0, width);
          if (xb < x0 || xa > x0 + width) continue;
          const ImVec2 a(std::max(xa, x0), y + b.lane * lane_h), c(std::min(std::max(xb, xa + 1.0f), x0 + width), a.y + lane_h - 1);
          dl->AddRectFilled(a, c, wave_color(b.wave, b.start_ns >= tl.last_start_ns));
          if (mouse.x >= a.x && mouse.x < c.x && mouse.y >= a.y && mouse.y < c.y) hovered = &b;
        }
      }
      y += h;
    }
    ImGui::SetCursorScreenPos(origin);
    ImGui::InvisibleButton("##canvas", ImVec2(label + width, std::max(1.0f, y - origin.y)));
    handle_zoom_and_pan(x0, width);
    if (hovered && ImGui::IsItemHovered()) {
      const Dim3 grid = l.recording.launch.grid;
      ImGui::SetTooltip("block (%u, %u) on SM %u, slot %u, wave %u\n%.3f .. %.3f ms (%.1f us)%s", hovered->block % grid.x,
                        hovered->block / grid.x, hovered->sm, hovered->lane, hovered->wave, hovered->start_ns * 1e-6,
                        hovered->end_ns * 1e-6, (hovered->end_ns - hovered->start_ns) * 1e-3,
                        hovered->start_ns >= tl.last_start_ns ? "\nin the tail: no block was waiting" : "");
    }
    ImGui::EndChild();
  }

  // One SM's resident warps as an area chart, one bar per two pixels.
  void draw_density(ImDrawList* dl, const Timeline& tl, std::uint32_t sm, float x0, float y, float width, float h) const {
    const int bins = std::max(1, static_cast<int>(width / 2));
    const auto t0 = static_cast<std::uint64_t>(std::max(0.0, view_begin_));
    const auto t1 = static_cast<std::uint64_t>(std::max(view_begin_ + 1, view_end_));
    const std::vector<double> v = occupancy_series(tl, t0, t1, bins, static_cast<int>(sm));
    for (int i = 0; i < static_cast<int>(v.size()); ++i) {
      const float top = y + h * (1.0f - static_cast<float>(std::min(1.0, v[i])));
      dl->AddRectFilled(ImVec2(x0 + width * i / bins, top), ImVec2(x0 + width * (i + 1) / bins, y + h),
                        IM_COL32(110, 160, 220, 255));
    }
  }

  // Wheel: zoom around the mouse (with Shift: scroll the SMs); drag: pan; double click: fit.
  void handle_zoom_and_pan(float x0, float width) {
    ImGuiIO& io = ImGui::GetIO();
    const double full = std::max(1.0, double(loaded_->timeline.duration_ns));
    if (ImGui::IsItemHovered() && io.MouseWheel != 0) {
      if (io.KeyShift) {
        ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseWheel * ImGui::GetFontSize() * 5);
      } else {
        const double at = ns_at(io.MousePos.x, x0, width);
        const double span = std::clamp((view_end_ - view_begin_) * std::pow(0.8, io.MouseWheel), 100.0, full * 1.1);
        const double f = (at - view_begin_) / (view_end_ - view_begin_);
        view_begin_ = at - f * span;
        view_end_ = view_begin_ + span;
      }
    }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
      const double dt = double(io.MouseDelta.x) / std::max(1.0f, width) * (view_end_ - view_begin_);
      view_begin_ -= dt;
      view_end_ -= dt;
    }
    if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) fit();
  }

  KernelKind kind_ = KernelKind::Tiled;
  int tile_ = 16;
  int size_ = 4096;
  char path_[1024] = "assets/timelines/h200_tiled_t16_4096.json";
  std::future<std::shared_ptr<Loaded>> job_;
  std::string job_what_;
  std::chrono::steady_clock::time_point job_started_;
  std::shared_ptr<Loaded> loaded_;
  bool tried_default_ = false;
  double view_begin_ = 0, view_end_ = 1;  // the visible time range, ns from the launch's first block
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(timeline, ts::ui::PanelTimeline)
