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
  // The ladder's rungs (seed 004's kernels 4 on): one fixed configuration each
  // (kernels/rungs.h), no TILE.
  Blocktile1d,  // a column of TM cells per thread in registers
  Blocktile2d,  // TM x TN cells per thread, outer products from registers
  Vectorized,   // blocktile-2d with float4 global and shared accesses, As transposed
  Warptile,     // block, warp and thread tiles
  DoubleBuffer,  // warptile fed by a cp.async pipeline
  Tf32TensorCore,  // warp tiles on the tensor cores (mma.sync m16n8k8 TF32), a cp.async pipeline
};

// The textbook families, each sized by TILE (kAllTiles).
inline constexpr KernelKind kAllKernels[] = {KernelKind::Naive,     KernelKind::NaiveRow,
                                             KernelKind::Tiled,     KernelKind::Coarsened,
                                             KernelKind::TiledTransposed, KernelKind::TiledPadded};

// The recorded rungs of the ladder, lowest first. A new rung: its kind above,
// its configuration in kernels/rungs.h, its row in catalog.cpp, its header in
// kernels/all_kernels.h, and its line in dispatch.h.
inline constexpr KernelKind kRungKernels[] = {KernelKind::Blocktile1d, KernelKind::Blocktile2d, KernelKind::Vectorized,
                                              KernelKind::Warptile, KernelKind::DoubleBuffer,
                                              KernelKind::Tf32TensorCore};

inline constexpr int kAllTiles[] = {2, 4, 8, 16, 32};

}  // namespace ts
