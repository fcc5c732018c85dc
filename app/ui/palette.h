// palette.h — the colours of the replay, shared by the grids, the legends and
// the window tests (which look for these exact colours on screenshots).
#pragma once

#include "app/render/renderer.h"

namespace ts::ui::palette {

using render::Rgba8;

// Cells with nothing to show: a dim grey, lighter for larger |value|.
inline constexpr Rgba8 kIdleDark{38, 40, 46}, kIdleLight{92, 96, 108};
// C: the selected cell, the other cells its thread computes, its block's cells.
inline constexpr Rgba8 kSelectedCell{255, 128, 0};
inline constexpr Rgba8 kThreadCell{255, 190, 110};
inline constexpr Rgba8 kBlockCell{54, 100, 178};
// A and B: the block's tiles this iteration, this thread's own copy, the
// segment the selected cell consumes this iteration, the pair at k.
inline constexpr Rgba8 kBlockTile{40, 130, 80};
inline constexpr Rgba8 kCopied{130, 235, 120};
inline constexpr Rgba8 kReads{190, 160, 40};
inline constexpr Rgba8 kNow{255, 236, 60};
// 'All blocks': tiles loaded this iteration, shaded by how many blocks load them.
inline constexpr Rgba8 kAllBlocksFew{60, 60, 130}, kAllBlocksMany{150, 110, 255};
// Colour by value: negative, zero, positive.
inline constexpr Rgba8 kNegative{60, 110, 230}, kZero{235, 235, 235}, kPositive{220, 60, 50};
// Outlines drawn over the grids.
inline constexpr Rgba8 kBlockOutline{120, 180, 255};
inline constexpr Rgba8 kSelectionOutline{255, 255, 255};
inline constexpr Rgba8 kHoverOutline{255, 255, 255, 150};

inline constexpr Rgba8 mix(Rgba8 a, Rgba8 b, float t) {
  auto l = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(static_cast<float>(x) + (static_cast<float>(y) - static_cast<float>(x)) * t + 0.5f);
  };
  return {l(a.r, b.r), l(a.g, b.g), l(a.b, b.b), l(a.a, b.a)};
}

}  // namespace ts::ui::palette
