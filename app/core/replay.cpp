// replay.cpp — the timeline and the per-step highlights, from the events.
#include "app/core/replay.h"

#include "app/core/block_iteration.h"
#include "app/core/display_text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace ts {
namespace {

// Cells as rectangles: runs of columns row by row, each merged with the
// same run in the rows below it.
std::vector<CellRect> pieces_of(std::vector<ElementCoord> cells) {
  std::sort(cells.begin(), cells.end(), [](const ElementCoord& a, const ElementCoord& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  std::vector<CellRect> runs;
  for (std::size_t i = 0; i < cells.size();) {
    std::size_t j = i + 1;
    while (j < cells.size() && cells[j].row == cells[i].row && cells[j].col == cells[j - 1].col + 1) ++j;
    runs.push_back({cells[i].row, cells[i].row + 1, cells[i].col, cells[j - 1].col + 1});
    i = j;
  }
  std::vector<CellRect> out;
  for (const CellRect& r : runs) {
    auto below = std::find_if(out.begin(), out.end(), [&](const CellRect& o) {
      return o.row1 == r.row0 && o.col0 == r.col0 && o.col1 == r.col1;
    });
    if (below != out.end()) below->row1 = r.row1;
    else out.push_back(r);
  }
  return out;
}

// A thread's shared reads of one iteration's multiply-accumulate phase, in
// groups: one per k (TILE groups), or, for mma fragments, one per 8 k's.
struct ReadGroups {
  std::uint32_t first_region = 0;  // the memory id of the launch's first region
  std::span<const Event> events;  // the thread's events of the epoch, which the loads point into
  std::vector<const Event*> loads;
  std::size_t groups = 0;
  std::uint32_t k_per_group = 1;
  std::span<const Event* const> group(std::size_t g) const {
    const std::size_t n = groups ? loads.size() / groups : 0;
    return g < groups ? std::span<const Event* const>(loads).subspan(g * n, n) : std::span<const Event* const>();
  }
};

ReadGroups read_groups(const Trace& t, std::uint64_t thread, std::uint32_t epoch, std::uint32_t tile) {
  ReadGroups r;
  bool fragments = true;
  r.first_region = static_cast<std::uint32_t>(t.launch.buffers.size());
  r.events = events_in_epochs(t, thread, epoch, epoch);
  for (const Event& e : r.events)
    if (e.space() == Space::Shared && e.op() == Op::Load && e.array >= r.first_region) {
      r.loads.push_back(&e);
      fragments = fragments && e.is_fragment();
    }
  if (r.loads.empty()) return r;
  if (fragments && tile % 8 == 0 && r.loads.size() % (tile / 8) == 0) {
    r.groups = tile / 8;
    r.k_per_group = 8;
  } else if (r.loads.size() % tile == 0) {
    r.groups = tile;
  }
  return r;
}

RegisterRead register_read(const ReadGroups& groups, const Event* const* at, const BlockIteration& bi) {
  const Event* const* first = groups.loads.data();
  const Event& e = **at;
  RegisterRead r;
  r.region = e.array - groups.first_region;
  r.slot = e.index;
  r.width = e.access_width();
  r.fragment = e.is_fragment();
  r.access_start = first_of_access(e, at == first ? nullptr : *(at - 1));
  if (r.fragment)  // a fragment's registers are consecutive events of the thread (event.h)
    r.fragment_slot = fragment_slot(groups.events.data(), static_cast<std::uint64_t>(&e - groups.events.data()));
  const SlotStore& s = bi.filled(r.region, r.slot);
  r.global = s.global;
  r.element = s.source;
  r.padding = !s.present || s.padding;
  return r;
}

// An mma step's operand pieces: the p-th fragment access of every lane of
// the warp, united (all lanes run the same ldmatrix or loads together).
void fragment_tiles(const Trace& t, const BlockIteration& bi, std::uint64_t first_thread, std::uint64_t per_block,
                    std::uint32_t tile, CellHighlight& h) {
  const std::uint32_t group = h.step.k / h.k_per_read_group;
  const std::uint64_t lane0 = first_thread + std::uint64_t{h.coord.warp} * 32;
  for (std::uint64_t lane = lane0; lane < lane0 + 32 && lane < first_thread + per_block; ++lane) {
    const ReadGroups groups = read_groups(t, lane, bi.epoch(), tile);
    if (groups.k_per_group != h.k_per_read_group) continue;
    const std::span<const Event* const> g = groups.group(group);
    std::size_t access = 0;
    for (std::size_t i = 0; i < g.size(); ++i) {
      const RegisterRead r = register_read(groups, &g[i], bi);
      if ((r.fragment ? r.fragment_slot == 0 : r.access_start) && i > 0) ++access;  // b0, b1: one fragment
      if (r.padding) continue;
      if (access >= h.fragment_tiles.size()) h.fragment_tiles.resize(access + 1, {r.global, CellRect{~0u, 0, ~0u, 0}});
      CellRect& c = h.fragment_tiles[access].cells;
      h.fragment_tiles[access].global = r.global;
      c = {std::min(c.row0, r.element.row), std::max(c.row1, r.element.row + 1), std::min(c.col0, r.element.col),
           std::max(c.col1, r.element.col + 1)};
    }
  }
  std::erase_if(h.fragment_tiles, [](const CellHighlight::FragmentTile& f) { return f.cells.empty(); });
  // The accumulator tile: the rows of the A piece and the columns of the B
  // piece that meet at the selected cell.
  for (const CellHighlight::FragmentTile& a : h.fragment_tiles)
    for (const CellHighlight::FragmentTile& b : h.fragment_tiles)
      if (a.global == BufferRole::A && b.global == BufferRole::B && a.cells.row0 <= h.cell.row && h.cell.row < a.cells.row1 &&
          b.cells.col0 <= h.cell.col && h.cell.col < b.cells.col1)
        h.mma_c_tile = {a.cells.row0, a.cells.row1, b.cells.col0, b.cells.col1};
}

float add_product(float acc, float a, float b, bool fused) {
  if (fused) return std::fma(a, b, acc);
  const float product = a * b;  // rounded, as a kernel without FMA does
  return acc + product;
}

#if defined(__x86_64__)
__attribute__((target("fma"))) void fused_rank1_hw(float* sums, const float* b_row, float a, std::size_t n) {
  for (std::size_t c = 0; c < n; ++c) sums[c] = std::fma(a, b_row[c], sums[c]);
}
#endif

// sums[c] += a * b_row[c] for every c, fused or not, in one pass.
void rank1_update(float* sums, const float* b_row, float a, std::size_t n, bool fused) {
  if (!fused) {
    for (std::size_t c = 0; c < n; ++c) sums[c] = add_product(sums[c], a, b_row[c], false);
    return;
  }
#if defined(__x86_64__)
  // Software fma is ~30x slower than the instruction: use it when the CPU has one.
  if (__builtin_cpu_supports("fma")) {
    fused_rank1_hw(sums, b_row, a, n);
    return;
  }
#endif
  for (std::size_t c = 0; c < n; ++c) sums[c] = std::fma(a, b_row[c], sums[c]);
}

}  // namespace

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::Load: return "load tiles";
    case Phase::Barrier: return "barrier (tiles complete)";
    case Phase::Mac: return "multiply-accumulate";
    case Phase::Sync: return "barrier (done reading)";
    case Phase::Store: return "store C";
  }
  return "?";
}

