// catalog.h — what tilescope knows about each kernel family without running it:
// names, launch shape, shared tiles, the k-iteration rule and the closed-form
// event counts that the tests hold every recording to. A textbook family is
// sized by TILE; a rung of the ladder has one fixed configuration
// (kernels/rungs.h) and ignores TILE.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "trace/checked_math.h"
#include "trace/dim3.h"
#include "trace/event.h"
#include "trace/tiling.h"
#include "kernels/kernel_kind.h"
#include "kernels/rungs.h"

namespace ts {

struct KernelInfo {
  KernelKind kind;
  std::string_view name;         // command-line name, e.g. "tiled"
  std::string_view title;        // for people, e.g. "Shared-memory tiled"
  std::string_view source_file;  // the kernel header, under kernels/
  std::string_view summary;      // one line: what to look at
  int cells_per_thread_edge;     // 2 for the coarsened kernel: 2 x 2 cells per thread (1 for a rung)
  int barriers_per_iteration;    // 0 for the naive kernels
};

// The ladder, lowest rung first, as the app's picker lists it: the recorded
// rungs with their kind, the others benchmark-only with the reason.
struct LadderRung {
  std::string_view name, title, summary;
  std::optional<KernelKind> kind;     // recorded and replayed: the catalog's kind
  std::string_view benchmark_only;    // otherwise: why it is only timed, never recorded
};
std::span<const LadderRung> ladder_rungs();

const KernelInfo& kernel_info(KernelKind kind);
std::optional<KernelKind> find_kernel(std::string_view name);
std::string kernel_names();  // "naive, naive-row, ..." for messages
// The naive kernels read global memory directly: no shared tiles, no barriers,
// and TILE is only their block edge.
bool is_naive(KernelKind kind);

// TILE must be one of kAllTiles. For the naive kernels it is the block edge.
bool is_valid_tile(int tile);
// Whether kind is sized by TILE (the textbook families) or fixed (a rung).
inline bool takes_tile(KernelKind kind) { return !is_rung(kind); }

// Why kind cannot run M x N x K (one line with the rule), or empty. Only the
// rungs have a rule beyond positive sizes: float4 rows need K and N multiples of 4.
std::string size_refusal(KernelKind kind, int m, int n, int k);

// The block, warp and register tiles, as the launch description carries them.
Tiling kernel_tiling(KernelKind kind, int tile);

struct LaunchShape {
  Dim3 grid, block;
};
LaunchShape launch_shape(KernelKind kind, int tile, int m, int n);

// Which block tile of C a block computes: its row and column among C's tiles
// (kernel_tiling's BM x BN for a rung, TILE x cells per thread otherwise).
// Most grids are laid out like the tiles (blockIdx.x the column, y the row;
// naive-row the other way round). A rung with group_m > 0 (tf32-tensor-core)
// launches a one-dimensional grid whose blocks walk down group_m block rows
// before moving one column right (rows of A and columns of B stay in L2 for
// the blocks resident together): the kernels' own formula,
// kernels/api/block_order.h, held to the blocks' recorded stores of C by
// rung_catalog_test.
// The trace itself needs none of this: what a block computes is its stores.
struct BlockTile {
  std::uint32_t row = 0, col = 0;
  friend bool operator==(const BlockTile&, const BlockTile&) = default;
};
BlockTile block_tile_of(KernelKind kind, int tile, int m, int n, std::uint32_t block);
// The block (linear id) that computes cell (row, col) of C; cells past C clamp to its last tiles.
std::uint32_t block_of_cell(KernelKind kind, int tile, int m, int n, std::uint32_t row, std::uint32_t col);
// The blocks whose tiles share block's row of C (they load the same tiles of A)
// or its column (the same tiles of B), ascending, block among them.
std::vector<std::uint32_t> blocks_sharing_tiles_of(KernelKind kind, int tile, int m, int n, std::uint32_t block);

// The lowest compute capability (major * 10 + minor) a kind's CUDA builds run
// on: 80 for mma.sync on TF32; 0 for every other kind.
int min_compute_capability(KernelKind kind);

// The rows and columns of a shared tile; columns include any padding word.
struct SharedTile {
  ArrayId id;
  int rows, cols;
};
std::vector<SharedTile> shared_tiles(KernelKind kind, int tile);
std::uint32_t shared_bytes(KernelKind kind, int tile);

IterationRule iteration_rule(KernelKind kind, int tile, int m, int n, int k);

// Exact event counts of one recording, from closed forms. Counts too large
// for 64 bits saturate at 2^64 - 1, so that a limit check on them cannot wrap.
struct EventCounts {
  std::uint64_t global_loads_a = 0, global_loads_b = 0, global_stores_c = 0;
  std::uint64_t shared_stores = 0, shared_padding_stores = 0, shared_loads = 0;
  std::uint64_t total() const {
    std::uint64_t sum = 0;
    for (std::uint64_t x : {global_loads_a, global_loads_b, global_stores_c, shared_stores, shared_loads})
      sum = saturating_add(sum, x);
    return sum;
  }
};
EventCounts expected_counts(KernelKind kind, int tile, int m, int n, int k);

// How many times each element of A (of B) is loaded from global memory.
std::uint64_t loads_per_a_element(KernelKind kind, int tile, int m, int n);
std::uint64_t loads_per_b_element(KernelKind kind, int tile, int m, int n);

}  // namespace ts
