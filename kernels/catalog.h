// catalog.h — what tilescope knows about each kernel family without running it:
// names, launch shape, shared tiles, the k-iteration rule and the closed-form
// event counts that the tests hold every recording to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/core/checked_math.h"
#include "app/core/dim3.h"
#include "app/core/event.h"
#include "kernels/kernel_kind.h"

namespace ts {

struct KernelInfo {
  KernelKind kind;
  std::string_view name;         // command-line name, e.g. "tiled"
  std::string_view title;        // for people, e.g. "Shared-memory tiled"
  std::string_view source_file;  // the kernel header, under kernels/
  std::string_view summary;      // one line: what to look at
  int cells_per_thread_edge;     // 2 for the coarsened kernel: 2 x 2 cells per thread
  int barriers_per_iteration;    // 0 for the naive kernels
};

const KernelInfo& kernel_info(KernelKind kind);
std::optional<KernelKind> find_kernel(std::string_view name);
std::string kernel_names();  // "naive, naive-row, ..." for messages
// The naive kernels read global memory directly: no shared tiles, no barriers,
// and TILE is only their block edge.
bool is_naive(KernelKind kind);

// TILE must be one of kAllTiles. For the naive kernels it is the block edge.
bool is_valid_tile(int tile);

struct LaunchShape {
  Dim3 grid, block;
};
LaunchShape launch_shape(KernelKind kind, int tile, int m, int n);

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
