// replay.h — what the replay shows at step s: the timeline of a launch
// (k-iteration by k-iteration, and inside one load -> barrier -> multiply-
// accumulate over k -> barrier, then the store of C) and, for a selected cell
// of C, everything the app highlights at that step. Pure logic over a Trace
// and its TraceIndex: no ImGui, no OpenGL; tested without a window.
//
// Every highlight comes from recorded events (which thread stored which
// shared slot from which element of A or B, which slots it read), except the
// running partial sums: registers are not recorded, so they are recomputed
// from the recorded inputs in the kernel's order and checked against the
// value the kernel stored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/trace.h"
#include "app/core/trace_index.h"

namespace ts {

enum class Phase : std::uint8_t {
  Load,     // the block copies this iteration's A and B tiles into shared memory
  Barrier,  // first __syncthreads(): the tiles are complete
  Mac,      // multiply-accumulate, one k per step
  Sync,     // second __syncthreads(): everyone is done reading the tiles
  Store,    // C is written (the last step)
};
const char* phase_name(Phase p);

// A kernel header marks the line of each phase with a trailing comment: the
// tag ("load", "barrier", "mac", "store") and, for the two barriers, which of
// the tagged lines (0: first, 1: second; a kernel with one barrier line, such
// as tf32-tensor-core's, lights it for both). `also`: the phase's lines under
// other tags, lit with it: tf32-tensor-core multiplies in two kinds of line,
// its reads of shared memory into mma fragments ("fragment") and the mma
// itself ("mma"), where the other kernels have one "mac" line.
struct SourceTag {
  const char* tag;
  int occurrence;
  const char* also[2] = {nullptr, nullptr};
};
SourceTag phase_source_tag(Phase p);

struct ReplayStep {
  std::uint32_t iteration = 0;  // k-iteration; the iteration count for Store
  Phase phase = Phase::Load;
  std::uint32_t k = 0;  // Mac only: k inside the tile, 0 .. TILE - 1
  friend bool operator==(const ReplayStep&, const ReplayStep&) = default;
};

// Step numbers of a launch. Kernels that stage tiles (barriers per iteration
// > 0) take TILE + 3 steps per iteration (Load, Barrier, Mac x TILE, Sync);
// the naive kernels, which read global memory directly, take one Mac step per
// k. The last step is the Store.
class ReplayTimeline {
 public:
  ReplayTimeline() = default;  // no launch: a single Store step
  explicit ReplayTimeline(const LaunchInfo& launch);

  std::uint32_t step_count() const;
  std::uint32_t last_step() const { return step_count() - 1; }
  std::uint32_t iterations() const { return iterations_; }
  bool staged() const { return staged_; }
  std::uint32_t tile() const { return tile_; }

  ReplayStep at(std::uint32_t step) const;  // clamps to the last step
  std::uint32_t step_of(const ReplayStep& s) const;
  std::uint32_t first_step_of_iteration(std::uint32_t iteration) const;  // iterations(): the Store
  // Mac steps of one iteration: TILE when staged (the padded tail multiplies
  // zeros), else the k's left in K.
  std::uint32_t macs_in(std::uint32_t iteration) const;