SourceTag phase_source_tag(Phase p) {
  switch (p) {
    case Phase::Load: return {"load", 0};
    case Phase::Barrier: return {"barrier", 0};
    case Phase::Mac: return {"mac", 0, {"fragment", "mma"}};
    case Phase::Sync: return {"barrier", 1};
    case Phase::Store: return {"store", 0};
  }
  return {"", 0};
}

ReplayTimeline::ReplayTimeline(const LaunchInfo& launch)
    : staged_(launch.iteration_rule.barriers_per_iteration > 0),
      tile_(std::max<std::uint32_t>(1, launch.iteration_rule.tile)),
      iterations_(launch.iteration_rule.iterations),
      k_(static_cast<std::uint32_t>(std::max(0, launch.k))) {}

std::uint32_t ReplayTimeline::step_count() const {
  return (staged_ ? iterations_ * steps_per_iteration() : k_) + 1;
}

std::uint32_t ReplayTimeline::macs_in(std::uint32_t iteration) const {
  if (iteration >= iterations_) return 0;
  if (staged_) return tile_;
  return std::min(tile_, k_ - iteration * tile_);
}

ReplayStep ReplayTimeline::at(std::uint32_t step) const {
  step = std::min(step, last_step());
  ReplayStep s;
  if (step == last_step()) {
    s.iteration = iterations_;
    s.phase = Phase::Store;
    return s;
  }
  const std::uint32_t per = steps_per_iteration();
  s.iteration = step / per;
  const std::uint32_t r = step % per;
  if (!staged_) {
    s.phase = Phase::Mac;
    s.k = r;
  } else if (r == 0) {
    s.phase = Phase::Load;
  } else if (r == 1) {
    s.phase = Phase::Barrier;
  } else if (r < tile_ + 2) {
    s.phase = Phase::Mac;
    s.k = r - 2;
  } else {
    s.phase = Phase::Sync;
  }
  return s;
}

