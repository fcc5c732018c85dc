// fp32_best.h — `fp32-best`, the FP32 entry of the ladder that holds at every
// shape: it picks, per shape, a block tile of fp32_any.cuh and a split of k
// (so that small grids still fill the SMs) by the rule in fp32_best.cu, whose
// measurements are in docs/ladder-notes.md. Any M, N, K, and A, B and C
// where they lie (4-byte aligned): where n or B's address leaves B's rows off
// 16-byte boundaries the kernel reads B in place (m up to 640, 1,536 on the
// 64x64 tile, 2,048 on the 128x128 one, 3,072 on the 128x256 tiles: words on
// the 128x256 tile, the aligned float4 around each row, shifted, on the
// others, B itself on 16 bytes) or runs on a padded copy of B, kept in one
// process-wide workspace that grows to the largest shape seen (so calls on
// streams that overlap must not need it, nor stream-k's flags, one
// process-wide set); C's rows off 16 bytes are stored as wide as
// each allows, or (on the tiles where that measured ahead) through shared
// memory as aligned float4. Stream-k (a persistent grid sharing the tiles'
// k-tiles out evenly) runs where the 128x256 tiles are fewer than the SMs
// and k long, and on the 128x128 and 64x64 tiles (two and four blocks an
// SM) wherever the rule's model puts it ahead.
#pragma once

#include <cuda_runtime.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ts::ladder {

struct Fp32Tile {
  std::string_view name;  // e.g. "128x256"
  int block_m, block_n, block_k;
  int blocks_per_sm;      // resident blocks per SM on Hopper (registers allow; fewer where shared memory is smaller)
  int shared_bytes;       // dynamic shared memory per block
  bool ruled = true;      // the rule weighs it on its own; false: only in place of another tile (fp32_best.cu)
  // Where B's rows are off 16 bytes: copied a word at a time (any B), else as
  // shifted float4 (B itself on 16 bytes; else a padded copy).
  bool b_words = false;
  // Where B's rows are off 16 bytes: read in place up to this m, padded past it (fp32_best.cu, b_in_place).
  int b_in_place_m = 640;
};

// What the rule needs to know of the GPU.
struct Fp32Gpu {
  int sm_count = 0;
  int shared_per_block = 0;  // the most dynamic shared memory a block may opt in to, bytes
  int shared_per_sm = 0;     // shared memory an SM holds, bytes
};
// An H100 or H200 with sm_count SMs: 227 KB a block, 228 KB an SM.
Fp32Gpu hopper_gpu(int sm_count);
// The current device's (throws GpuError without one).
Fp32Gpu current_fp32_gpu();
// Blocks of the tile an SM of this GPU holds at once: 0 where one does not fit.
int fp32_blocks_per_sm(const Fp32Tile& tile, const Fp32Gpu& gpu);

// The block tiles fp32-best runs.
std::span<const Fp32Tile> fp32_tiles();

struct Fp32Plan {
  int tile = 0;    // index into fp32_tiles()
  int splits = 1;  // k split this many ways, partial tiles added into C (zeroed first)
  // A persistent grid, the tiles of the last rounds shared out by k-tile
  // (splits 1); where the tiles fill whole rounds, as stream_k false.
  bool stream_k = false;
  // The tail split (> 1; splits 1, stream_k false): a persistent grid whose
  // blocks do whole tiles, then the last partial round's tiles each cut into
  // this many pieces of k (fewer where the round or k is too short: at most
  // the resident blocks over the round's tiles, a k-tile a piece); where the
  // tiles fill whole rounds, as 0.
  int tail = 0;
};

