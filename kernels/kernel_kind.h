// kernel_kind.h — the kernel families tilescope records and benchmarks.
#pragma once
#include <cstdint>

namespace ts {

enum class KernelKind : std::uint8_t {
  Naive = 0,        // threadIdx.x -> column of C
  NaiveRow,         // threadIdx.x -> row of C (uncoalesced)
  Tiled,            // shared-memory tiles, one cell per thread
  Coarsened,        // shared-memory tiles, 2 x 2 cells per thread
  TiledTransposed,  // B's tile stored transposed (bank conflicts)
  TiledPadded,      // the same with one word of padding per row
};

inline constexpr KernelKind kAllKernels[] = {KernelKind::Naive,     KernelKind::NaiveRow,
                                             KernelKind::Tiled,     KernelKind::Coarsened,
                                             KernelKind::TiledTransposed, KernelKind::TiledPadded};

inline constexpr int kAllTiles[] = {2, 4, 8, 16, 32};

}  // namespace ts
