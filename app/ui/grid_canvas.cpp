// grid_canvas.cpp — camera, interaction and the GL callback.
#include "app/ui/grid_canvas.h"
#include "app/ui/grid_scale.h"

#include <algorithm>
#include <cmath>

namespace ts::ui {
namespace {

constexpr float kZoomPerNotch = 1.15f;
constexpr float kMinCellTextPx = 7.0f;  // smaller is not a number any more
constexpr float kDragThreshold = 4.0f;  // pixels before a press becomes a pan
constexpr float kFitMargin = 0.04f;     // of the canvas, around the fitted world,
constexpr float kMaxFitMarginPx = 8.0f;  // and no more: on a projector every pixel goes to the cells
constexpr float kFitLabelFonts = 1.6f;  // the band above the fitted grids, for their labels
constexpr float kLabelInsetPx = 2.0f;   // a label held at the canvas' left edge, this far in

}  // namespace

void GridCanvas::render_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const auto* p = static_cast<const Packet*>(cmd->UserCallbackData);
  if (p->renderer) p->renderer->draw(p->view, p->grids, p->rects);
}

ImVec2 GridCanvas::fit_room(ImVec2 canvas_size) {
  const float label_room = ImGui::GetFontSize() * kFitLabelFonts;
  const float mx = std::min(canvas_size.x * kFitMargin, kMaxFitMarginPx),
              my = std::min(canvas_size.y * kFitMargin, kMaxFitMarginPx);
  return {canvas_size.x - 2 * mx, canvas_size.y - 2 * my - label_room};
}

void GridCanvas::fit(std::span<const Grid> grids) {
  // The grids' extent, in cells from world (0, 0), and what the caller reserved.
  float world_w = reserved_world_.x, world_h = reserved_world_.y;
  for (const Grid& g : grids) {
    world_w = std::max(world_w, g.x + static_cast<float>(g.cols));
    world_h = std::max(world_h, g.y + static_cast<float>(g.rows));
  }
  const float label_room = ImGui::GetFontSize() * kFitLabelFonts;
  const ImVec2 room = fit_room(canvas_size_);
  const float w = room.x, h = room.y;
  scale_ = std::clamp(std::min(w / std::max(1.0f, world_w), h / std::max(1.0f, world_h)), kMinGridScale, kMaxGridScale);
  origin_ = {canvas_pos_.x + (canvas_size_.x - world_w * scale_) * 0.5f,
             canvas_pos_.y + label_room + (canvas_size_.y - label_room - world_h * scale_) * 0.5f};
}

