// catalog.cpp — kernel metadata and the closed-form event counts.
#include "kernels/catalog.h"

#include "kernels/api/block_order.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace ts {
namespace {

constexpr std::array<KernelInfo, 12> kInfos{{
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
    {KernelKind::Blocktile1d, "blocktile-1d", "1D blocktiling (64 x 64 x 8, TM 8)", "blocktile_1d.h",
     "each thread keeps a column of 8 cells in registers: one Bs value feeds 8 multiply-adds", 1, 2},
    {KernelKind::Blocktile2d, "blocktile-2d", "2D blocktiling (128 x 128 x 8, 8 x 8)", "blocktile_2d.h",
     "each thread keeps 8 x 8 cells in registers: per k, 8 + 8 shared values feed 64 multiply-adds", 1, 2},
    {KernelKind::Vectorized, "vectorized", "Vectorized float4 (128 x 128 x 8, 8 x 8)", "vectorized.h",
     "float4 global loads and stores; As stored transposed so registers fill as float4 too", 1, 2},
    {KernelKind::Warptile, "warptile", "Warptiling (128 x 128 x 16, warps 64 x 32, 8 x 8)", "warptile.h",
     "block, warp and thread tiles: each lane's 4 x 4 pieces make the float4 reads conflict-free", 1, 2},
    {KernelKind::DoubleBuffer, "double-buffer", "Warptiling + cp.async pipeline (2 stages)", "double_buffer.h",
     "the next k-tile is copied global -> shared (cp.async) while the warps multiply out of this one", 1, 1},
    {KernelKind::Tf32TensorCore, "tf32-tensor-core", "TF32 tensor cores (64 x 64 x 16, warps 32 x 32, 3 stages)",
     "tf32_tensor_core.h",
     "each warp's 32 x 32 tile is 2 x 4 mma.sync m16n8k8 products on TF32 inputs, fed by a 3-stage cp.async pipeline",
     1, 1},
}};

// seed 004's ladder past the shared-memory tiled kernel (its kernels 4 to 10 and
// the tensor cores), in order.
constexpr std::array<LadderRung, 7> kLadder{{
    {"blocktile-1d", "Kernel 4: 1D blocktiling", "a column of TM cells per thread: a Bs value reused TM times",
     KernelKind::Blocktile1d, ""},
    {"blocktile-2d", "Kernel 5: 2D blocktiling", "TM x TN cells per thread as outer products of registers",
     KernelKind::Blocktile2d, ""},
    {"vectorized", "Kernel 6: vectorized memory access", "float4 loads and stores, A transposed in shared memory",
     KernelKind::Vectorized, ""},
    {"warptile", "Kernel 10: warptiling", "block, warp and thread tiles: conflict-free float4 broadcasts",
     KernelKind::Warptile, ""},
    {"double-buffer", "Warptiling + cp.async pipeline", "the warp tiles fed by a multi-stage cp.async pipeline",
     KernelKind::DoubleBuffer, ""},
    {"tf32-tensor-core", "TF32 tensor cores (mma.sync)", "mma.sync m16n8k8 on TF32 inputs, same pipeline",
     KernelKind::Tf32TensorCore, ""},
    {"tf32-wgmma", "TF32 warpgroup MMA (Hopper wgmma)", "wgmma reads its operands from shared memory itself",
     std::nullopt, "GPU-only and benchmark-only: its shared reads happen inside the tensor cores, where no "
                   "thread makes them, so there is nothing per thread to record (and it needs sm_90a)"},
}};

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace

std::span<const LadderRung> ladder_rungs() { return kLadder; }

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

std::string size_refusal(KernelKind kind, int m, int n, int k) {
  if (m < 1 || n < 1 || k < 1)
    return "sizes must be at least 1 (M=" + std::to_string(m) + " N=" + std::to_string(n) + " K=" +
           std::to_string(k) + ")";
  const RungConfig c = rung_config(kind);
  if (c.multiple_of > 1 && (k % c.multiple_of != 0 || n % c.multiple_of != 0))
    return std::string(kernel_info(kind).name) +
           (c.loads_ahead ? " copies its tiles 4 floats at a time (cp.async)" : " loads 16-byte rows (float4)") +
           ": K and N must be multiples of " + std::to_string(c.multiple_of) + " (got K = " + std::to_string(k) +
           ", N = " + std::to_string(n) + ")";
  return {};
}

Tiling kernel_tiling(KernelKind kind, int tile) {
  Tiling t;
  const auto u = [](int x) { return static_cast<std::uint32_t>(x); };
  if (is_rung(kind)) {
    const RungConfig c = rung_config(kind);
    t = {u(c.bm), u(c.bn), u(c.bk), u(c.tm), u(c.tn), u(c.wm), u(c.wn), u(c.stages), c.a_transposed};
    return t;
  }
  const int edge = tile * kernel_info(kind).cells_per_thread_edge;
  t.block_m = t.block_n = u(edge);
  t.block_k = is_naive(kind) ? 0 : u(tile);
  t.thread_m = t.thread_n = u(kernel_info(kind).cells_per_thread_edge);
  return t;
}

LaunchShape launch_shape(KernelKind kind, int tile, int m, int n) {
  if (is_rung(kind)) {
    const RungConfig c = rung_config(kind);
    LaunchShape s;
    s.block = {static_cast<std::uint32_t>(c.threads), 1, 1};
    s.grid = {static_cast<std::uint32_t>(ceil_div(n, c.bn)), static_cast<std::uint32_t>(ceil_div(m, c.bm)), 1};
    if (c.group_m > 0) s.grid = {s.grid.x * s.grid.y, 1, 1};  // one dimension, in block_tile_of's order
    return s;
  }
  const auto t = static_cast<std::uint32_t>(tile);
  const auto edge = t * static_cast<std::uint32_t>(kernel_info(kind).cells_per_thread_edge);
  const auto rows = static_cast<std::uint32_t>(ceil_div(m, edge));
  const auto cols = static_cast<std::uint32_t>(ceil_div(n, edge));
  LaunchShape s;
  s.block = {t, t, 1};
  s.grid = kind == KernelKind::NaiveRow ? Dim3{rows, cols, 1} : Dim3{cols, rows, 1};
  return s;
}

BlockTile block_tile_of(KernelKind kind, int tile, int m, int n, std::uint32_t block) {
  const Tiling t = kernel_tiling(kind, tile);
  const auto block_rows = static_cast<std::uint32_t>(ceil_div(m, t.block_m));
  const auto block_cols = static_cast<std::uint32_t>(ceil_div(n, t.block_n));
  if (const std::uint32_t g = is_rung(kind) ? static_cast<std::uint32_t>(rung_config(kind).group_m) : 0; g > 0) {
    // The kernels' own formula (kernels/api/block_order.h).
    const GroupedTile t = grouped_block_tile(static_cast<int>(block), static_cast<int>(block_rows),
                                             static_cast<int>(block_cols), static_cast<int>(g));
    return {static_cast<std::uint32_t>(t.row), static_cast<std::uint32_t>(t.col)};
  }
  const Dim3 grid = launch_shape(kind, tile, m, n).grid;
  const std::uint32_t x = block % grid.x, y = block / grid.x;
  if (kind == KernelKind::NaiveRow) return {x, y};  // its blocks run down the rows
  return {y, x};
}

std::uint32_t block_of_cell(KernelKind kind, int tile, int m, int n, std::uint32_t row, std::uint32_t col) {
  const Tiling t = kernel_tiling(kind, tile);
  const auto block_rows = static_cast<std::uint32_t>(ceil_div(m, t.block_m));
  const auto block_cols = static_cast<std::uint32_t>(ceil_div(n, t.block_n));
  const std::uint32_t r = std::min(row / t.block_m, block_rows - 1), c = std::min(col / t.block_n, block_cols - 1);
  if (const std::uint32_t g = is_rung(kind) ? static_cast<std::uint32_t>(rung_config(kind).group_m) : 0; g > 0) {
    const std::uint32_t first_row = r / g * g;
    return first_row * block_cols + c * std::min(block_rows - first_row, g) + (r - first_row);
  }
  if (kind == KernelKind::NaiveRow) return c * block_rows + r;
  return r * block_cols + c;
}

std::vector<std::uint32_t> blocks_sharing_tiles_of(KernelKind kind, int tile, int m, int n, std::uint32_t block) {
  const BlockTile own = block_tile_of(kind, tile, m, n, block);
  std::vector<std::uint32_t> out;
  const std::uint64_t blocks = launch_shape(kind, tile, m, n).grid.count();
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const BlockTile t = block_tile_of(kind, tile, m, n, static_cast<std::uint32_t>(b));
    if (t.row == own.row || t.col == own.col) out.push_back(static_cast<std::uint32_t>(b));
  }
  return out;
}

