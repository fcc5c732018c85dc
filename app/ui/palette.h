// palette.h — the colours of the replay, shared by the grids, the legends and
// the window tests (which look for these exact colours on screenshots).
#pragma once

#include "app/render/renderer.h"

namespace ts::ui::palette {

using render::Rgba8;

// The alpha of a cell colour is its priority when the grid is zoomed out and
// one pixel stands for many cells (renderer.h): the selected cell over its
// thread's cells over its block, the pair at k over the segments read over
// the block's tiles, any highlight over the value-shaded cells (kPlain).
// Outlines, drawn blended, use alpha as opacity.
inline constexpr std::uint8_t kPlain = render::kPlainPriority;

// Cells with nothing to show: a dim grey, lighter for larger |value|.
inline constexpr Rgba8 kIdleDark{38, 40, 46, kPlain}, kIdleLight{92, 96, 108, kPlain};
// C: the selected cell, the other cells its thread computes, its block's cells.
inline constexpr Rgba8 kSelectedCell{255, 128, 0, 255};
inline constexpr Rgba8 kThreadCell{255, 190, 110, 220};
inline constexpr Rgba8 kBlockCell{54, 100, 178, 160};
// A and B: the block's tiles this iteration, this thread's own copy, the
// segment the selected cell consumes this iteration, the pair at k.
inline constexpr Rgba8 kBlockTile{40, 130, 80, 160};
inline constexpr Rgba8 kCopied{130, 235, 120, 220};
inline constexpr Rgba8 kReads{190, 160, 40, 200};
inline constexpr Rgba8 kNow{255, 236, 60, 255};
// Register tiling: every element of A and B the thread reads into registers
// in this iteration (its slab of each tile), and the ones it holds at k: the
// factors of the outer product that updates all of its cells.
inline constexpr Rgba8 kThreadReads{120, 100, 45, 190};
inline constexpr Rgba8 kRegisters{70, 215, 225, 240};
// One vector access (a float4 or float2 read or copy): the outline around its
// words, dark so that two accesses side by side read as two.
inline constexpr Rgba8 kVectorAccess{16, 40, 48, 255};
// A pipeline's copies in flight: words a cp.async is filling for a later k-tile.
inline constexpr Rgba8 kInFlight{80, 120, 200, 200};
// 'All blocks': tiles loaded this iteration, shaded by how many blocks load them.
inline constexpr Rgba8 kAllBlocksFew{60, 60, 130, 100}, kAllBlocksMany{150, 110, 255, 100};
// Colour by value: negative, zero, positive.
inline constexpr Rgba8 kNegative{60, 110, 230, kPlain}, kZero{235, 235, 235, kPlain}, kPositive{220, 60, 50, kPlain};
// Outlines drawn over the grids.
inline constexpr Rgba8 kBlockOutline{120, 180, 255};
inline constexpr Rgba8 kSelectionOutline{255, 255, 255};
inline constexpr Rgba8 kWarpOutline{225, 110, 255};
inline constexpr Rgba8 kThreadOutline{255, 170, 60};
inline constexpr Rgba8 kHoverOutline{255, 255, 255, 150};

inline constexpr Rgba8 mix(Rgba8 a, Rgba8 b, float t) {
  auto l = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(static_cast<float>(x) + (static_cast<float>(y) - static_cast<float>(x)) * t + 0.5f);
  };
  return {l(a.r, b.r), l(a.g, b.g), l(a.b, b.b), l(a.a, b.a)};
}

// A cell colour (whose alpha is a priority) as an outline colour.
inline constexpr Rgba8 opaque(Rgba8 c) { return {c.r, c.g, c.b, 255}; }

}  // namespace ts::ui::palette
