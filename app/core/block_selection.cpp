// block_selection.cpp — parse the blocks of a focused trace.
#include "app/core/block_selection.h"

#include <algorithm>
#include <charconv>

namespace ts {
namespace {

bool parse_uint(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

std::string grid_text(const Dim3& g) { return std::to_string(g.x) + "x" + std::to_string(g.y); }

}  // namespace

BlockSelection parse_block_selection(const std::string& text, const Dim3& grid, std::uint64_t blocks_per_wave,
                                     const std::string& no_wave_why) {
  BlockSelection sel;
  auto fail = [&](const std::string& why) {
    sel.blocks.clear();
    sel.error = "--blocks '" + text + "': " + why;
    return sel;
  };
  const std::string_view t(text);
  std::uint64_t v = 0;
  if (t.starts_with("row:")) {
    if (!parse_uint(t.substr(4), v) || v >= grid.y) return fail("the grid has block rows 0.." + std::to_string(grid.y - 1));
    for (std::uint32_t x = 0; x < grid.x; ++x) sel.blocks.push_back(static_cast<std::uint32_t>(v * grid.x + x));
    return sel;
  }
  if (t.starts_with("col:")) {
    if (!parse_uint(t.substr(4), v) || v >= grid.x)
      return fail("the grid has block columns 0.." + std::to_string(grid.x - 1));
    for (std::uint32_t y = 0; y < grid.y; ++y) sel.blocks.push_back(static_cast<std::uint32_t>(y * grid.x + v));
    return sel;
  }
  const std::uint64_t blocks = grid.count();
  if (t.starts_with("wave:")) {
    if (blocks_per_wave == 0) return fail(no_wave_why);
    const std::uint64_t waves = (blocks + blocks_per_wave - 1) / blocks_per_wave;
    if (!parse_uint(t.substr(5), v) || v >= waves)
      return fail("this launch has waves 0.." + std::to_string(waves - 1) + " of " + std::to_string(blocks_per_wave) +
                  " blocks");
    for (std::uint64_t b = v * blocks_per_wave; b < std::min(blocks, (v + 1) * blocks_per_wave); ++b)
      sel.blocks.push_back(static_cast<std::uint32_t>(b));
    return sel;
  }
  // "x,y;x,y;..."
  std::size_t at = 0;
  while (at <= t.size()) {
    const std::size_t end = std::min(t.find(';', at), t.size());
    const std::string_view item = t.substr(at, end - at);
    const std::size_t comma = item.find(',');
    std::uint64_t x = 0, y = 0;
    if (comma == std::string_view::npos || !parse_uint(item.substr(0, comma), x) || !parse_uint(item.substr(comma + 1), y))
      return fail("expected x,y;x,y (block coordinates), row:Y, col:X or wave:W");
    if (x >= grid.x || y >= grid.y) return fail("block (" + std::to_string(x) + "," + std::to_string(y) +
                                                ") is outside the grid of " + grid_text(grid) + " blocks");
    sel.blocks.push_back(static_cast<std::uint32_t>(y * grid.x + x));
    at = end + 1;
  }
  std::sort(sel.blocks.begin(), sel.blocks.end());
  sel.blocks.erase(std::unique(sel.blocks.begin(), sel.blocks.end()), sel.blocks.end());
  return sel;
}

std::vector<std::uint32_t> blocks_sharing_tiles(const Dim3& grid, std::uint32_t x, std::uint32_t y) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t bx = 0; bx < grid.x; ++bx) out.push_back(y * grid.x + bx);
  for (std::uint32_t by = 0; by < grid.y; ++by)
    if (by != y) out.push_back(by * grid.x + x);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ts
