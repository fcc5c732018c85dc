// coalescing.cpp — sectors and lines of one warp-level global access.
#include "app/core/analysis/coalescing.h"

#include <algorithm>

#include "app/core/analysis/small_sort.h"

namespace ts {

GlobalFootprint global_footprint(std::span<const std::uint64_t> byte_addresses, std::uint32_t access_bytes) {
  GlobalFootprint f;
  f.lanes = static_cast<std::uint32_t>(byte_addresses.size());
  const AccessWords touched(byte_addresses, access_bytes);
  SmallSorted words(touched.bytes(), kElementBytes);
  f.words = words.distinct();
  // Sorted words give sorted sectors and lines: count the changes.
  std::uint64_t last_sector = ~0ull, last_line = ~0ull;
  for (std::uint64_t w : words.values()) {
    const std::uint64_t byte = w * kElementBytes;
    if (byte / kSectorBytes != last_sector) ++f.sectors, last_sector = byte / kSectorBytes;
    if (byte / kLineBytes != last_line) ++f.lines, last_line = byte / kLineBytes;
  }
  return f;
}

std::vector<std::uint64_t> touched_sectors(std::span<const std::uint64_t> byte_addresses, std::uint32_t access_bytes) {
  const AccessWords touched(byte_addresses, access_bytes);
  SmallSorted sectors(touched.bytes(), kSectorBytes);
  return {sectors.values().begin(), sectors.values().end()};
}

}  // namespace ts
