// panel_bench.cpp — the benchmark panel: the visualized kernels, the ladder
// and cuBLAS at full size. Three views of one results set: each kernel's
// percentage of cuBLAS FP32 at one shape (bars), GFLOP/s against the square
// sizes (lines), and the roofline with the ceilings measured on that GPU (the
// copy bandwidth, the FP32 peak, cuBLAS FP32 and TF32), each kernel placed on
// it. It opens the newest results shipped in assets/bench/ (the H100's, timed
// as the benchmark now times), labelled with that GPU, driver, CUDA and date;
// the other GPUs' shipped results are a click away, and with a GPU here it
// can run the benchmark on it (`tilescope bench` does the same from the
// command line).
#include <imgui.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "app/core/assets.h"
#include "app/core/bench_results_file.h"
#include "app/ui/app_state.h"
#include "app/ui/panel_registry.h"
#include "kernels/cuda/bench_runner.h"
#include "kernels/cuda/gpu_runtime.h"

namespace ts::ui {
namespace {

ImU32 family_color(const BenchRow& r, float alpha = 1.0f) {
  const int a = static_cast<int>(255 * alpha);
  if (r.family == "cublas") return IM_COL32(200, 200, 205, a);
  if (r.precision == "tf32") return IM_COL32(240, 150, 60, a);
  if (r.family == "ladder") return IM_COL32(90, 200, 120, a);
  return IM_COL32(90, 150, 230, a);  // visualized
}

// A distinct colour per kernel for the line chart, stable across frames.
ImU32 series_color(std::size_t i) {
  return ImColor::HSV(std::fmod(0.07f + 0.618034f * static_cast<float>(i), 1.0f), 0.6f, 0.95f);
}

std::string shape_text(int m, int n, int k) {
  return m == n && n == k ? std::to_string(m) + "^3" : std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

// Log-scale axis: value -> position in [0, 1].
struct LogAxis {
  double lo, hi;
  float at(double v) const {
    return static_cast<float>((std::log10(std::max(v, lo)) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)));
  }
};

// Vertical and horizontal grid lines at the powers of ten of a log-log plot.
void draw_log_grid(ImDrawList* dl, ImVec2 p0, ImVec2 size, const LogAxis& x, const LogAxis& y, const char* x_unit,
                   const char* y_unit) {
  dl->AddRectFilled(p0, ImVec2(p0.x + size.x, p0.y + size.y), IM_COL32(28, 30, 36, 255));
  char label[32];
  for (double v = std::pow(10.0, std::ceil(std::log10(x.lo))); v <= x.hi * 1.0001; v *= 10) {
    const float px = p0.x + x.at(v) * size.x;
    dl->AddLine(ImVec2(px, p0.y), ImVec2(px, p0.y + size.y), IM_COL32(60, 62, 70, 255));
    std::snprintf(label, sizeof label, "%g", v);
    dl->AddText(ImVec2(px + 2, p0.y + size.y - ImGui::GetFontSize()), IM_COL32(150, 150, 160, 255), label);
  }
  for (double v = std::pow(10.0, std::ceil(std::log10(y.lo))); v <= y.hi * 1.0001; v *= 10) {
    const float py = p0.y + (1.0f - y.at(v)) * size.y;
    dl->AddLine(ImVec2(p0.x, py), ImVec2(p0.x + size.x, py), IM_COL32(60, 62, 70, 255));
    std::snprintf(label, sizeof label, "%g", v);
    dl->AddText(ImVec2(p0.x + 2, py), IM_COL32(150, 150, 160, 255), label);
  }
  dl->AddText(ImVec2(p0.x + size.x - ImGui::CalcTextSize(x_unit).x - 4, p0.y + size.y - 2 * ImGui::GetFontSize()),
              IM_COL32(180, 180, 190, 255), x_unit);
  dl->AddText(ImVec2(p0.x + 40, p0.y + 2), IM_COL32(180, 180, 190, 255), y_unit);
}

// A benchmark running on this GPU, reporting from its worker thread.
struct RunningBench {
  std::atomic<std::size_t> done{0}, total{1};
  std::mutex step_mutex;
  std::string step;
  // Last, so it is destroyed first: its destructor waits for the worker,
  // which still writes the members above.
  std::future<BenchResults> result;
};

struct PanelBench : Panel {
  PanelBench() : Panel("Benchmark", {PanelSlot::Float, 1.0f, false}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this);
    if (!window) return;
    if (!tried_default_) {  // the results shipped in assets/: a laptop shows a real GPU's figures
      tried_default_ = true;
      // From the working directory, else where tilescope is installed, else its source tree.
      const std::string found = resolve_asset(path_).string();
      std::snprintf(path_, sizeof path_, "%s", found.c_str());
      std::error_code ec;
      if (std::filesystem::is_regular_file(path_, ec)) open_file(app);
      find_recorded(std::filesystem::path(path_).parent_path());
    }
    poll(app);
    draw_source(app);
    if (!results_) {
      ImGui::TextWrapped("Open a results file written by `tilescope bench -o FILE.json` (or .csv), or run the "
                         "benchmark on this GPU.");
      return;
    }
    draw_header();
    draw_shape_choice();
    // The three views one under the other (the window scrolls), each can be folded.
    if (ImGui::CollapsingHeader("% of cuBLAS FP32", ImGuiTreeNodeFlags_DefaultOpen)) draw_bars();
    if (ImGui::CollapsingHeader("GFLOP/s against size", ImGuiTreeNodeFlags_DefaultOpen)) draw_lines();
    if (ImGui::CollapsingHeader("Roofline", ImGuiTreeNodeFlags_DefaultOpen)) draw_roofline();
  }

