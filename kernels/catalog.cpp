// catalog.cpp — kernel metadata and the closed-form event counts.
#include "kernels/catalog.h"

#include <array>
#include <stdexcept>

namespace ts {
namespace {

constexpr std::array<KernelInfo, 6> kInfos{{
    {KernelKind::Naive, "naive", "Naive (coalesced)", "naive.h",
     "one thread per cell; threadIdx.x walks the columns of C", 1, 0},
    {KernelKind::NaiveRow, "naive-row", "Naive (uncoalesced)", "naive_row.h",
     "one thread per cell; threadIdx.x walks the rows of C, so a warp reads 32 rows", 1, 0},
    {KernelKind::Tiled, "tiled", "Shared-memory tiled", "tiled.h",
     "each block stages TILE x TILE tiles of A and B in shared memory per k-iteration", 1, 2},
    {KernelKind::Coarsened, "coarsened", "Tiled, 2 x 2 cells per thread", "coarsened.h",
     "each thread computes a 2 x 2 set of cells, reusing every shared value twice", 2, 2},
    {KernelKind::TiledTransposed, "tiled-transposed", "Tiled, B transposed in shared", "tiled_transposed.h",
     "B's tile stored as Bs[tx][ty]: lanes stride by a row of Bs, bank conflicts", 1, 2},
    {KernelKind::TiledPadded, "tiled-padded", "Tiled, B transposed + padding", "tiled_transposed.h",
     "B's tile stored transposed with one padding word per row: conflicts gone", 1, 2},
}};

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace

bool is_naive(KernelKind kind) { return kind == KernelKind::Naive || kind == KernelKind::NaiveRow; }

const KernelInfo& kernel_info(KernelKind kind) {
  for (const auto& info : kInfos)
    if (info.kind == kind) return info;
  throw std::invalid_argument("unknown kernel kind");
}

std::optional<KernelKind> find_kernel(std::string_view name) {
  for (const auto& info : kInfos)
    if (info.name == name) return info.kind;
  return std::nullopt;
}

std::string kernel_names() {
  std::string out;
  for (const auto& info : kInfos) {
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

bool is_valid_tile(int tile) {
  for (int t : kAllTiles)
    if (t == tile) return true;
  return false;
}

LaunchShape launch_shape(KernelKind kind, int tile, int m, int n) {
  const auto t = static_cast<std::uint32_t>(tile);
  const auto edge = t * static_cast<std::uint32_t>(kernel_info(kind).cells_per_thread_edge);
  const auto rows = static_cast<std::uint32_t>(ceil_div(m, edge));
  const auto cols = static_cast<std::uint32_t>(ceil_div(n, edge));
  LaunchShape s;
  s.block = {t, t, 1};
  s.grid = kind == KernelKind::NaiveRow ? Dim3{rows, cols, 1} : Dim3{cols, rows, 1};
  return s;
}

std::vector<SharedTile> shared_tiles(KernelKind kind, int tile) {
  switch (kind) {
    case KernelKind::Naive:
    case KernelKind::NaiveRow: return {};
    case KernelKind::Tiled:
    case KernelKind::TiledTransposed: return {{ArrayId::As, tile, tile}, {ArrayId::Bs, tile, tile}};
    case KernelKind::TiledPadded: return {{ArrayId::As, tile, tile}, {ArrayId::Bs, tile, tile + 1}};
    case KernelKind::Coarsened: return {{ArrayId::As, 2 * tile, tile}, {ArrayId::Bs, tile, 2 * tile}};
  }
  return {};
}

std::uint32_t shared_bytes(KernelKind kind, int tile) {
  std::uint32_t bytes = 0;
  for (const auto& s : shared_tiles(kind, tile)) bytes += static_cast<std::uint32_t>(s.rows * s.cols * 4);
  return bytes;
}

IterationRule iteration_rule(KernelKind kind, int tile, int /*m*/, int n, int k) {
  IterationRule r{};
  r.barriers_per_iteration = static_cast<std::uint32_t>(kernel_info(kind).barriers_per_iteration);
  r.tile = static_cast<std::uint32_t>(tile);
  r.k = static_cast<std::uint32_t>(k);
  r.n = static_cast<std::uint32_t>(n);
  r.iterations = static_cast<std::uint32_t>(ceil_div(k, tile));
  return r;
}

std::uint64_t loads_per_a_element(KernelKind kind, int tile, int /*m*/, int n) {
  if (is_naive(kind)) return static_cast<std::uint64_t>(n);  // once per column of C
  return ceil_div(n, std::uint64_t(tile) * kernel_info(kind).cells_per_thread_edge);  // once per block column
}

std::uint64_t loads_per_b_element(KernelKind kind, int tile, int m, int /*n*/) {
  if (is_naive(kind)) return static_cast<std::uint64_t>(m);
  return ceil_div(m, std::uint64_t(tile) * kernel_info(kind).cells_per_thread_edge);
}

EventCounts expected_counts(KernelKind kind, int tile, int m, int n, int k) {
  const std::uint64_t M = m, N = n, K = k, T = tile;
  EventCounts c;
  const auto mul3 = [](std::uint64_t a, std::uint64_t b, std::uint64_t c) { return saturating_mul(saturating_mul(a, b), c); };
  c.global_loads_a = mul3(loads_per_a_element(kind, tile, m, n), M, K);
  c.global_loads_b = mul3(loads_per_b_element(kind, tile, m, n), K, N);
  c.global_stores_c = M * N;
  if (is_naive(kind)) return c;
  const LaunchShape s = launch_shape(kind, tile, m, n);
  const std::uint64_t threads = saturating_mul(s.grid.count(), s.block.count());
  const std::uint64_t iterations = ceil_div(K, T);
  const std::uint64_t per_edge = static_cast<std::uint64_t>(kernel_info(kind).cells_per_thread_edge);
  // Every thread stages per_edge elements of A and of B per iteration, read or
  // padding, then reads per_edge values of As and of Bs for each of TILE k's.
  c.shared_stores = mul3(threads, iterations, 2 * per_edge);
  c.shared_padding_stores = c.shared_stores >= saturating_add(c.global_loads_a, c.global_loads_b)
                                ? c.shared_stores - c.global_loads_a - c.global_loads_b
                                : 0;
  c.shared_loads = mul3(threads, iterations, T * 2 * per_edge);
  return c;
}

}  // namespace ts