int min_compute_capability(KernelKind kind) { return is_rung(kind) && rung_config(kind).tf32 ? 80 : 0; }

std::vector<SharedTile> shared_tiles(KernelKind kind, int tile) {
  if (is_rung(kind)) {
    const RungConfig c = rung_config(kind);
    const SharedTile as = c.a_transposed ? SharedTile{ArrayId::As, c.stages * c.bk, c.bm + c.a_pad}
                                         : SharedTile{ArrayId::As, c.stages * c.bm, c.bk + c.a_pad};
    return {as, {ArrayId::Bs, c.stages * c.bk, c.bn + c.b_pad}};
  }
  switch (kind) {
    case KernelKind::Naive:
    case KernelKind::NaiveRow: return {};
    case KernelKind::Tiled:
    case KernelKind::TiledTransposed: return {{ArrayId::As, tile, tile}, {ArrayId::Bs, tile, tile}};
    case KernelKind::TiledPadded: return {{ArrayId::As, tile, tile}, {ArrayId::Bs, tile, tile + 1}};
    case KernelKind::Coarsened: return {{ArrayId::As, 2 * tile, tile}, {ArrayId::Bs, tile, 2 * tile}};
    default: break;
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
  if (is_rung(kind)) {
    const RungConfig c = rung_config(kind);
    r.barriers_per_iteration = static_cast<std::uint32_t>(c.barriers_per_tile);
    r.barriers_before = static_cast<std::uint32_t>(c.barriers_before);
    r.global_by_k = c.loads_ahead ? 1 : 0;
  }
  const int step = is_rung(kind) ? rung_config(kind).bk : tile;
  r.tile = static_cast<std::uint32_t>(step);
  r.k = static_cast<std::uint32_t>(k);
  r.n = static_cast<std::uint32_t>(n);
  r.iterations = static_cast<std::uint32_t>(ceil_div(k, step));
  return r;
}

std::uint64_t loads_per_a_element(KernelKind kind, int tile, int /*m*/, int n) {
  if (is_rung(kind)) return ceil_div(n, rung_config(kind).bn);  // once per block column
  if (is_naive(kind)) return static_cast<std::uint64_t>(n);  // once per column of C
  return ceil_div(n, std::uint64_t(tile) * kernel_info(kind).cells_per_thread_edge);  // once per block column
}

std::uint64_t loads_per_b_element(KernelKind kind, int tile, int m, int /*n*/) {
  if (is_rung(kind)) return ceil_div(m, rung_config(kind).bm);  // once per block row
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
  if (is_rung(kind)) {
    // Every block stages every slot of its BM x BK and BK x BN tiles once per
    // k-tile, read or padding; every thread reads shared_reads_per_k floats per k.
    const RungConfig cfg = rung_config(kind);
    const std::uint64_t tiles = ceil_div(K, cfg.bk);
    c.shared_stores = mul3(s.grid.count(), tiles, std::uint64_t(cfg.bm + cfg.bn) * cfg.bk);
    const std::uint64_t loaded = saturating_add(c.global_loads_a, c.global_loads_b);
    c.shared_padding_stores = c.shared_stores >= loaded ? c.shared_stores - loaded : 0;
    c.shared_loads = mul3(saturating_mul(s.grid.count(), s.block.count()), tiles,
                          std::uint64_t(cfg.bk) * cfg.shared_reads_per_k);
    return c;
  }
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
