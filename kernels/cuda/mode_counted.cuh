// mode_counted.cuh — compile the kernel headers as counting CUDA: no event is
// stored; each warp groups its own accesses into warp-level requests on the
// device and counts them as app/core/analysis counts a trace's: requests,
// accesses, sectors, lines and the fewest sectors (global), wavefronts, bank
// conflicts and broadcast lanes (shared), and the histogram.
//
// Grouping as the trace analysis does: within one barrier epoch, the n-th
// access a lane makes to an (array, op) pair belongs to the same request as
// the n-th such access of every other lane — also when a branch split the
// warp (the lanes that load a tile element and the lanes that store a zero
// fill reach the shared store from two sides of an `if`) — unless the lane
// skipped some of them (an edge thread's bounds check): then, as the trace
// analysis realigns such a lane by the distance of its indices from the
// others', the lane keeps the word distance it had at its first access of the
// pair in the epoch (its offset), and an access joins the request whose key
// (word less offset) it shares. So every access is a meeting of the whole warp
// (`meet`): lanes that reach the same (array, op) together with one key form
// one request at once, the common case, counted in parallel across the lanes;
// lanes that arrive apart leave a partial request open in the warp's rows
// (shared memory), which later lanes join by key (or, before their offset is
// known, first come, first joined), and which is counted when every lane has
// joined or the epoch ends. Lanes waiting at a barrier or finished with the
// kernel keep meeting with the rest, so no lane is left waiting on another.
//
// Counters live per block in shared memory and are added to the launch's
// totals when the block ends, so the launch runs at any N with a fixed
// footprint besides the per-element load counts of A and B.
// Include this, then kernels/all_kernels.h, in counted_kernels.cu only.
#pragma once

#include <cstdint>

#include "trace/event.h"
#include "kernels/api/mma.h"
#include "kernels/recorded_memory.h"

#define TS_KERNEL_NS ts::gpu_count