 private:
  std::uint32_t steps_per_iteration() const { return staged_ ? tile_ + 3 : tile_; }
  bool staged_ = false;
  std::uint32_t tile_ = 1, iterations_ = 0, k_ = 0;
};

struct CellRect {
  std::uint32_t row0 = 0, row1 = 0, col0 = 0, col1 = 0;  // [row0, row1) x [col0, col1)
  bool empty() const { return row0 >= row1 || col0 >= col1; }
  bool contains(std::uint32_t r, std::uint32_t c) const { return r >= row0 && r < row1 && c >= col0 && c < col1; }
  friend bool operator==(const CellRect&, const CellRect&) = default;
};
CellRect to_rect(const TileBox& box);

// A word of a shared region: the region's place in the launch's table
// (LaunchInfo::regions) and the element index in it.
struct SlotRef {
  std::uint32_t region = 0;
  std::uint32_t slot = 0;
  friend bool operator==(const SlotRef&, const SlotRef&) = default;
};

// One word of a cooperative load: a thread stored `slot` of a region (As,
// Bs, sa ...) with the element of A (or B) it had just loaded, or with a
// zero (padding: the slot lies outside the matrices).
struct CopiedWord {
  std::uint32_t region = 0;
  std::uint32_t slot = 0;
  BufferRole global = BufferRole::A;
  ElementCoord element{};  // valid unless padding
  bool padding = false;
  float value = 0.0f;
  Width width = Width::B4;  // of the shared store: a float4 copy's four words come in order
  bool async = false;       // a cp.async copy (no register in between)
};

// One value a thread reads from shared memory into a register in a
// multiply-accumulate step: its slot, the element of A or B the slot holds
// then (unless a padding zero), and the access it belongs to (a float4 read
// is four of these, the first with access_start; an mma fragment register
// has its fragment slot: a0..a3, b0..b1).
struct RegisterRead {
  std::uint32_t region = 0;
  std::uint32_t slot = 0;
  BufferRole global = BufferRole::A;
  ElementCoord element{};
  bool padding = false;
  Width width = Width::B4;
  bool access_start = true;
  bool fragment = false;
  std::uint32_t fragment_slot = 0;
};

// Everything the app highlights for one selected cell of C at one step.
struct CellHighlight {
  ElementCoord cell{};
  ReplayStep step{};
  std::uint64_t thread = 0;  // the thread that computes the cell (and stores it)
  ThreadCoord coord{};
  CellRect block_cells;  // the cells of C the block computes (clipped to C)
  CellRect warp_cells;   // the cells of C the thread's warp computes (their bounding box)
  std::vector<ElementCoord> thread_cells;  // the cells this thread computes (1, 2 x 2, a TM x TN register tile)
  // The same cells as rectangles, each as large as it can be: one TM x TN
  // patch (blocktile-2d), or warptile's 4 x 4 pieces spread over the warp tile.
  std::vector<CellRect> thread_pieces;

  // The tiles the block loads from global memory in this iteration (empty in
  // the Store step). For the naive kernels: what the block reads directly.
  CellRect a_tile, b_tile;
  // This thread's own slots of the cooperative load in this iteration.
  std::vector<CopiedWord> copied;

  // The part of row `cell.row` of A and column `cell.col` of B this cell
  // consumes in this iteration, and (Mac steps) the pair multiplied at k,
  // which is absent in the padded tail past K.
  CellRect a_reads, b_reads;
  std::optional<ElementCoord> a_now, b_now;
  // The same in shared memory: the words holding A's and B's elements that
  // this cell reads in this iteration (a row of As and a column of Bs in the
  // plain tiled kernel), in k order, and the two read at k. Empty for the
  // naive kernels.
  std::vector<SlotRef> as_reads, bs_reads;
  std::optional<SlotRef> as_now, bs_now;

  // Register tiling: everything the thread reads from shared memory into
  // registers at this step (Mac; regM and regN, or its mma fragments), in
  // program order: the outer product of these values updates all of
  // thread_cells. And, over the whole iteration, the elements of A and of B
  // the thread's reads cover (its slab of each tile), without repeats.
  std::vector<RegisterRead> registers_now;
  std::vector<ElementCoord> a_thread_reads, b_thread_reads;
  // The Mac steps that share one group of reads (8 for an mma m16n8k8, whose
  // fragments serve 8 k's at once; 1 otherwise).
  std::uint32_t k_per_read_group = 1;
  // mma.sync at this step: each fragment the warp loads together (one per
  // register access of the lane, in its order), as the rectangle of A or B
  // that the warp's 32 lanes hold of it (16 x 8 of A, 8 x 8 of B), and the
  // 16 x 8 accumulator tile of C the selected cell lies in.
  struct FragmentTile {
    BufferRole global = BufferRole::A;
    CellRect cells;
  };
  std::vector<FragmentTile> fragment_tiles;
  CellRect mma_c_tile;