GridCanvas::Result GridCanvas::draw(const char* id, render::Renderer* renderer, std::span<const Grid> grids,
                                    std::span<const render::RectDraw> rects, std::uint64_t fit_key, float height) {
  Result result;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 size(std::max(avail.x, 50.0f), std::max(height > 0 ? height : avail.y, 50.0f));
  const ImVec2 old_pos = canvas_pos_;
  canvas_pos_ = ImGui::GetCursorScreenPos();
  canvas_size_ = size;
  // Follow the window when it moves; refit on request or when resized.
  origin_.x += canvas_pos_.x - old_pos.x;
  origin_.y += canvas_pos_.y - old_pos.y;
  if (fit_key != fitted_key_ || size.x != fitted_canvas_.x || size.y != fitted_canvas_.y || scale_ <= 0) {
    fit(grids);
    fitted_key_ = fit_key;
    fitted_canvas_ = size;
  }
  if (camera_) {
    scale_ = std::clamp(camera_->z, kMinGridScale, kMaxGridScale);
    origin_ = {canvas_pos_.x + size.x * 0.5f - camera_->x * scale_, canvas_pos_.y + size.y * 0.5f - camera_->y * scale_};
    camera_.reset();
  }

  ImGui::InvisibleButton(id, size, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                                       ImGuiButtonFlags_MouseButtonMiddle);
  const bool hovered = ImGui::IsItemHovered();
  const ImGuiIO& io = ImGui::GetIO();

  // Zoom around the mouse; pan by dragging any button.
  if (hovered && io.MouseWheel != 0.0f) {
    const float old_scale = scale_;
    scale_ = std::clamp(scale_ * std::pow(kZoomPerNotch, io.MouseWheel), kMinGridScale, kMaxGridScale);
    const float f = scale_ / old_scale;
    origin_ = {io.MousePos.x - (io.MousePos.x - origin_.x) * f, io.MousePos.y - (io.MousePos.y - origin_.y) * f};
  }
  if (ImGui::IsItemActive()) {
    for (int b = 0; b < 3; ++b) {
      if (!ImGui::IsMouseDragging(b, kDragThreshold)) continue;
      dragging_ = true;
      origin_.x += io.MouseDelta.x;
      origin_.y += io.MouseDelta.y;
      break;
    }
  }

  if (hovered) result.hover = hit(grids, io.MousePos);
  if (ImGui::IsItemDeactivated()) {
    if (!dragging_ && ImGui::IsMouseReleased(ImGuiMouseButton_Left)) result.clicked = hit(grids, io.MousePos);
    dragging_ = false;
  }

  // The GL pass: grids and highlight rectangles, clipped to the canvas.
  // No background of its own: the window's (or, in the locked layout, the
  // frame's clear colour) shows between the grids. Every full-canvas pass
  // costs milliseconds on a software rasterizer.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  labels_drawn_.clear();
  if (renderer) {
    const float fb_scale = io.DisplayFramebufferScale.x;
    const float fb_h = io.DisplaySize.y * io.DisplayFramebufferScale.y;
    packet_.renderer = renderer;
    render::CanvasView& v = packet_.view;
    v.fb_x = static_cast<int>(std::lround(canvas_pos_.x * fb_scale));
    v.fb_w = static_cast<int>(std::lround(size.x * fb_scale));
    v.fb_h = static_cast<int>(std::lround(size.y * fb_scale));
    v.fb_y = static_cast<int>(std::lround(fb_h - (canvas_pos_.y + size.y) * fb_scale));
    v.width = size.x;
    v.height = size.y;
    v.origin_x = origin_.x - canvas_pos_.x;
    v.origin_y = origin_.y - canvas_pos_.y;
    v.scale = scale_;
    packet_.grids.clear();
    for (const Grid& g : grids) {
      render::GridDraw d;
      d.colors = g.colors;
      d.x = g.x;
      d.y = g.y;
      d.tile_rows = g.tile_rows;
      d.tile_cols = g.tile_cols;
      d.tile_line = g.tile_line;
      packet_.grids.push_back(d);
    }
    packet_.rects.assign(rects.begin(), rects.end());
    dl->PushClipRect(canvas_pos_, ImVec2(canvas_pos_.x + size.x, canvas_pos_.y + size.y), true);
    // The canvas as far as the window shows it (the clip rectangle just
    // pushed, intersected with the window's): the GL pass is scissored to it.
    const ImVec2 clip_min = dl->GetClipRectMin(), clip_max = dl->GetClipRectMax();
    const long x0 = std::lround(clip_min.x * fb_scale), x1 = std::lround(clip_max.x * fb_scale);
    const long y0 = std::lround(clip_min.y * fb_scale), y1 = std::lround(clip_max.y * fb_scale);
    v.clip_x = static_cast<int>(x0);
    v.clip_y = static_cast<int>(std::lround(fb_h) - y1);
    v.clip_w = static_cast<int>(x1 - x0);
    v.clip_h = static_cast<int>(y1 - y0);
    if (v.clip_w > 0 && v.clip_h > 0) {  // nothing of the canvas shows: no GL pass at all
      dl->AddCallback(&GridCanvas::render_callback, &packet_);
      dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
    }
    draw_labels(grids);
    dl->PopClipRect();
  }
  return result;
}

std::optional<GridCanvas::Hit> GridCanvas::hit(std::span<const Grid> grids, ImVec2 p) const {
  if (scale_ <= 0) return std::nullopt;
  for (int i = 0; i < static_cast<int>(grids.size()); ++i) {
    const Grid& g = grids[i];
    // In double: at N = 4096 and sub-pixel cells a float's rounding could move a pixel into the next cell.
    const double cx = (double(p.x) - origin_.x) / scale_ - g.x, cy = (double(p.y) - origin_.y) / scale_ - g.y;
    if (cx >= 0 && cy >= 0 && cx < double(g.cols) && cy < double(g.rows))
      return Hit{i, static_cast<std::uint32_t>(cy), static_cast<std::uint32_t>(cx)};
  }
  return std::nullopt;
}