// The constants of the rule's model (fp32_plan_cost), in k-tiles of 32 of
// the 128x256 tile on a whole SM; the defaults are the shipped ones, each
// measured where fp32_best.cu's comments say (docs/ladder-notes.md runs
// 9-37), then refitted to run 38's tables (calls 58-61: 169 shapes, 97 of
// them with every plan of the seven tiles timed) and, weighed half, run 37's
// (157 shapes, the earlier tiles), by a search that keeps each tile's rounds
// no cheaper as they hold more blocks (scripts/fp32-rule-search.py); run
// 41 added the cost of a split's adds where C is large and its k short.
// fp32_rule_fit scores other values against fp32_tune's tables.
struct Fp32Model {
  double start_end = 0.858799;           // a 128x256 block's start and end
  double start_end_k16_short = 0.801359; // the same, over k-tiles of 16 with under 24 k-tiles of 32
  double cold_code_k32 = 1.8;            // once a launch: the 32-long k-tile's loop fetched cold
  double cold_code_k16 = 0.4;            // the same for its k16 twin
  double round1 = 0.36, round2 = 0.5671, round3 = 0.859638;  // a k-tile of 1, 2 or 3 three-block-tile blocks an SM
  double start_end_three = 1.196;        // a three-block tile's start and end
  double words_64 = 1.09;                // the tiles of 64 rows where B's rows are off 16 bytes (shifted)
  double words_32 = 1.09;                // the tile of 32 rows, likewise
  double split_adds = 0.153302;          // each extra split, per 1024 x 1024 of C
  double split_adds_past_1m = 0.5;       // and per 1024 x 1024 of C past the first, where a split's k is short:
  double split_adds_k = 1000;            // times 1 - (k of a split) / this, 0 from it on (run 41)
  double rounds_256 = 1;                 // the 128x256 tile splits while its blocks but one split fill fewer rounds
  double sk_piece = 1.1677;              // stream-k: a piece's start and end, in its tile's start and end
  double sk_scale = 1;                   // stream-k: the cost of its shared k-tiles, against the plans without it
  double sk_whole = 1.05;                // stream-k: the cost of its whole rounds of tiles, likewise
  // The 128x128 tile's rounds of 1 or 2 blocks an SM, and its start and end;
  // the 64x64 tile's rounds of 1 to 4, and its start and end.
  double two_round1 = 0.961968, two_round2 = 0.9894, start_end_two = 1.08212;
  double four_round1 = 0.17, four_round2 = 0.28016, four_round3 = 0.404635, four_round4 = 0.54243;
  double start_end_four = 0.783432;
  double sk_scale_two = 1, sk_scale_four = 0.9765;  // stream-k of the 128x128 and 64x64 tiles: their shared part
  // The 32x128 tile's rounds of 1 to 5 blocks an SM, its start and end, and its stream-k's shared part.
  double five_round1 = 0.2369, five_round2 = 0.284814, five_round3 = 0.405, five_round4 = 0.594598, five_round5 = 0.68;
  double start_end_five = 0.524918, sk_scale_five = 1.04906;
};

// The rule: the plan fp32-best runs for this shape on this GPU, the one of
// least predicted time (fp32_plan_cost) among the tiles that fit it.
Fp32Plan fp32_best_plan(int m, int n, int k, const Fp32Gpu& gpu, const Fp32Model& model = {});

// The rule's model of a plan's time, in units of one k-tile of the 128x256
// tile on a whole SM (docs/ladder-notes.md fits it to run 9's measurements);
// infinite where the plan's tile does not fit the GPU, and for the tail split
// (measured, not modelled: the rule does not weigh it).
double fp32_plan_cost(const Fp32Plan& plan, int m, int n, int k, const Fp32Gpu& gpu, const Fp32Model& model = {});

// e.g. "64x128 split 2", "128x256 k16 stream-k", "128x256 k16 tail 2".
std::string fp32_plan_name(const Fp32Plan& plan);

// Every plan fp32-best can run: each tile split 1 to 64 ways, by stream-k,
// and by the tail split into each of ws::kTailPieces pieces.
std::vector<Fp32Plan> fp32_plans();

// Where B's rows are off 16 bytes (B itself on 16): read in place by the
// rule's bound on m, always, or never (a padded copy). fp32_tune's
// comparisons; fp32-best runs kRule. Process-wide, not thread-safe.
enum class Fp32BInPlace { kRule, kAlways, kNever };
void set_fp32_b_in_place(Fp32BInPlace when);

// Runs one plan (checks the launch, does not synchronize). Splits beyond the
// number of k-tiles are reduced so that every split has work.
void launch_fp32_plan(const Fp32Plan& plan, const float* a, const float* b, float* c, int m, int n, int k,
                      cudaStream_t stream);

}  // namespace ts::ladder