std::uint32_t ReplayTimeline::first_step_of_iteration(std::uint32_t iteration) const {
  if (iteration >= iterations_) return last_step();
  return iteration * steps_per_iteration();
}

std::uint32_t ReplayTimeline::step_of(const ReplayStep& s) const {
  if (s.phase == Phase::Store || s.iteration >= iterations_) return last_step();
  const std::uint32_t base = first_step_of_iteration(s.iteration);
  if (!staged_) return std::min(base + s.k, last_step() - 1);
  switch (s.phase) {
    case Phase::Load: return base;
    case Phase::Barrier: return base + 1;
    case Phase::Mac: return base + 2 + std::min(s.k, tile_ - 1);
    case Phase::Sync: return base + tile_ + 2;
    case Phase::Store: break;
  }
  return last_step();
}

CellRect to_rect(const TileBox& box) {
  if (box.empty()) return {};
  return {box.row0, box.row1, box.col0, box.col1};
}

std::optional<CellHighlight> highlight_cell(const Trace& t, const TraceIndex& index, std::uint32_t row,
                                            std::uint32_t col, const ReplayStep& step) {
  const std::optional<EventRef> writer = index.c_writer(row, col);
  if (!writer) return std::nullopt;
  const LaunchInfo& L = t.launch;
  const ReplayTimeline timeline(L);
  const std::uint32_t T = timeline.tile();
  const std::uint32_t K = static_cast<std::uint32_t>(L.k);
  const std::uint32_t bpi = L.iteration_rule.barriers_per_iteration;

  CellHighlight h;
  h.cell = {row, col};
  h.step = timeline.at(timeline.step_of(step));
  h.thread = writer->thread;
  h.coord = t.thread_coord(h.thread);
  const std::uint32_t it = h.step.iteration;

  // The cells this thread, its warp and its block compute: their stores of C.
  const std::uint64_t per_block = L.threads_per_block();
  const std::uint64_t first_thread = std::uint64_t{h.coord.block_linear} * per_block;
  const std::uint32_t c_id = L.role_id(BufferRole::C);
  CellRect block{~0u, 0, ~0u, 0}, warp{~0u, 0, ~0u, 0};
  auto grow = [](CellRect& r, const ElementCoord& c) {
    r = {std::min(r.row0, c.row), std::max(r.row1, c.row + 1), std::min(r.col0, c.col), std::max(r.col1, c.col + 1)};
  };
  for (std::uint64_t th = first_thread; th < first_thread + per_block; ++th) {
    const bool same_warp = (th - first_thread) / 32 == h.coord.warp;
    // A thread's stores of C are its last events: read them from the end.
    const std::span<const Event> ev = t.thread_events(th);
    for (auto it = ev.rbegin(); it != ev.rend() && it->array == c_id; ++it) {
      const Event& e = *it;
      if (e.op() != Op::Store) continue;
      const MatrixCoord mc = L.coord(c_id, e.index);
      const ElementCoord c{mc.row, mc.col};
      grow(block, c);
      if (same_warp) grow(warp, c);
      if (th == h.thread) h.thread_cells.insert(h.thread_cells.begin(), c);  // back in program order
    }
  }
  h.block_cells = block.empty() ? CellRect{} : block;
  h.warp_cells = warp.empty() ? CellRect{} : warp;
  h.thread_pieces = pieces_of(h.thread_cells);
  for (const Event& e : t.thread_events(h.thread))
    if (e.is_fragment()) {
      h.tensor_cores = true;
      break;
    }

  // Which of the thread's cells this one is, along each axis (coarsened kernels).
  std::vector<std::uint32_t> rows, cols;
  for (const ElementCoord& c : h.thread_cells) {
    rows.push_back(c.row);
    cols.push_back(c.col);
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  const auto cell_i = static_cast<std::size_t>(std::lower_bound(rows.begin(), rows.end(), row) - rows.begin());
  const auto cell_j = static_cast<std::size_t>(std::lower_bound(cols.begin(), cols.end(), col) - cols.begin());

  if (h.step.phase != Phase::Store) {
    h.a_tile = to_rect(index.block_loads(h.coord.block_linear, it, BufferRole::A));
    h.b_tile = to_rect(index.block_loads(h.coord.block_linear, it, BufferRole::B));
    const std::uint32_t k0 = it * T, k1 = std::min(K, k0 + T);
    if (k0 < k1) {
      h.a_reads = {row, row + 1, k0, k1};
      h.b_reads = {k0, k1, col, col + 1};
    }
    if (h.step.phase == Phase::Mac && k0 + h.step.k < K) {
      h.a_now = ElementCoord{row, k0 + h.step.k};
      h.b_now = ElementCoord{k0 + h.step.k, col};
    }
  }
  if (h.step.phase != Phase::Store && bpi > 0) {
    const BlockIteration bi(t, h.coord.block_linear, it);
    // This thread's part of the tiles the iteration reads (stored in this
    // iteration's load phase, or by a pipeline's earlier copies).
    for (std::uint32_t region = 0; region < bi.regions(); ++region)
      for (std::uint32_t slot = 0; slot < bi.slots(region); ++slot) {
        const SlotStore& f = bi.filled(region, slot);
        if (!f.present || f.writer != h.coord.thread_in_block || !bi.read(region, slot)) continue;
        h.copied.push_back({region, slot, f.global, f.source, f.padding, f.value, f.width, f.async});
      }
    // Shared reads of the Mac phase, in groups of one k (or of an mma's 8):
    // each holding this thread's loads of A's words then B's for that k
    // (a region's role: the buffer its copies came from); the cell's are the
    // i-th of A's and the j-th of B's in its group.
    const ReadGroups groups = read_groups(t, h.thread, bi.epoch(), T);
    h.k_per_read_group = groups.k_per_group;
    if (groups.groups > 0 && groups.k_per_group == 1) {
      for (std::uint32_t k = 0; k < T; ++k) {
        std::size_t as_seen = 0, bs_seen = 0;
        for (const Event* e : groups.group(k)) {
          const SlotRef ref{e->array - groups.first_region, e->index};
          const BufferRole role = bi.role(ref.region);
          if (role == BufferRole::A && as_seen++ == cell_i) h.as_reads.push_back(ref);
          if (role == BufferRole::B && bs_seen++ == cell_j) h.bs_reads.push_back(ref);
        }
      }
      if (h.as_reads.size() != T || h.bs_reads.size() != T) h.as_reads.clear(), h.bs_reads.clear();
    }
    if (h.step.phase == Phase::Mac && h.step.k < h.as_reads.size()) {
      h.as_now = h.as_reads[h.step.k];
      h.bs_now = h.bs_reads[h.step.k];
    }
    for (const Event* const& load : groups.loads) {
      const RegisterRead r = register_read(groups, &load, bi);
      if (r.padding) continue;
      if (r.global == BufferRole::A) h.a_thread_reads.push_back(r.element);
      if (r.global == BufferRole::B) h.b_thread_reads.push_back(r.element);
    }
    for (std::vector<ElementCoord>* v : {&h.a_thread_reads, &h.b_thread_reads}) {
      std::sort(v->begin(), v->end(), [](const ElementCoord& a, const ElementCoord& b) {
        return a.row != b.row ? a.row < b.row : a.col < b.col;
      });
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    if (h.step.phase == Phase::Mac && groups.groups > 0) {
      const std::span<const Event* const> g = groups.group(h.step.k / groups.k_per_group);
      for (const Event* const& load : g) h.registers_now.push_back(register_read(groups, &load, bi));
      if (groups.k_per_group > 1) fragment_tiles(t, bi, first_thread, per_block, T, h);
    }
  }

  // Partial sums, recomputed in the kernel's k order; pick plain or fused
  // arithmetic by which one reproduces the stored value.
  h.stored = t.value_at(BufferRole::C, row, col);
  // Row `row` of A and column `col` of B, through their layouts.
  std::vector<float> a_row(K), b_col(K);
  for (std::uint32_t k = 0; k < K; ++k) {
    a_row[k] = t.value_at(BufferRole::A, row, k);
    b_col[k] = t.value_at(BufferRole::B, k, col);
  }
  auto final_sum = [&](bool fused) {
    float acc = 0.0f;
    for (std::uint32_t k = 0; k < K; ++k) acc = add_product(acc, a_row[k], b_col[k], fused);
    return acc;
  };
  const bool prefer_fused = L.recorded_on_gpu();
  h.fused = prefer_fused;
  h.partial_matches_stored = final_sum(prefer_fused) == h.stored;
  if (!h.partial_matches_stored && final_sum(!prefer_fused) == h.stored) {
    h.fused = !prefer_fused;
    h.partial_matches_stored = true;
  }
  switch (h.step.phase) {
    case Phase::Load:
    case Phase::Barrier: h.terms_done = it * T; break;
    case Phase::Mac: h.terms_done = it * T + h.step.k + 1; break;
    case Phase::Sync: h.terms_done = (it + 1) * T; break;
    case Phase::Store: h.terms_done = K; break;
  }
  h.terms_done = std::min(h.terms_done, K);
  h.stored_now = h.step.phase == Phase::Store;
  float acc = 0.0f;
  for (std::uint32_t k = 0; k < K; ++k) {
    if (k == h.terms_done) h.partial = acc;
    if (k + 1 == h.terms_done) h.partial_before = acc;
    acc = add_product(acc, a_row[k], b_col[k], h.fused);
    if ((k + 1) % T == 0 || k + 1 == K) h.partial_after_iteration.push_back(acc);
  }
  if (h.terms_done == K) h.partial = acc;
  return h;
}

std::uint32_t bank_of(const LaunchInfo& launch, std::uint32_t region, std::uint32_t slot) {
  return region < launch.regions.size() ? launch.regions[region].bank(slot) : 0;
}

std::vector<SharedTileContents> shared_contents(const Trace& t, std::uint32_t block, std::uint32_t iteration) {
  std::vector<SharedTileContents> out;
  const LaunchInfo& L = t.launch;
  if (L.iteration_rule.barriers_per_iteration == 0 || block >= L.grid.count()) return out;
  const BlockIteration bi(t, block, iteration);
  for (std::uint32_t region = 0; region < L.regions.size(); ++region) {
    const Region& l = L.regions[region];
    if (l.ld == 0 || l.rows == 0) continue;
    SharedTileContents tile;
    tile.region = region;
    tile.name = l.name;
    tile.role = bi.role(region);
    tile.raw = l.raw;
    tile.rows = l.rows;
    tile.cols = l.ld;
    // A pipeline's buffers: the operand tiles' rows split into its stages.
    const bool operand = tile.role == BufferRole::A || tile.role == BufferRole::B;
    tile.stages = operand && L.tiling.stages > 1 && l.rows % L.tiling.stages == 0 ? L.tiling.stages : 1;
    tile.stage_read.assign(tile.stages, false);
    tile.stage_filling.assign(tile.stages, false);
    tile.words.resize(std::size_t{l.rows} * l.ld);
    const std::uint32_t rows_per_stage = l.rows / tile.stages;
    const std::uint32_t slots = bi.slots(region);
    for (std::uint32_t s = 0; s < tile.words.size(); ++s) {
      SharedWord& word = tile.words[s];
      word.bank = l.bank(s);
      if (s >= slots) continue;  // a raw window's last row past its bytes
      const SlotStore& f = bi.filled(region, s);
      word.written = f.present;
      word.value = f.value;
      word.padding = f.padding;
      word.async = f.async;
      word.source_role = f.source_id == kNoMemory ? BufferRole::Other : f.global;
      word.source = f.source;
      word.writer = f.writer;
      word.read = bi.read(region, s);
      const SlotStore& next = bi.in_flight(region, s);
      word.in_flight = next.present;
      word.in_flight_padding = next.padding;
      word.in_flight_value = next.value;
      word.in_flight_source = next.source;
      const std::uint32_t stage = s / l.ld / rows_per_stage;
      if (stage < tile.stages) {
        if (word.read) tile.stage_read[stage] = true;
        if (word.in_flight) tile.stage_filling[stage] = true;
      }
    }
    out.push_back(std::move(tile));
  }
  return out;
}

std::vector<CellRect> all_block_tiles(const TraceIndex& index, std::uint32_t iteration, BufferRole role) {
  std::vector<CellRect> out;
  const std::uint64_t blocks = index.trace().launch.grid.count();
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const TileBox box = index.block_loads(static_cast<std::uint32_t>(b), iteration, role);
    if (!box.empty()) out.push_back(to_rect(box));
  }
  return out;
}

std::optional<ElementInfo> describe_element(const Trace& t, const TraceIndex& index, BufferRole role,
                                            std::uint32_t row, std::uint32_t col, std::uint32_t iteration) {
  const Buffer* buf = t.launch.buffer_with_role(role);
  if (!buf || role == BufferRole::Other || row >= buf->rows || col >= buf->cols) return std::nullopt;
  const std::uint64_t idx = buf->index_of(row, col);
  const std::vector<float>& values = t.values(role);
  if (idx >= values.size()) return std::nullopt;
  ElementInfo info;
  info.array = role;
  info.element = {row, col};
  info.value = values[idx];
  if (role == BufferRole::C) {
    if (const auto w = index.c_writer(row, col)) info.thread = t.thread_coord(w->thread);
    return info;
  }
  const std::span<const std::uint32_t> loads = index.global_loads_of(role, static_cast<std::uint32_t>(idx));
  info.loads_total = static_cast<std::uint32_t>(loads.size());
  for (const std::uint32_t e : loads) {
    if (t.events[e].iter != iteration) continue;
    if (info.loads_this_iteration++ == 0) info.thread = t.thread_coord(index.thread_of_event(e));
  }
  return info;
}

PartialSums::PartialSums(const Trace& trace)
    : trace_(&trace), fused_(trace.launch.recorded_on_gpu()), a_(trace, BufferRole::A), b_(trace, BufferRole::B),
      sums_(std::size_t(std::max(0, trace.launch.m)) * std::max(0, trace.launch.n), 0.0f) {
  const LaunchInfo& L = trace.launch;
  if (!L.focused()) return;
  // Only the traced blocks' cells (those the kernel stored): the rest of C was not run, and stays NaN.
  const DenseMatrix stored_c(trace, BufferRole::C);  // no copy unless C is laid out otherwise
  const auto n = std::min(static_cast<std::uint32_t>(std::max(0, L.n)), stored_c.cols());
  for (std::uint32_t r = 0; r < std::min(static_cast<std::uint32_t>(std::max(0, L.m)), stored_c.rows()); ++r)
    for (std::uint32_t c = 0; c < n;) {
      const auto stored = [&](std::uint32_t col) { return std::isfinite(stored_c.at(r, col)); };
      if (!stored(c)) {
        sums_[std::size_t{r} * n + c++] = std::numeric_limits<float>::quiet_NaN();
        continue;
      }
      const std::uint32_t c0 = c;
      while (c < n && stored(c)) ++c;
      runs_.push_back({r, c0, c});
    }
}

const std::vector<float>& PartialSums::after(std::uint32_t k_end) {
  const LaunchInfo& L = trace_->launch;
  k_end = std::min<std::uint32_t>(k_end, static_cast<std::uint32_t>(L.k));
  if (k_end < k_done_ && !L.focused()) {
    std::fill(sums_.begin(), sums_.end(), 0.0f);
    k_done_ = 0;
  }
  const auto n = static_cast<std::size_t>(L.n);
  if (k_end < k_done_) {
    for (const Run& run : runs_) std::fill_n(&sums_[run.row * n + run.col0], run.col1 - run.col0, 0.0f);
    k_done_ = 0;
  }
  for (std::uint32_t k = k_done_; k < k_end; ++k) {
    const float* b_row = b_.data() + std::size_t{k} * n;
    if (!L.focused()) {
      for (int r = 0; r < L.m; ++r)
        rank1_update(&sums_[std::size_t(r) * n], b_row, a_.at(static_cast<std::uint32_t>(r), k), n, fused_);
      continue;
    }
    for (const Run& run : runs_)
      rank1_update(&sums_[run.row * n + run.col0], b_row + run.col0, a_.at(static_cast<std::uint32_t>(run.row), k), run.col1 - run.col0,
                   fused_);
  }
  k_done_ = k_end;
  return sums_;
}

namespace {

// Whether the launch's tiling is what TILE alone implies: the textbook
// kernels' (a block tile of TILE x c cells per edge, c x c cells per thread,
// a k-step of TILE or none, no warp tiles, one stage), or none at all (a user
// kernel, a file written before tilings: zeros). A ladder rung's is not.
bool tiling_follows_tile(const LaunchInfo& L) {
  const Tiling& t = L.tiling;
  const auto tile = static_cast<std::uint32_t>(L.tile);
  return t.block_m == 0 || (t.warp_m == 0 && t.stages <= 1 && t.thread_m == t.thread_n && t.block_m == t.block_n &&
                            t.block_m == tile * t.thread_m && (t.block_k == 0 || t.block_k == tile));
}

// "128x128", appended (GCC 12 warns, wrongly, of "literal" + std::string temporaries).
void append_by(std::string& s, std::uint32_t a, std::uint32_t b) {
  s += std::to_string(a);
  s += 'x';
  s += std::to_string(b);
}

}  // namespace

std::string tiling_label(const LaunchInfo& L) {
  std::string s;
  if (L.traced() && L.tiling.block_m == 0) {  // no TILE: the iterations are the kernel's barrier intervals (or --k-tile)
    const IterationRule& r = L.iteration_rule;
    s += "traced, ";
    s += std::to_string(r.iterations);
    s += r.iterations == 1 ? " iteration" : " iterations";
    if (r.iterations > 1) s += " of k ", s += std::to_string(r.tile);
    return s;
  }
  if (tiling_follows_tile(L)) {
    s += "TILE=";
    s += std::to_string(L.tile);
    return s;
  }
  const Tiling& t = L.tiling;
  s += "block ";
  append_by(s, t.block_m, t.block_n);
  if (t.block_k) s += 'x', s += std::to_string(t.block_k);
  if (t.warp_m) s += "  warp ", append_by(s, t.warp_m, t.warp_n);
  if (t.thread_m * t.thread_n > 1) s += "  thread ", append_by(s, t.thread_m, t.thread_n);
  if (t.stages > 1) s += "  ", s += std::to_string(t.stages), s += " stages";
  return s;
}

std::string launch_title(const LaunchInfo& L) {
  std::string s = elided(L.kernel, kShownKernel);
  s += "  ";
  s += tiling_label(L);
  s += "  M=", s += std::to_string(L.m);
  s += " N=", s += std::to_string(L.n);
  s += " K=", s += std::to_string(L.k);
  return s;
}

std::string recorded_by(const LaunchInfo& L) {
  // Shown on screen: a long name or date from a file is elided.
  const std::string device = elided(L.device_name, kShownDevice);
  const std::string who = L.recorded_on_gpu() ? device + " (GPU)" : device;
  return "recorded on " + who + (L.date.empty() ? "" : ", " + elided(L.date, kShownDate));
}

}  // namespace ts