void GridCanvas::draw_labels(std::span<const Grid> grids) {
  // Above each grid, in the room it has: no wider than the space before the
  // next grid to its right (As and Bs side by side), no taller than the gap
  // under the grid above it (C under B, whose cells may hold numbers). A
  // smaller font first, then cut; none at all below a legible size.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  for (const Grid& g : grids) {
    if (g.label.empty()) continue;
    const ImVec2 o = grid_origin(g);
    // A grid panned past the canvas' left edge keeps its label at that edge, over its visible part.
    const float x = std::max(o.x, canvas_pos_.x + kLabelInsetPx);
    if (x >= o.x + g.cols * scale_) continue;
    const float width = ImGui::CalcTextSize(g.label.c_str()).x;
    float room_x = canvas_pos_.x + canvas_size_.x - x, room_y = font * 1.25f;
    for (const Grid& other : grids) {
      if (&other == &g) continue;
      const ImVec2 p = grid_origin(other);
      const float right = p.x + other.cols * scale_, bottom = p.y + other.rows * scale_;
      if (p.x > o.x && std::fabs(p.y - o.y) < font * 1.25f) room_x = std::min(room_x, p.x - x - font * 0.5f);
      if (bottom <= o.y + 0.5f && right > x && p.x < x + width) room_y = std::min(room_y, o.y - bottom);
    }
    float px = width > room_x ? font * room_x / width : font;
    px = std::min(px, room_y * 0.8f);
    if (px < kMinCellTextPx || room_x <= 0) continue;
    const ImVec2 at(x, o.y - px * 1.15f);
    dl->PushClipRect(ImVec2(x, o.y - room_y), ImVec2(x + room_x, o.y), true);
    dl->AddText(ImGui::GetFont(), px, at, IM_COL32(230, 230, 230, 255), g.label.c_str());
    dl->PopClipRect();
    // What shows of it: inside its clip rectangle and the canvas (a label
    // panned out of view is not recorded).
    const ImVec2 size = ImGui::GetFont()->CalcTextSizeA(px, FLT_MAX, 0.0f, g.label.c_str());
    const ImVec2 lo(at.x, std::max(at.y, canvas_pos_.y)),
        hi(std::min({at.x + size.x, x + room_x, canvas_pos_.x + canvas_size_.x}),
           std::min({at.y + size.y, o.y, canvas_pos_.y + canvas_size_.y}));
    if (lo.x < hi.x && lo.y < hi.y) labels_drawn_.push_back({static_cast<int>(&g - grids.data()), lo, hi, px});
  }
}

void GridCanvas::draw_cell_text(std::span<const Grid> grids, CellText text, const void* context,
                                float min_cell_px, bool shrink_to_fit) const {
  if (scale_ < min_cell_px && !shrink_to_fit) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(canvas_pos_, ImVec2(canvas_pos_.x + canvas_size_.x, canvas_pos_.y + canvas_size_.y), true);
  // Text no wider than the cell: scale the font down to fit when needed.
  // (Larger when every cell must show its number: most are one or two digits.)
  const float font_px = std::min(ImGui::GetFontSize(), scale_ * (shrink_to_fit ? 0.55f : 0.42f));
  for (int i = 0; i < static_cast<int>(grids.size()); ++i) {
    const Grid& g = grids[i];
    const ImVec2 o = grid_origin(g);
    // Only the visible cells.
    const auto first_col = static_cast<std::uint32_t>(std::max(0.0f, std::floor((canvas_pos_.x - o.x) / scale_)));
    const auto first_row = static_cast<std::uint32_t>(std::max(0.0f, std::floor((canvas_pos_.y - o.y) / scale_)));
    const auto end_col = static_cast<std::uint32_t>(
        std::clamp(std::ceil((canvas_pos_.x + canvas_size_.x - o.x) / scale_), 0.0f, static_cast<float>(g.cols)));
    const auto end_row = static_cast<std::uint32_t>(
        std::clamp(std::ceil((canvas_pos_.y + canvas_size_.y - o.y) / scale_), 0.0f, static_cast<float>(g.rows)));
    for (std::uint32_t r = first_row; r < end_row; ++r)
      for (std::uint32_t c = first_col; c < end_col; ++c) {
        const std::string s = text(context, i, r, c);
        if (s.empty()) continue;
        float px = font_px;
        ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(px, FLT_MAX, 0.0f, s.c_str());
        if (shrink_to_fit && ts.x > scale_ * 0.9f) {  // a long number in a small cell: a smaller font
          px = std::max(kMinCellTextPx, px * scale_ * 0.9f / ts.x);
          ts = ImGui::GetFont()->CalcTextSizeA(px, FLT_MAX, 0.0f, s.c_str());
        }
        if (ts.x > scale_ * 0.95f || ts.y > scale_ * 0.95f) continue;
        const ImVec2 p(o.x + (c + 0.5f) * scale_ - ts.x * 0.5f, o.y + (r + 0.5f) * scale_ - ts.y * 0.5f);
        dl->AddText(ImGui::GetFont(), px, ImVec2(p.x + 1, p.y + 1), IM_COL32(0, 0, 0, 200), s.c_str());
        dl->AddText(ImGui::GetFont(), px, p, IM_COL32(255, 255, 255, 255), s.c_str());
      }
  }
  dl->PopClipRect();
}

}  // namespace ts::ui