  // The running sum: after this step, and after each iteration.
  float partial = 0.0f;
  float partial_before = 0.0f;  // before the last product added (a Mac step's)
  std::vector<float> partial_after_iteration;
  std::uint32_t terms_done = 0;  // products added so far (k's below K)
  float stored = 0.0f;           // what the kernel stored into C
  bool stored_now = false;       // the step is the Store
  // The recomputed final sum equals the stored value bit for bit (sums are
  // recomputed with fused multiply-adds when that is what the stored value
  // shows, as on a GPU).
  bool partial_matches_stored = false;
  bool fused = false;
  bool tensor_cores = false;  // the thread multiplies with mma.sync (TF32 inputs): an FP32 recomputation differs
};

// std::nullopt when (row, col) is outside C or no thread wrote it.
std::optional<CellHighlight> highlight_cell(const Trace& trace, const TraceIndex& index, std::uint32_t row,
                                            std::uint32_t col, const ReplayStep& step);

// The shared regions of one block in one iteration: every word with its
// value, where it came from, the thread that wrote it, and its bank.
// What the iteration's reads find in each word (block_iteration.h): the
// latest store before them. A pipeline's other buffers hold an older tile
// (not read now) and receive the next ones while this one is read (in flight).
struct SharedWord {
  float value = 0.0f;
  bool written = false;  // some thread stored it before this iteration's reads
  bool padding = false;
  bool read = false;     // the block reads it in this iteration
  bool async = false;    // stored by cp.async
  BufferRole source_role = BufferRole::Other;  // the buffer it was copied from (A, B, other)
  ElementCoord source{};  // its element there (unless padding; Other: none known)
  std::uint32_t writer = 0;  // thread inside the block, x-fastest
  std::uint32_t bank = 0;    // 4-byte banks, 32 of them
  // A store issued while this iteration reads (a pipeline's next k-tile).
  bool in_flight = false;
  bool in_flight_padding = false;
  float in_flight_value = 0.0f;
  ElementCoord in_flight_source{};
};
struct SharedTileContents {
  std::uint32_t region = 0;                   // in LaunchInfo::regions
  std::string name;                           // the region's: "As", "sa", "smem" ...
  BufferRole role = BufferRole::Other;        // of A, of B, or neither (BlockIteration::role)
  bool raw = false;                           // an unnamed window: 4-byte words in rows of 32
  std::uint32_t rows = 0, cols = 0;  // cols include padding words (the region's ld)
  std::uint32_t stages = 1;          // buffers, each rows / stages rows
  std::vector<SharedWord> words;     // rows * cols, row-major
  // Per buffer: read in this iteration, receiving copies in flight.
  std::vector<bool> stage_read, stage_filling;
};
inline constexpr std::uint32_t kSharedBanks = 32;
// The bank of element `slot` of a region (its byte offset in the block's
// shared window / 4, mod 32).
std::uint32_t bank_of(const LaunchInfo& launch, std::uint32_t region, std::uint32_t slot);
std::vector<SharedTileContents> shared_contents(const Trace& trace, std::uint32_t block, std::uint32_t iteration);

// 'All blocks' mode: what every block loads from A (or B) in one iteration.
std::vector<CellRect> all_block_tiles(const TraceIndex& index, std::uint32_t iteration, BufferRole role);

// Hovering an element: who owns or loads it.
struct ElementInfo {
  BufferRole array = BufferRole::C;
  ElementCoord element{};
  float value = 0.0f;
  // C: the thread that computes the cell. A / B: the first thread that loads
  // the element from global memory in this iteration (if any).
  std::optional<ThreadCoord> thread;
  std::uint32_t loads_this_iteration = 0;  // A / B: global loads in the iteration
  std::uint32_t loads_total = 0;           // A / B: over the whole launch
};
std::optional<ElementInfo> describe_element(const Trace& trace, const TraceIndex& index, BufferRole role,
                                            std::uint32_t row, std::uint32_t col, std::uint32_t iteration);

// The partial sums of every cell of C after a number of k's (the C grid in
// replay), in the kernel's order; fused multiply-adds for GPU recordings. A
// focused trace sums only its blocks' cells (N = 4096: one block, not 16 M).
// Moving forward adds only the new k's.
class PartialSums {
 public:
  explicit PartialSums(const Trace& trace);
  // Sums over k < k_end (clamped to K).
  const std::vector<float>& after(std::uint32_t k_end);
  bool fused() const { return fused_; }

 private:
  const Trace* trace_;
  bool fused_;
  DenseMatrix a_, b_;  // whatever their layouts
  std::uint32_t k_done_ = 0;
  std::vector<float> sums_;
  // A focused trace: the runs of cells its blocks stored, row by row (the
  // other cells are NaN); a full trace sums every cell.
  struct Run {
    std::size_t row = 0;
    std::uint32_t col0 = 0, col1 = 0;
  };
  std::vector<Run> runs_;
};

// How the launch tiles C: "TILE=16" for a textbook kernel (and for a user
// kernel, or a file written before tilings); a ladder rung, whose tiles TILE
// does not say, "block 128x128x16  warp 64x32  thread 8x8  2 stages". Every
// line that names a launch (the app's titles, the command line's) says it so.
std::string tiling_label(const LaunchInfo& launch);
// "tiled  TILE=16  M=64 N=64 K=64", "double-buffer  block 128x128x16  warp
// 64x32  thread 8x8  2 stages  M=.. N=.. K=..". And who recorded it when.
std::string launch_title(const LaunchInfo& launch);
std::string recorded_by(const LaunchInfo& launch);

}  // namespace ts