namespace ts::gpu_count {

inline constexpr int kCombos = kArrayCount * 2;  // (array, op)
inline constexpr int kBins = 33;                 // requests by sectors or ways, 0..32
// Per (array, op): the counters of one warp-level request kind.
enum Field : int {
  kRequests,
  kAccesses,
  kSectors,     // global; shared: wavefronts
  kLines,       // global; shared: bank conflicts
  kIdeal,       // global: fewest sectors; shared: broadcast lanes
  kPadding,     // shared stores of a fill value
  kEvents,      // floats moved: the events a trace would hold (accesses x floats per access)
  // Shared loads as compiled (app/core/analysis/compiled_loads.h): a family's
  // adjacent 4-byte loads merged into 8- and 16-byte ones.
  kCompiledRequests,
  kCompiledWavefronts,
  kCompiledConflicts,
  kHistogram,   // kBins bins follow
  kFields = kHistogram + kBins
};

inline constexpr std::uint32_t kErrOutOfBounds = 1u << 0;
inline constexpr std::uint32_t kErrMisaligned = 1u << 1;
inline constexpr std::uint32_t kErrDivergentBarrier = 1u << 2;

struct CountLaunch {
  std::uint64_t elements[kArrayCount];  // valid indices per array
  std::uint32_t base_word[kArrayCount];  // global arrays: device address / 4, low 32 bits
  unsigned long long* totals;            // [kCombos][kFields], the launch's sums
  unsigned long long* split_requests;    // partial requests counted early for want of rows
  std::uint32_t open_rows;               // rows per warp (at most kMaxOpenRows)
  std::uint32_t* a_loads;                // global loads per element of A
  std::uint32_t* b_loads;
  std::uint32_t* errors;
};

__constant__ CountLaunch c_count;

// The block's counters (32-bit: one block makes far fewer than 2^32 of anything).
__shared__ std::uint32_t s_counts[kCombos][kFields];

// A request some lanes of a warp have made and others may still join. Each
// warp keeps up to CountLaunch::open_rows of them (the launch sizes the table
// to the shared memory the block can have, at most kMaxOpenRows): a thread
// that skips accesses under a bounds check leaves the rows of the others open
// until it finishes (blocktile-2d's 8 x 8 stores of C: 64 rows).
inline constexpr int kMaxOpenRows = 64;
struct OpenRow {
  std::uint32_t lanes;    // lanes that joined
  std::uint32_t flagged;  // a store's lanes whose store was a fill; a load's whose load is a copy's read
  std::uint32_t stamp;    // creation order within the warp
  std::uint32_t key;      // the word of a lane with offset 0 (see WarpRows::offset)
  std::uint16_t combo;
  std::uint8_t per;       // floats per lane access
  std::int8_t copy_to;    // a copy's read: the shared array its lowest flagged lane writes (ArrayId), else -1
  std::uint32_t word[32];  // per lane: its access's first word (byte address / 4, low 32 bits)
};
// The epoch's family of 4-byte loads of one shared array (compiled_loads.h):
// the lanes and words of its first load, and the offsets from them taken since.
inline constexpr int kFamilyLoads = 128;     // offsets a family holds
inline constexpr int kFamilyReach = 32767;  // |d| at most, in words
struct LoadFamily {
  std::uint32_t lanes;  // 0: no family this epoch
  std::uint32_t align;  // 4, 2 or 1: the widest load the lanes' words allow together
  std::uint32_t count;  // offsets taken
  std::int32_t lo, hi;  // the least and the greatest of them (while count > 0)
  std::uint32_t base[32];
  std::int16_t offsets[kFamilyLoads];
  // The cost of a load of 1, 2 and 4 floats a lane by the family's lanes (bit
  // p of cost_known: cost_*[p] is known), kept from epoch to epoch while the
  // lanes and their words less the first lane's (pattern) stay the same.
  std::uint32_t cost_lanes, cost_known;
  std::uint32_t cost_wavefronts[3], cost_phases[3];
  std::uint32_t pattern[32];
};
inline constexpr int kFamilies = 2;  // As and Bs, the shared arrays
static_assert(static_cast<int>(ArrayId::Bs) == static_cast<int>(ArrayId::As) + 1 && kArrayCount == static_cast<int>(ArrayId::Bs) + 1,
              "the shared arrays are the last two");
struct WarpRows {
  std::uint32_t open_combos;  // bit c: some row of combo c is open
  std::uint32_t next_stamp;
  std::uint32_t finished;     // lanes done with the kernel: they join no more rows
  std::uint32_t unused;
  std::uint64_t used;         // bit i: the warp's row i is open
  // One meeting's accesses, for the lane that groups them when lanes differ.
  std::uint32_t stage_word[32];
  std::uint8_t stage_kind[32], stage_per[32];
  std::int8_t stage_copy[32];  // a copy's read: the shared array it writes, else -1
  // Per combo, this epoch: each lane's word less the key of the request it
  // first joined (lanes of bit l in `known`); an access's key is its word
  // less its lane's offset.
  std::uint32_t known[kCombos];
  std::uint32_t offset[kCombos][32];
  LoadFamily family[kFamilies];
};
// Dynamic shared memory: one WarpRows per warp of the block, then each warp's
// open_rows OpenRows.
extern __shared__ WarpRows s_warp_rows[];

inline constexpr int kAtBarrier = kCombos;
inline constexpr int kFinished = kCombos + 1;
inline constexpr int kAtMma = kCombos + 2;  // waiting for the warp's other lanes at an mma.sync

__device__ __forceinline__ std::uint32_t linear_thread() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::uint32_t lane_id() { return linear_thread() % 32u; }
__device__ __forceinline__ WarpRows& my_rows() { return s_warp_rows[linear_thread() / 32u]; }
__device__ __forceinline__ OpenRow* my_open_rows() {
  const unsigned warps = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
  return reinterpret_cast<OpenRow*>(s_warp_rows + warps) + (linear_thread() / 32u) * c_count.open_rows;
}
// The lanes of this warp that exist (a block need not be a multiple of 32 threads).
__device__ __forceinline__ unsigned warp_lanes() {
  const std::uint32_t threads = blockDim.x * blockDim.y * blockDim.z;
  const std::uint32_t n = threads - linear_thread() / 32u * 32u;
  return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
}
__device__ __forceinline__ bool is_global(int combo) { return space_of(static_cast<ArrayId>(combo / 2)) == Space::Global; }
__device__ __forceinline__ std::uint32_t* element_loads(int combo) {
  if (combo == static_cast<int>(ArrayId::A) * 2) return c_count.a_loads;
  if (combo == static_cast<int>(ArrayId::B) * 2) return c_count.b_loads;
  return nullptr;
}

__device__ __forceinline__ void sort_small(std::uint32_t* v, int n) {
  for (int i = 1; i < n; ++i) {
    const std::uint32_t x = v[i];
    int j = i;
    for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
    v[j] = x;
  }
}

// What one phase of a shared request costs: the lanes in `mask`, each
// reading `per` words from first_word[lane]. ways: the most distinct words one
// bank delivers (the phase's wavefronts); repeats: the words read by more than
// one lane, counted per reading lane and word. `words`: room for 128.
struct PhaseCost {
  std::uint32_t ways = 0, repeats = 0;
};
__device__ __forceinline__ PhaseCost phase_cost(std::uint32_t mask, const std::uint32_t* first_word, int per,
                                                std::uint32_t* words) {
  int count = 0;
  for (std::uint32_t m = mask; m; m &= m - 1)
    for (int e = 0; e < per; ++e) words[count++] = first_word[__ffs(m) - 1] + e;
  sort_small(words, count);
  std::uint32_t per_bank[32] = {};
  PhaseCost cost;
  for (int i = 0; i < count;) {
    int run = 1;
    while (i + run < count && words[i + run] == words[i]) ++run;
    if (run > 1) cost.repeats += run;
    const std::uint32_t w = ++per_bank[words[i] % 32];
    cost.ways = w > cost.ways ? w : cost.ways;
    i += run;
  }
  return cost;
}

// What a shared request costs: its wavefronts, phases (the wavefronts less its
// bank conflicts), the lanes' repeated words and its worst phase, as
// bank_conflicts.h counts them. Lanes move 128 bytes per phase; each phase
// costs its most loaded bank's distinct words. A load's two neighbouring
// phases whose lanes pair up with one address (lane ^ 1 or lane ^ 2) take one
// wavefront where together they touch each bank at most once.
struct SharedCost {
  std::uint32_t wavefronts = 0, phases = 0, repeats = 0, worst = 0;
};
__device__ __noinline__ SharedCost shared_cost(bool load, int per, std::uint32_t lanes, const std::uint32_t* first_word) {
  std::uint32_t words[128];
  const std::uint32_t phase_lanes = 32u / per;
  SharedCost s;
  for (std::uint32_t phase = 0; phase < 32u / phase_lanes; ++phase) {
    const std::uint32_t in_phase =
        lanes & (phase_lanes == 32 ? 0xFFFFFFFFu : ((1u << phase_lanes) - 1u) << (phase * phase_lanes));
    PhaseCost cost;
    bool merged = false;
    if (per > 1 && load && phase % 2 == 0) {
      const std::uint32_t group = (phase_lanes == 16 ? 0xFFFFFFFFu : 0xFFFFu << (phase * phase_lanes));
      const std::uint32_t both = lanes & group, next = both & ~in_phase;
      bool paired = false;
      for (std::uint32_t x = 1; x <= 2 && !paired && in_phase && next; ++x) {
        paired = true;
        for (std::uint32_t m = group; m; m &= m - 1) {
          const std::uint32_t lane = __ffs(m) - 1;
          const bool mine = lanes >> lane & 1u, theirs = lanes >> (lane ^ x) & 1u;
          if (mine != theirs || (mine && first_word[lane] != first_word[lane ^ x])) paired = false;
        }
      }
      if (paired) {
        cost = phase_cost(both, first_word, per, words);
        merged = cost.ways == 1;
      }
    }
    if (merged) {
      ++phase;  // the odd phase went with it
    } else {
      if (!in_phase) continue;
      cost = phase_cost(in_phase, first_word, per, words);
    }
    s.repeats += cost.repeats;
    s.wavefronts += cost.ways;
    ++s.phases;
    s.worst = cost.ways > s.worst ? cost.ways : s.worst;
  }
  return s;
}

__device__ __forceinline__ LoadFamily& family_of(int combo) {
  return my_rows().family[combo / 2 - static_cast<int>(ArrayId::As)];
}
__device__ __forceinline__ bool is_shared_load(int combo) { return !is_global(combo) && combo % 2 == static_cast<int>(Op::Load); }

// n loads as compiled, of the given wavefronts and conflicts in all.
__device__ __forceinline__ void add_compiled(int combo, std::uint32_t n, std::uint32_t wavefronts, std::uint32_t conflicts) {
  std::uint32_t* c = s_counts[combo];
  atomicAdd(&c[kCompiledRequests], n);
  atomicAdd(&c[kCompiledWavefronts], wavefronts);
  atomicAdd(&c[kCompiledConflicts], conflicts);
}

// Whether the family can take offset d: within reach, with room, not taken yet
// (otherwise the load is counted as it is). `taken`: some lane found d among
// the offsets.
__device__ __forceinline__ bool can_take(const LoadFamily& f, std::uint32_t d, bool taken) {
  const std::int32_t signed_d = static_cast<std::int32_t>(d);
  return signed_d >= -kFamilyReach && signed_d <= kFamilyReach && f.count < kFamilyLoads && !taken;
}
__device__ __forceinline__ void take(LoadFamily& f, std::uint32_t d) {
  const std::int32_t signed_d = static_cast<std::int32_t>(d);
  f.lo = f.count == 0 || signed_d < f.lo ? signed_d : f.lo;
  f.hi = f.count == 0 || signed_d > f.hi ? signed_d : f.hi;
  f.offsets[f.count++] = static_cast<std::int16_t>(signed_d);
}

// Run by one lane: a 4-byte shared load of `lanes` at first_word[] joins its
// array's family (the epoch's first sets it up); true when it did, and is
// counted as compiled when the epoch ends.
__device__ bool join_family(int combo, std::uint32_t lanes, const std::uint32_t* first_word) {
  LoadFamily& f = family_of(combo);
  const std::uint32_t l0 = __ffs(lanes) - 1;
  if (f.lanes == 0) {
    bool by4 = true, by2 = true, same = f.cost_lanes == lanes;
    for (std::uint32_t m = lanes; m; m &= m - 1) {
      const std::uint32_t l = __ffs(m) - 1, rel = first_word[l] - first_word[l0];
      f.base[l] = first_word[l];
      by4 = by4 && rel % 4 == 0;
      by2 = by2 && rel % 2 == 0;
      same = same && f.pattern[l] == rel;
      f.pattern[l] = rel;
    }
    if (!same) f.cost_lanes = lanes, f.cost_known = 0;
    f.lanes = lanes;
    f.align = by4 ? 4 : by2 ? 2 : 1;
  }
  if (f.align == 1 || f.lanes != lanes) return false;
  const std::uint32_t d = first_word[l0] - f.base[l0];
  for (std::uint32_t m = lanes; m; m &= m - 1)
    if (const std::uint32_t l = __ffs(m) - 1; first_word[l] - f.base[l] != d) return false;
  bool taken = false;
  for (std::uint32_t i = 0; i < f.count; ++i) taken |= f.offsets[i] == static_cast<std::int32_t>(d);
  if (!can_take(f, d, taken)) return false;
  take(f, d);
  return true;
}

// The same, run by the lanes of `group` together, each with its word; the
// group's first lane gets the answer.
__device__ __forceinline__ bool join_family_together(int combo, unsigned group, std::uint32_t word) {
  LoadFamily& f = family_of(combo);
  const std::uint32_t lane = lane_id(), leader = __ffs(group) - 1;
  if (f.lanes == 0) {
    const std::uint32_t rel = word - __shfl_sync(group, word, leader);
    f.base[lane] = word;
    const bool by4 = __all_sync(group, rel % 4 == 0), by2 = __all_sync(group, rel % 2 == 0);
    const bool same = f.cost_lanes == group && __all_sync(group, f.pattern[lane] == rel);
    f.pattern[lane] = rel;
    __syncwarp(group);  // every lane has read f.lanes and f.cost_lanes (a vote orders no memory)
    if (lane == leader) {
      f.lanes = group;
      f.align = by4 ? 4 : by2 ? 2 : 1;
      if (!same) f.cost_lanes = group, f.cost_known = 0;
    }
    __syncwarp(group);
  }
  if (f.align == 1 || f.lanes != group) return false;
  const std::uint32_t d = word - f.base[lane];
  int same = 0;
  __match_all_sync(group, d, &same);
  if (!same) return false;
  // Only an offset between the least and the greatest taken can have been
  // taken: then the lanes look for it among them together, a share each.
  // (A loop that walks its row in order never needs to look.)
  const std::int32_t signed_d = static_cast<std::int32_t>(d);
  const bool inside = lane == leader && f.count > 0 && signed_d >= f.lo && signed_d <= f.hi;
  bool taken = false;
  if (__shfl_sync(group, static_cast<int>(inside), leader)) {
    bool found = false;
    for (std::uint32_t i = __popc(group & ((1u << lane) - 1u)); i < f.count; i += __popc(group))
      found |= f.offsets[i] == signed_d;
    taken = __any_sync(group, found);
    __syncwarp(group);  // every lane has read the offsets before the leader adds one
  }
  if (lane != leader || !can_take(f, d, taken)) return false;
  take(f, d);
  return true;
}

// Run by one lane when the epoch ends: each family's offsets in ascending
// order, four adjacent ones 16-byte aligned in every lane as one 16-byte
// load, two 8-byte aligned as one 8-byte load, the rest as 4-byte loads. A
// family's loads differ only by a shift common to all lanes, which moves
// every lane's words to other banks alike: one cost per width serves them all.
__device__ void flush_families() {
  WarpRows& w = my_rows();
  for (int i = 0; i < kFamilies; ++i) {
    LoadFamily& f = w.family[i];
    if (f.lanes == 0) continue;
    const int combo = (static_cast<int>(ArrayId::As) + i) * 2 + static_cast<int>(Op::Load);
    const std::int32_t base_word = static_cast<std::int32_t>(f.base[__ffs(f.lanes) - 1]);
    std::int16_t* d = f.offsets;
    const int count = static_cast<int>(f.count);
    for (int a = 1; a < count; ++a) {  // insertion sort: a few dozen offsets
      const std::int16_t x = d[a];
      int b = a;
      for (; b > 0 && d[b - 1] > x; --b) d[b] = d[b - 1];
      d[b] = x;
    }
    std::uint32_t loads[5] = {};  // by floats per lane
    for (int a = 0; a < count;) {
      const std::int32_t word = base_word + d[a];
      int n = 1;
      for (int width = 4; width >= 2 && n == 1; width /= 2) {
        bool all = static_cast<int>(f.align) >= width && word % width == 0 && a + width <= count;
        for (int e = 1; e < width && all; ++e) all = d[a + e] == d[a] + e;
        if (all) n = width;
      }
      ++loads[n];
      a += n;
    }
    for (int p = 0; p < 3; ++p) {
      const int per = 1 << p;
      if (!loads[per]) continue;
      if (!(f.cost_known >> p & 1u)) {  // the family's lanes or pattern changed since last computed
        const SharedCost s = shared_cost(true, per, f.lanes, f.base);
        f.cost_wavefronts[p] = s.wavefronts;
        f.cost_phases[p] = s.phases;
        f.cost_known |= 1u << p;
      }
      add_compiled(combo, loads[per], loads[per] * f.cost_wavefronts[p],
                   loads[per] * (f.cost_wavefronts[p] - f.cost_phases[p]));
    }
    f.count = 0;
    f.lanes = 0;
  }
}

// A copy's write to shared array copy_to: `further` wavefronts more, counted
// as bank conflicts too (add_copy_lines).
__device__ __forceinline__ void add_copy_wavefronts(int copy_to, std::uint32_t further) {
  std::uint32_t* write = s_counts[copy_to * 2 + static_cast<int>(Op::Store)];
  atomicAdd(&write[kSectors], further);
  atomicAdd(&write[kLines], further);
}

// A cp.async copy of 4 or 8 bytes (bank_conflicts.h, copy_line_wavefronts):
// its write to shared array copy_to takes a wavefront more per 128-byte line
// beyond the first that a phase of its reads (the lanes in `copies`, at their
// first words) touches: the warp for 4 bytes, each half-warp for 8. `scratch`:
// room for 32.
__device__ void add_copy_lines(int copy_to, int per, std::uint32_t copies, const std::uint32_t* first_word,
                               std::uint32_t* scratch) {
  if (per > 2) return;  // 16-byte copies: no rule is known
  std::uint32_t further = 0;
  for (std::uint32_t phase = per == 1 ? ~0u : 0xFFFFu; phase != 0; phase = per == 1 ? 0u : phase << 16) {
    int count = 0;
    for (std::uint32_t m = copies & phase; m; m &= m - 1) scratch[count++] = first_word[__ffs(m) - 1] / 32;
    sort_small(scratch, count);
    for (int i = 1; i < count; ++i) further += scratch[i] != scratch[i - 1];
  }
  if (further != 0) add_copy_wavefronts(copy_to, further);
}

// One request counted by a single lane from its lanes' first words, as
// memory_stats.cpp's count_request does (the general path: vector accesses and
// requests whose lanes arrived apart).
__device__ __noinline__ void count_row(int combo, int per, std::uint32_t lanes, const std::uint32_t* first_word,
                                       std::uint32_t flagged, int copy_to) {
  std::uint32_t* c = s_counts[combo];
  const std::uint32_t n = __popc(lanes);
  atomicAdd(&c[kRequests], 1u);
  atomicAdd(&c[kAccesses], n);
  atomicAdd(&c[kEvents], n * per);
  const bool store = combo % 2 == static_cast<int>(Op::Store);
  if (flagged && store) atomicAdd(&c[kPadding], static_cast<std::uint32_t>(__popc(flagged)) * per);
  if (is_global(combo)) {
    std::uint32_t words[128];
    int count = 0;
    for (std::uint32_t m = lanes; m; m &= m - 1)
      for (int e = 0; e < per; ++e) words[count++] = first_word[__ffs(m) - 1] + e;
    sort_small(words, count);
    std::uint32_t distinct = 0, sectors = 0, lines = 0;
    std::uint32_t* loads = element_loads(combo);
    const std::uint32_t base = c_count.base_word[combo / 2];
    for (int i = 0; i < count;) {
      int run = 1;
      while (i + run < count && words[i + run] == words[i]) ++run;
      if (i == 0 || words[i] / 8 != words[i - 1] / 8) ++sectors;
      if (i == 0 || words[i] / 32 != words[i - 1] / 32) ++lines;
      ++distinct;
      if (loads) atomicAdd(&loads[words[i] - base], static_cast<std::uint32_t>(run));
      i += run;
    }
    atomicAdd(&c[kSectors], sectors);
    atomicAdd(&c[kLines], lines);
    atomicAdd(&c[kIdeal], (distinct * 4 + 31) / 32);
    atomicAdd(&c[kHistogram + (sectors < 32 ? sectors : 32)], 1u);
    if (!store && flagged && copy_to >= 0) add_copy_lines(copy_to, per, flagged, first_word, words);
    return;
  }
  // Shared: wavefronts and bank conflicts (shared_cost).
  const bool load = combo % 2 == static_cast<int>(Op::Load);
  const SharedCost s = shared_cost(load, per, lanes, first_word);
  atomicAdd(&c[kSectors], s.wavefronts);
  atomicAdd(&c[kLines], s.wavefronts - s.phases);
  atomicAdd(&c[kIdeal], s.repeats / per);
  atomicAdd(&c[kHistogram + (s.worst < 32 ? s.worst : 32)], 1u);
  if (load && !(per == 1 && join_family(combo, lanes, first_word))) add_compiled(combo, 1, s.wavefronts, s.wavefronts - s.phases);
}

// The largest of the lanes' values (each at most 63), bit by bit with votes:
// __reduce_max_sync needs compute capability 8.0.
__device__ __forceinline__ std::uint32_t max_over(unsigned group, std::uint32_t v) {
  std::uint32_t best = 0;
  for (int bit = 5; bit >= 0; --bit)
    if (__ballot_sync(group, v >= (best | 1u << bit))) best |= 1u << bit;
  return best;
}

// A scalar request of every lane in `group`, counted by the lanes together.
__device__ __forceinline__ void count_together(int combo, unsigned group, std::uint32_t word, bool padding,
                                               int copy_to) {
  const std::uint32_t lane = lane_id();
  const unsigned same_word = __match_any_sync(group, word);
  const bool word_leader = static_cast<std::uint32_t>(__ffs(same_word) - 1) == lane;
  const std::uint32_t leader = __ffs(group) - 1;
  std::uint32_t* c = s_counts[combo];
  const std::uint32_t distinct = __popc(__ballot_sync(group, word_leader));
  const std::uint32_t padding_lanes = __popc(__ballot_sync(group, padding));
  if (is_global(combo)) {
    const unsigned same_sector = __match_any_sync(group, word / 8);
    const unsigned same_line = __match_any_sync(group, word / 32);
    const std::uint32_t sectors = __popc(__ballot_sync(group, static_cast<std::uint32_t>(__ffs(same_sector) - 1) == lane));
    const std::uint32_t lines = __popc(__ballot_sync(group, static_cast<std::uint32_t>(__ffs(same_line) - 1) == lane));
    if (std::uint32_t* loads = element_loads(combo); loads && word_leader)
      atomicAdd(&loads[word - c_count.base_word[combo / 2]], static_cast<std::uint32_t>(__popc(same_word)));
    // A 4-byte copy's read: its write takes a wavefront per further line (add_copy_lines).
    const unsigned copies = __ballot_sync(group, copy_to >= 0);
    std::uint32_t further = 0;
    int to = -1;
    if (copies != 0) {
      const unsigned copy_line = copies == group ? same_line : __match_any_sync(group, copy_to >= 0 ? word / 32 : ~0u);
      further = __popc(__ballot_sync(group, copy_to >= 0 && static_cast<std::uint32_t>(__ffs(copy_line) - 1) == lane)) - 1;
      to = __shfl_sync(group, copy_to, __ffs(copies) - 1);
    }
    if (lane != leader) return;
    if (further != 0) add_copy_wavefronts(to, further);
    atomicAdd(&c[kRequests], 1u);
    atomicAdd(&c[kAccesses], static_cast<std::uint32_t>(__popc(group)));
    atomicAdd(&c[kEvents], static_cast<std::uint32_t>(__popc(group)));
    atomicAdd(&c[kSectors], sectors);
    atomicAdd(&c[kLines], lines);
    atomicAdd(&c[kIdeal], (distinct * 4 + 31) / 32);
    atomicAdd(&c[kHistogram + (sectors < 32 ? sectors : 32)], 1u);
    return;
  }
  // Shared: the distinct words of each bank; the most loaded bank sets the wavefronts.
  const unsigned same_bank = __match_any_sync(group, word_leader ? word % 32 : 32 + lane);
  const std::uint32_t ways = max_over(group, word_leader ? __popc(same_bank) : 0u);
  const std::uint32_t repeats = __popc(__ballot_sync(group, __popc(same_word) > 1));
  const bool joined = is_shared_load(combo) && join_family_together(combo, group, word);
  if (lane != leader) return;
  atomicAdd(&c[kRequests], 1u);
  atomicAdd(&c[kAccesses], static_cast<std::uint32_t>(__popc(group)));
  atomicAdd(&c[kEvents], static_cast<std::uint32_t>(__popc(group)));
  if (padding_lanes) atomicAdd(&c[kPadding], padding_lanes);
  atomicAdd(&c[kSectors], ways);
  atomicAdd(&c[kLines], ways - 1);
  atomicAdd(&c[kIdeal], repeats);
  atomicAdd(&c[kHistogram + (ways < 32 ? ways : 32)], 1u);
  if (is_shared_load(combo) && !joined) add_compiled(combo, 1, ways, ways - 1);
}

__device__ __forceinline__ void count_and_free(OpenRow& r) {
  count_row(r.combo, r.per, r.lanes, r.word, r.flagged, r.copy_to);
  r.lanes = 0;
}

// The open row of combo that lane joins: the one with its key (a lane whose
// offset is known), else the oldest it has not joined; -1 if none.
__device__ __forceinline__ int row_for(const WarpRows& w, const OpenRow* rows, int combo, std::uint32_t lane,
                                       bool known, std::uint32_t key) {
  int best = -1;
  for (std::uint64_t m = w.used; m; m &= m - 1) {
    const int i = __ffsll(static_cast<long long>(m)) - 1;
    const OpenRow& r = rows[i];
    if (r.combo != combo || (r.lanes >> lane & 1u) || (known && r.key != key)) continue;
    if (best < 0 || r.stamp < rows[best].stamp) best = i;
  }
  return best;
}

// Run by one lane: the lanes of `group` (all at one combo, each with its word)
// join the open rows; complete rows are counted.
__device__ void join_rows(int combo, int per, unsigned group, const std::uint32_t* words, std::uint32_t flagged,
                          const std::int8_t* copy_to, unsigned all) {
  WarpRows& w = my_rows();
  OpenRow* rows = my_open_rows();
  const std::uint64_t capacity = c_count.open_rows >= 64 ? ~0ull : (1ull << c_count.open_rows) - 1;
  // Lanes whose offset is not known yet take the key of the group's first lane that has one.
  std::uint32_t group_key = words[__ffs(group) - 1];
  for (std::uint32_t m = group; m; m &= m - 1)
    if (const std::uint32_t l = __ffs(m) - 1; w.known[combo] >> l & 1u) {
      group_key = words[l] - w.offset[combo][l];
      break;
    }
  for (std::uint32_t m = group; m; m &= m - 1) {
    const std::uint32_t lane = __ffs(m) - 1;
    const bool known = w.known[combo] >> lane & 1u;
    const std::uint32_t key = known ? words[lane] - w.offset[combo][lane] : group_key;
    int at = row_for(w, rows, combo, lane, known, key);
    if (at < 0) {
      if (const std::uint64_t free = capacity & ~w.used; free != 0) {
        at = __ffsll(static_cast<long long>(free)) - 1;
      } else {  // no room: the oldest row is counted as it stands
        at = __ffsll(static_cast<long long>(w.used)) - 1;
        for (std::uint64_t u = w.used; u; u &= u - 1)
          if (const int i = __ffsll(static_cast<long long>(u)) - 1; rows[i].stamp < rows[at].stamp) at = i;
        count_and_free(rows[at]);
        atomicAdd(c_count.split_requests, 1ull);
      }
      OpenRow& r = rows[at];
      r.lanes = 0;
      r.combo = static_cast<std::uint16_t>(combo);
      r.per = static_cast<std::uint8_t>(per);
      r.copy_to = -1;
      r.flagged = 0;
      r.key = key;
      r.stamp = w.next_stamp++;
      w.used |= 1ull << at;
    }
    OpenRow& r = rows[at];
    if (!known) {
      w.offset[combo][lane] = words[lane] - r.key;
      w.known[combo] |= 1u << lane;
    }
    r.lanes |= 1u << lane;
    r.word[lane] = words[lane];
    if (flagged >> lane & 1u) {
      if ((r.flagged & ((1u << lane) - 1)) == 0) r.copy_to = copy_to[lane];  // the lowest flagged lane's
      r.flagged |= 1u << lane;
    }
  }
  std::uint32_t open = 0;
  for (std::uint64_t m = w.used; m; m &= m - 1) {
    const int i = __ffsll(static_cast<long long>(m)) - 1;
    OpenRow& r = rows[i];
    if ((r.lanes | w.finished) == all) {
      count_and_free(r);
      w.used &= ~(1ull << i);
    } else {
      open |= 1u << r.combo;
    }
  }
  w.open_combos = open;
}

// The epoch ends: its open requests are counted, its offsets forgotten.
__device__ void flush_rows() {
  WarpRows& w = my_rows();
  OpenRow* rows = my_open_rows();
  for (std::uint64_t m = w.used; m; m &= m - 1) count_and_free(rows[__ffsll(static_cast<long long>(m)) - 1]);
  w.used = 0;
  w.open_combos = 0;
  for (int c = 0; c < kCombos; ++c) w.known[c] = 0;
}

// Every lane of the warp calls this at each access (kind = its combo), while
// waiting at a barrier (kAtBarrier) and once finished (kFinished); returns the
// lanes that are waiting or finished. padding: a store of a fill value;
// copy_to: a cp.async copy's read, the shared array it writes (else -1).
__device__ __noinline__ unsigned meet(int kind, std::uint32_t word, int per, bool padding, int copy_to = -1) {
  const unsigned all = warp_lanes();
  const std::uint32_t lane = lane_id();
  const std::uint32_t first = __ffs(all) - 1;
  __syncwarp(all);
  WarpRows& w = my_rows();
  const unsigned idle = __ballot_sync(all, kind >= kCombos);
  if (idle == all) {  // every lane waits or is done: a barrier some lanes never reach is flagged
    const unsigned finished = __ballot_sync(all, kind == kFinished);
    if (finished != 0 && finished != all && lane == first) atomicOr(c_count.errors, kErrDivergentBarrier);
    return idle;
  }
  // The common case: every lane still running makes the same scalar access,
  // at one key (or the epoch's first of it: the lanes' offsets are set from
  // the first lane), and no earlier partial request of it is open: one
  // request, counted at once.
  const unsigned group = __match_any_sync(all, kind * 8 + per);
  const bool known = kind < kCombos && (w.known[kind] >> lane & 1u);
  const std::uint32_t key = known ? word - w.offset[kind][lane] : 0;
  const unsigned known_lanes = __ballot_sync(all, known);
  const unsigned same_key = __match_any_sync(all, (static_cast<unsigned long long>(kind * 8 + per) << 33) |
                                                      (static_cast<unsigned long long>(known) << 32) | key);
  const bool one_key = (known_lanes & group) == 0 || (same_key | idle) == all;
  const bool together = kind < kCombos && per == 1 && idle == w.finished && (group | idle) == all &&
                        (w.open_combos >> kind & 1u) == 0 && one_key;
  if (__all_sync(all, kind >= kCombos || together)) {
    if (kind < kCombos) {
      if ((known_lanes & group) == 0) {  // the epoch's first access of this kind: offsets from the first lane
        w.offset[kind][lane] = word - __shfl_sync(group, word, __ffs(group) - 1);
        __syncwarp(group);
        if (lane == static_cast<std::uint32_t>(__ffs(group) - 1)) w.known[kind] |= group;
      }
      count_together(kind, group, word, padding, copy_to);
    }
    return idle;
  }
  // Otherwise one lane groups the meeting's accesses by kind and width, and
  // each group joins the open requests (or is counted, when complete).
  w.stage_word[lane] = word;
  w.stage_kind[lane] = static_cast<std::uint8_t>(kind);
  w.stage_per[lane] = static_cast<std::uint8_t>(per);
  w.stage_copy[lane] = static_cast<std::int8_t>(copy_to);
  const unsigned flagged_lanes = __ballot_sync(all, padding || copy_to >= 0);
  __syncwarp(all);
  if (lane == first) {
    for (unsigned pending = all & ~idle; pending;) {
      const int lead = __ffs(pending) - 1;
      const int k = w.stage_kind[lead], p = w.stage_per[lead];
      unsigned same = 0;
      for (unsigned m = pending; m; m &= m - 1) {
        const int l = __ffs(m) - 1;
        if (w.stage_kind[l] == k && w.stage_per[l] == p) same |= 1u << l;
      }
      // A whole request at once only with one key (or none known yet);
      // otherwise the rows sort the lanes out by key.
      bool keyed_apart = false;
      for (unsigned m = same & w.known[k]; m; m &= m - 1) {
        const int l = __ffs(m) - 1, l0 = __ffs(same & w.known[k]) - 1;
        keyed_apart |= w.stage_word[l] - w.offset[k][l] != w.stage_word[l0] - w.offset[k][l0];
      }
      keyed_apart |= (same & w.known[k]) != 0 && (same & w.known[k]) != same;
      const unsigned flagged = flagged_lanes & same;
      if ((same | w.finished) == all && (w.open_combos >> k & 1u) == 0 && !keyed_apart && (same & w.known[k]) != 0)
        count_row(k, p, same, w.stage_word, flagged, flagged ? w.stage_copy[__ffs(flagged) - 1] : -1);
      else
        join_rows(k, p, same, w.stage_word, flagged, w.stage_copy, all);
      pending &= ~same;
    }
  }
  __syncwarp(all);
  return idle;
}

struct Sink {
  __device__ static bool inside(ArrayId array, std::uint32_t index) {
    if (index < c_count.elements[static_cast<int>(array)]) return true;
    atomicOr(c_count.errors, kErrOutOfBounds);
    return false;
  }
  __device__ static std::uint32_t word_of(ArrayId array, const float* base, std::uint32_t index) {
    if (space_of(array) == Space::Shared) return static_cast<std::uint32_t>(__cvta_generic_to_shared(base + index) / 4);
    return static_cast<std::uint32_t>(reinterpret_cast<std::uint64_t>(base + index) / 4);
  }
  __device__ static void access(ArrayId array, Op op, const float* base, std::uint32_t index, bool ok, Width width,
                                bool padding, int copy_to = -1) {
    meet(static_cast<int>(array) * 2 + static_cast<int>(op), ok ? word_of(array, base, index) : 0,
         static_cast<int>(floats_of(width)), padding, copy_to);
  }
  __device__ static float load(ArrayId array, const float* base, std::uint32_t index) {
    const bool ok = inside(array, index);
    const float v = ok ? base[index] : 0.0f;
    access(array, Op::Load, base, index, ok, Width::B4, false);
    return v;
  }
  __device__ static void store(ArrayId array, float* base, std::uint32_t index, float value, std::uint8_t flags) {
    const bool ok = inside(array, index);
    if (ok) base[index] = value;
    access(array, Op::Store, base, index, ok, Width::B4, (flags & kFlagPadding) != 0);
  }
  // One access of 2 or 4 floats; a misaligned one is an error, as on the hardware.
  __device__ static bool vector_inside(ArrayId array, std::uint32_t index, Width width) {
    const std::uint32_t n = floats_of(width);
    if (index % n != 0) atomicOr(c_count.errors, kErrMisaligned);
    return index % n == 0 && inside(array, index) && inside(array, index + n - 1);
  }
  __device__ static void load_vector(ArrayId array, const float* base, std::uint32_t index, Width width, float* out) {
    const bool ok = vector_inside(array, index, width);
    for (std::uint32_t i = 0; i < floats_of(width); ++i) out[i] = ok ? base[index + i] : 0.0f;
    access(array, Op::Load, base, index, ok, width, false);
  }
  // A vector store is a fill when its first float is (the kernel API stages
  // whole vectors: a computed vector or a loaded one).
  __device__ static void store_vector(ArrayId array, float* base, std::uint32_t index, Width width,
                                      const float* values, const std::uint8_t* flags) {
    const bool ok = vector_inside(array, index, width);
    if (ok)
      for (std::uint32_t i = 0; i < floats_of(width); ++i) base[index + i] = values[i];
    access(array, Op::Store, base, index, ok, width, (flags[0] & kFlagPadding) != 0);
  }
  // cp.async, made synchronous: a global load, then a shared store, as recorded.
  __device__ static void copy_async(ArrayId dst, float* dst_base, std::uint32_t dst_index, ArrayId src,
                                    const float* src_base, std::uint32_t src_index, Width width) {
    const bool dst_ok = vector_inside(dst, dst_index, width);
    const bool src_ok = src_base == nullptr || vector_inside(src, src_index, width);
    float values[4] = {};
    if (src_base) {
      for (std::uint32_t i = 0; i < floats_of(width); ++i) values[i] = src_ok ? src_base[src_index + i] : 0.0f;
      access(src, Op::Load, src_base, src_index, src_ok, width, false, static_cast<int>(dst));
    }
    if (dst_ok)
      for (std::uint32_t i = 0; i < floats_of(width); ++i) dst_base[dst_index + i] = values[i];
    access(dst, Op::Store, dst_base, dst_index, dst_ok, width, src_base == nullptr);
  }
  __device__ static void commit_async() {}
  __device__ static void wait_async(int) {}
  // mma fragments (kernels/api/mma.h): an A fragment is one 16-byte request per
  // lane at the row its ldmatrix points at (ldmatrix_row, before its elements),
  // its four elements then read without another; a B element is a 4-byte load.
  __device__ static void ldmatrix_row(ArrayId array, const float* base, std::uint32_t index) {
    access(array, Op::Load, base, index, vector_inside(array, index, Width::B16), Width::B16, false);
  }
  __device__ static float load_fragment(ArrayId array, const float* base, std::uint32_t index, Width width, bool) {
    const bool ok = inside(array, index);
    if (width != Width::B16) access(array, Op::Load, base, index, ok, width, false);
    return ok ? base[index] : 0.0f;
  }
  // mma.sync needs the whole warp at the one instruction, but meeting at
  // accesses lets lanes drift apart (a lane that zero-fills a slot past the
  // edge makes one access where the others make a load and a store): the
  // lanes that arrive first keep meeting with the rest until all are here,
  // as at a barrier, without ending the epoch.
  __device__ static void mma_tf32(float (&c)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
    const unsigned all = warp_lanes();
    while (meet(kAtMma, 0, 1, false) != all) {
    }
    __syncwarp(all);
    ::ts::mma::mma_sync_tf32(c, a, b);  // the recorder refuses GPUs before sm_80 before launching
  }
  // The warp's lanes meet until all of them wait here; its open requests end
  // with the epoch; then the block's barrier.
  __device__ static void barrier() {
    const unsigned all = warp_lanes();
    unsigned idle;
    do idle = meet(kAtBarrier, 0, 1, false);
    while (idle != all);
    if (lane_id() == static_cast<std::uint32_t>(__ffs(all) - 1)) {
      flush_rows();
      flush_families();
    }
    __syncwarp(all);
    ::__syncthreads();
  }
  // After the kernel's body: meet the lanes still running until all are done.
  __device__ static void finish() {
    const unsigned all = warp_lanes();
    atomicOr(&my_rows().finished, 1u << lane_id());
    while (meet(kFinished, 0, 1, false) != all) {
    }
    if (lane_id() == static_cast<std::uint32_t>(__ffs(all) - 1)) {
      flush_rows();
      flush_families();
    }
    __syncwarp(all);
  }
  __device__ static void shared_base(ArrayId, const float*) {}
};

// Kernels call __syncthreads() unqualified: inside this namespace it is this one.
__device__ __forceinline__ void __syncthreads() { Sink::barrier(); }

using InMatrix = rec::GlobalArray<Sink, const float>;
using OutMatrix = rec::GlobalArray<Sink, float>;

TS_REC_VECTOR_API(Sink)
TS_REC_ASYNC_COPY_API(Sink)
TS_REC_MMA_API(Sink)

}  // namespace ts::gpu_count

// 16-byte aligned, as the plain build's compiler places them: the loads as
// compiled (flush_families) are merged by the words' alignment.
#define TS_SHARED(type, name, rows, cols)                 \
  __shared__ __align__(16) type name##_words[rows][cols]; \
  ::ts::rec::SharedArray2D<type, rows, cols, ::ts::gpu_count::Sink> name(name##_words, ::ts::ArrayId::name)
#define TS_SHARED_ALIGNED(type, name, rows, cols)         \
  __shared__ __align__(16) type name##_words[rows][cols]; \
  ::ts::rec::SharedArray2D<type, rows, cols, ::ts::gpu_count::Sink> name(name##_words, ::ts::ArrayId::name)
// Static here, as in the recorded build: the recorded configurations fit in 48 KB
// (the warps' open requests take the dynamic shared memory).
#define TS_SHARED_DYNAMIC(type, name, rows, cols, first_word) TS_SHARED_ALIGNED(type, name, rows, cols)
