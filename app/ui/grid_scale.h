// grid_scale.h — the zoom range of every grid canvas (GridCanvas), in pixels
// per cell. Plain constants, no ImGui: the Shared memory panel's layout
// search (shared_layout.cpp) looks for its scale within the same range.
#pragma once

namespace ts::ui {

inline constexpr float kMinGridScale = 0.05f, kMaxGridScale = 400.0f;

}  // namespace ts::ui