 private:
  // ---- where the results come from ----
  // A results file shipped with tilescope, and the GPU it was recorded on.
  struct Recorded {
    std::string path, label;
  };

  // Every results file beside the default one (assets/bench/*.json), labelled by its GPU.
  void find_recorded(const std::filesystem::path& dir) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (entry.path().extension() != ".json" || !entry.is_regular_file(ec)) continue;
      try {
        const BenchDevice d = load_results(entry.path()).device;
        recorded_.push_back({entry.path().string(), d.name + ", driver " + d.driver + ", CUDA " + d.cuda_runtime + ", " +
                                                        d.date.substr(0, 10)});
      } catch (const BenchFileError&) {  // not a results file: not offered
      }
    }
    std::sort(recorded_.begin(), recorded_.end(), [](const Recorded& a, const Recorded& b) { return a.label < b.label; });
  }

  // Which recorded GPU to show; the live one is the Run button's.
  void draw_recorded_choice(AppState& app) {
    if (recorded_.empty()) return;
    const auto shown = std::find_if(recorded_.begin(), recorded_.end(), [&](const Recorded& r) { return r.path == origin_; });
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
    if (ImGui::BeginCombo("recorded on", shown != recorded_.end() ? shown->label.c_str() : "(another file or this GPU)")) {
      for (const Recorded& r : recorded_)
        if (ImGui::Selectable(r.label.c_str(), shown != recorded_.end() && &r == &*shown)) {
          std::snprintf(path_, sizeof path_, "%s", r.path.c_str());
          open_file(app);
        }
      ImGui::EndCombo();
    }
  }

  void draw_source(AppState& app) {
    draw_recorded_choice(app);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 22);
    ImGui::InputText("##file", path_, sizeof path_);
    ImGui::SameLine();
    if (ImGui::Button("Open")) open_file(app);
    ImGui::SameLine();
    ImGui::BeginDisabled(!results_);
    if (ImGui::Button("Save")) save_file(app);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputInt("N", &size_, 512, 2048);
    size_ = std::clamp(size_, 16, 16384);
    ImGui::SameLine();
    const bool busy = running_ != nullptr;
    ImGui::BeginDisabled(busy || !app.gpu().available);
    if (ImGui::Button("Run on this GPU")) start_run();
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", app.gpu().available
                                  ? "every kernel at N x N x N against cuBLAS, each checked before it is timed"
                                  : app.gpu().reason.c_str());
    if (busy) {
      std::string step;
      {
        const std::lock_guard<std::mutex> lock(running_->step_mutex);
        step = running_->step;
      }
      const float fraction = float(running_->done) / float(std::max<std::size_t>(1, running_->total));
      ImGui::ProgressBar(fraction, ImVec2(-1, 0), step.c_str());
    }
  }

  void open_file(AppState& app) {
    try {
      set_results(load_results(path_), path_);
    } catch (const BenchFileError& e) {
      app.notify(NoticeLevel::Error, std::string("benchmark: ") + e.what());
    }
  }

  void save_file(AppState& app) {
    try {
      save_results(*results_, path_);
      app.notify(NoticeLevel::Info, std::string("benchmark results saved to ") + path_);
    } catch (const BenchFileError& e) {
      app.notify(NoticeLevel::Error, std::string("benchmark: ") + e.what());
    }
  }

  void start_run() {
    auto run = std::make_shared<RunningBench>();
    gpu::BenchOptions options;
    options.shapes = {{size_, size_, size_}};
    RunningBench* progress = run.get();
    run->result = std::async(std::launch::async, [options, progress] {
      return gpu::run_benchmark(options, [progress](const gpu::BenchProgress& p) {
        progress->done = p.done;
        progress->total = p.total;
        const std::lock_guard<std::mutex> lock(progress->step_mutex);
        progress->step = p.step;
      });
    });
    running_ = std::move(run);
  }

  // Takes a finished run: its results, or a notice saying why not.
  void poll(AppState& app) {
    if (!running_ || running_->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    try {
      set_results(running_->result.get(), "measured on this GPU just now");
    } catch (const std::exception& e) {
      app.notify(NoticeLevel::Error, std::string("benchmark: ") + e.what());
    }
    running_.reset();
  }

  void set_results(BenchResults r, std::string origin) {
    results_ = std::make_shared<BenchResults>(std::move(r));
    origin_ = std::move(origin);
    shapes_.clear();
    for (const BenchRow& row : results_->rows) {
      const std::array<int, 3> s{row.m, row.n, row.k};
      if (std::find(shapes_.begin(), shapes_.end(), s) == shapes_.end()) shapes_.push_back(s);
    }
    // Start at 4096^3, where the ladder's targets are measured, else at the first shape.
    shape_ = 0;
    for (std::size_t i = 0; i < shapes_.size(); ++i)
      if (shapes_[i] == std::array<int, 3>{4096, 4096, 4096}) shape_ = i;
    shown_.clear();
    for (const BenchRow& row : results_->rows)
      if (row.family != "visualized" || row.kernel == "tiled/16" || row.kernel == "naive/16") shown_.insert(row.kernel);
  }

  // ---- what it shows ----
  void draw_header() const {
    const BenchDevice& d = results_->device;
    const BenchCeilings& c = results_->ceilings;
    ImGui::Separator();
    ImGui::TextWrapped("%s (%d SMs, %.0f MHz, compute %d.%d), driver %s, CUDA %s, cuBLAS %s, %s: %s", d.name.c_str(),
                       d.sm_count, d.sm_clock_max_mhz, d.compute_capability / 10, d.compute_capability % 10,
                       d.driver.c_str(), d.cuda_runtime.c_str(), d.cublas.c_str(), d.date.c_str(), origin_.c_str());
    ImGui::TextWrapped("ceilings: FP32 peak %.1f TFLOP/s (%d SMs x %d lanes x 2 x %.0f MHz), copy %.0f GB/s, cuBLAS FP32 "
                       "%.1f TFLOP/s, cuBLAS TF32 %.1f TFLOP/s (all measured there)",
                       c.peak_fp32_gflops / 1e3, d.sm_count, d.fp32_lanes_per_sm, d.sm_clock_max_mhz,
                       c.copy_gbytes_per_s, c.cublas_fp32_gflops / 1e3, c.cublas_tf32_gflops / 1e3);
    ImGui::TextWrapped("timing: %s", results_->timing.empty() ? "each kernel on its own, back to back (recorded before "
                                                                 "the method was written into the results)"
                                                               : results_->timing.c_str());
  }

  void draw_shape_choice() {
    if (shapes_.empty()) return;
    const auto& s = shapes_[shape_];
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    if (ImGui::BeginCombo("shape (m x n x k)", shape_text(s[0], s[1], s[2]).c_str())) {
      for (std::size_t i = 0; i < shapes_.size(); ++i)
        if (ImGui::Selectable(shape_text(shapes_[i][0], shapes_[i][1], shapes_[i][2]).c_str(), i == shape_)) shape_ = i;
      ImGui::EndCombo();
    }
  }

  std::vector<const BenchRow*> rows_at_shape() const {
    std::vector<const BenchRow*> rows;
    const auto& s = shapes_[shape_];
    for (const BenchRow& r : results_->rows)
      if (r.m == s[0] && r.n == s[1] && r.k == s[2]) rows.push_back(&r);
    return rows;
  }

  // One bar per kernel: its time against cuBLAS FP32's at this shape.
  void draw_bars() const {
    const std::vector<const BenchRow*> rows = rows_at_shape();
    double top = 100;
    for (const BenchRow* r : rows) top = std::max(top, r->pct_cublas);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float label = ImGui::GetFontSize() * 11, height = ImGui::GetFontSize() * 1.15f;
    const float width = std::max(50.0f, ImGui::GetContentRegionAvail().x - label - ImGui::GetFontSize() * 9);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const BenchRow& r = *rows[i];
      const float y = p0.y + i * height;
      dl->AddText(ImVec2(p0.x, y), IM_COL32(210, 210, 215, 255), r.kernel.c_str());
      const float x0 = p0.x + label;
      char value[160];
      if (r.status != RowStatus::Ok) {
        std::snprintf(value, sizeof value, "%s: %s", std::string(row_status_name(r.status)).c_str(), r.message.c_str());
        dl->AddText(ImVec2(x0, y), IM_COL32(230, 120, 110, 255), value);
        continue;
      }
      const float len = width * static_cast<float>(r.pct_cublas / top);
      dl->AddRectFilled(ImVec2(x0, y + 2), ImVec2(x0 + len, y + height - 2), family_color(r));
      std::snprintf(value, sizeof value, "%.1f%%  %.0f GFLOP/s", r.pct_cublas, r.gflops);
      dl->AddText(ImVec2(x0 + len + 4, y), IM_COL32(200, 200, 205, 255), value);
      if (ImGui::IsMouseHoveringRect(ImVec2(p0.x, y), ImVec2(x0 + width, y + height))) {
        char paired[120] = "";
        if (r.reference_ms > 0)
          std::snprintf(paired, sizeof paired, "\ntimed in alternating rounds with cuBLAS %s: %.4f ms there",
                        r.precision == "tf32" ? "TF32" : "FP32", r.reference_ms);
        ImGui::SetTooltip("%s: %.4f ms (median of %d runs, %.4f..%.4f)%s\n%.1f%% of cuBLAS FP32, %.1f%% of cuBLAS "
                          "TF32, %.1f%% of the FP32 peak\nerror %.2e against double precision, %.2e against cuBLAS",
                          r.kernel.c_str(), r.time_ms, r.runs, r.time_min_ms, r.time_max_ms, paired, r.pct_cublas,
                          r.pct_cublas_tf32, r.pct_peak, r.rel_err_ref, r.rel_err_cublas);
      }
    }
    const float x100 = p0.x + label + width * static_cast<float>(100.0 / top);
    dl->AddLine(ImVec2(x100, p0.y), ImVec2(x100, p0.y + rows.size() * height), IM_COL32(255, 220, 80, 200));
    ImGui::Dummy(ImVec2(label + width, rows.size() * height));
    ImGui::TextDisabled("bars: time of cuBLAS SGEMM (FP32) over the kernel's, same shape, same run; yellow: 100%%. "
                        "Blue: visualized kernels, green: FP32 ladder, orange: TF32 tensor cores, grey: cuBLAS.");
  }

  // GFLOP/s of the chosen kernels over the square sizes, log-log.
  void draw_lines() {
    std::map<std::string, std::vector<std::pair<int, double>>> series;
    std::vector<std::string> order;
    for (const BenchRow& r : results_->rows) {
      if (r.m != r.n || r.n != r.k) continue;
      if (!series.count(r.kernel)) order.push_back(r.kernel);
      if (r.status == RowStatus::Ok) series[r.kernel].push_back({r.m, r.gflops});
      else series[r.kernel];
    }
    if (order.empty()) {
      ImGui::TextDisabled("no square sizes in these results");
      return;
    }
    int lo = 1 << 30, hi = 1;
    double top = 1;
    for (auto& [name, points] : series)
      for (const auto& [e, g] : points) lo = std::min(lo, e), hi = std::max(hi, e), top = std::max(top, g);
    const float height = ImGui::GetFontSize() * 22;
    ImGui::BeginChild("##kernels", ImVec2(ImGui::GetFontSize() * 12, height), true);
    for (std::size_t i = 0; i < order.size(); ++i) {
      bool on = shown_.count(order[i]) > 0;
      ImGui::PushStyleColor(ImGuiCol_Text, series_color(i));
      if (ImGui::Checkbox(order[i].c_str(), &on)) {
        if (on) shown_.insert(order[i]);
        else shown_.erase(order[i]);
      }
      ImGui::PopStyleColor();
    }
    ImGui::EndChild();
    ImGui::SameLine();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const ImVec2 size(std::max(100.0f, ImGui::GetContentRegionAvail().x), height);
    const LogAxis x{double(lo) / 1.2, double(hi) * 1.2}, y{std::max(1.0, top / 3e3), top * 2};
    ImDrawList* dl = ImGui::GetWindowDrawList();
    draw_log_grid(dl, p0, size, x, y, "N (m = n = k)", "GFLOP/s");
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (!shown_.count(order[i])) continue;
      auto points = series[order[i]];
      std::sort(points.begin(), points.end());
      ImVec2 prev{};
      for (std::size_t j = 0; j < points.size(); ++j) {
        const ImVec2 p(p0.x + x.at(points[j].first) * size.x, p0.y + (1.0f - y.at(points[j].second)) * size.y);
        dl->AddCircleFilled(p, 3.0f, series_color(i));
        if (j) dl->AddLine(prev, p, series_color(i), 2.0f);
        if (ImGui::IsMouseHoveringRect(ImVec2(p.x - 4, p.y - 4), ImVec2(p.x + 4, p.y + 4)))
          ImGui::SetTooltip("%s at %d^3: %.0f GFLOP/s", order[i].c_str(), points[j].first, points[j].second);
        prev = p;
      }
    }
    ImGui::Dummy(size);
  }

  // The roofline of this GPU: attainable GFLOP/s against FLOPs per global byte.
  void draw_roofline() const {
    const BenchCeilings& c = results_->ceilings;
    const Roofline roof = fp32_roofline(c);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const ImVec2 size(std::max(100.0f, ImGui::GetContentRegionAvail().x), ImGui::GetFontSize() * 26);
    const double roof_top = std::max({c.peak_fp32_gflops, c.cublas_tf32_gflops, 1.0});
    const LogAxis x{0.05, 5000}, y{std::max(1.0, roof_top / 1e5), roof_top * 2};
    ImDrawList* dl = ImGui::GetWindowDrawList();
    draw_log_grid(dl, p0, size, x, y, "FLOP per global byte", "GFLOP/s");
    const auto at = [&](double xi, double yg) {
      return ImVec2(p0.x + x.at(xi) * size.x, p0.y + (1.0f - y.at(yg)) * size.y);
    };
    // The memory slope up to the FP32 roof, then the roof.
    if (roof.bandwidth_gbytes_per_s > 0 && roof.compute_gflops > 0) {
      const double ridge = roof.ridge_intensity();
      dl->AddLine(at(x.lo, roof.attainable_gflops(x.lo)), at(ridge, roof.compute_gflops), IM_COL32(230, 230, 235, 255), 2);
      dl->AddLine(at(ridge, roof.compute_gflops), at(x.hi, roof.compute_gflops), IM_COL32(230, 230, 235, 255), 2);
    }
    const auto ceiling = [&](double g, ImU32 color, const char* what) {
      if (g <= 0) return;
      const ImVec2 a = at(x.lo, g), b = at(x.hi, g);
      for (float px = a.x; px < b.x; px += 10) dl->AddLine(ImVec2(px, a.y), ImVec2(std::min(px + 5, b.x), a.y), color);
      char label[96];
      std::snprintf(label, sizeof label, "%s %.1f TFLOP/s", what, g / 1e3);
      dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(label).x - 4, a.y - ImGui::GetFontSize()), color, label);
    };
    ceiling(c.cublas_fp32_gflops, IM_COL32(200, 200, 205, 255), "cuBLAS FP32");
    ceiling(c.cublas_tf32_gflops, IM_COL32(240, 150, 60, 255), "cuBLAS TF32");
    char peak[96];
    std::snprintf(peak, sizeof peak, "FP32 peak %.1f TFLOP/s, copy %.0f GB/s", c.peak_fp32_gflops / 1e3, c.copy_gbytes_per_s);
    dl->AddText(ImVec2(p0.x + 40, p0.y + ImGui::GetFontSize() * 1.2f), IM_COL32(230, 230, 235, 255), peak);
    for (const BenchRow* r : rows_at_shape()) {
      if (r->status != RowStatus::Ok || r->intensity <= 0) continue;
      const ImVec2 p = at(r->intensity, r->gflops);
      dl->AddCircleFilled(p, 4.5f, family_color(*r));
      if (ImGui::IsMouseHoveringRect(ImVec2(p.x - 5, p.y - 5), ImVec2(p.x + 5, p.y + 5)))
        ImGui::SetTooltip("%s: %.1f FLOP/B, %.0f GFLOP/s (%.0f%% of what the roofline allows there)", r->kernel.c_str(),
                          r->intensity, r->gflops, 100.0 * r->gflops / std::max(1.0, roof.attainable_gflops(r->intensity)));
    }
    ImGui::Dummy(size);
    ImGui::TextDisabled("x: FLOPs per byte the kernel's tiling requests from global memory (cuBLAS: the least any kernel "
                        "moves, its own tiling is not known); hover a dot for its kernel.");
  }

  char path_[1024] = "assets/bench/h100.json";
  bool tried_default_ = false;
  std::vector<Recorded> recorded_;
  int size_ = 4096;
  std::shared_ptr<BenchResults> results_;
  std::string origin_;
  std::vector<std::array<int, 3>> shapes_;
  std::size_t shape_ = 0;
  std::set<std::string> shown_;  // kernels drawn in the line chart
  std::shared_ptr<RunningBench> running_;
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(bench, ts::ui::PanelBench)
