// warp_requests.cpp — group a warp's lane events into warp-level requests.
#include "app/core/analysis/warp_requests.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace ts {
namespace {

// (memory, op, async, width): the kinds of access an instruction can make
// (async: a cp.async copy's part; an mma fragment's mark is no such thing).
// An epoch's memory ids are ranked (ascending ids), so that a combo counts
// only the buffers and regions the epoch touches.
constexpr int kWidths = 3;
constexpr int kCombosPerMemory = 2 * 2 * kWidths;
int combo_of(const Event& e, const std::int16_t* rank) {
  return ((rank[e.array] * 2 + ((e.flags & kFlagStore) ? 1 : 0)) * 2 + (e.is_async() ? 1 : 0)) * kWidths +
         std::min<int>(e.width, kWidths - 1);
}

// Only the first element of a vector access takes a slot: the access is one
// lane's part of one instruction, however many floats it moves.
bool starts_access(const Event* ev, std::uint64_t i, std::uint64_t run_begin) {
  return first_of_access(ev[i], i > run_begin ? &ev[i - 1] : nullptr);
}

}  // namespace

std::uint32_t warps_per_block(const LaunchInfo& launch) {
  return (launch.threads_per_block() + kWarpSize - 1) / kWarpSize;
}

void WarpAligner::align(std::uint32_t block, std::uint32_t warp, bool program_order) {
  requests_.clear();
  lanes_.clear();
  addresses_.clear();
  lane_numbers_.clear();
  order_.clear();
  const LaunchInfo& L = trace_->launch;
  const std::uint32_t per_block = L.threads_per_block();
  if (block >= L.grid.count() || warp >= warps_per_block(L)) return;
  lane_count_ = std::min(kWarpSize, per_block - warp * kWarpSize);
  first_thread_ = std::uint64_t{block} * per_block + warp * kWarpSize;
  // The lanes' events epoch by epoch (a barrier separates the instructions of two epochs).
  runs_.reset(*trace_, first_thread_, lane_count_);
  while (runs_.next()) align_epoch(static_cast<std::uint16_t>(runs_.epoch()));
  if (program_order) {
    std::vector<std::uint32_t> perm(requests_.size());
    std::iota(perm.begin(), perm.end(), 0u);
    std::stable_sort(perm.begin(), perm.end(), [&](std::uint32_t a, std::uint32_t b) {
      const WarpRequest& x = requests_[a];
      const WarpRequest& y = requests_[b];
      if (x.epoch != y.epoch) return x.epoch < y.epoch;
      return order_[a] < order_[b];
    });
    std::vector<WarpRequest> sorted(requests_.size());
    for (std::size_t i = 0; i < perm.size(); ++i) sorted[i] = requests_[perm[i]];
    requests_ = std::move(sorted);
  }
}

void WarpAligner::align_epoch(std::uint16_t epoch) {
  const Event* ev = trace_->events.data();
  // Rank the memory ids the epoch touches.
  bool seen[kMaxMemoryIds] = {};
  for (std::uint32_t l = 0; l < lane_count_; ++l)
    for (std::uint64_t i = runs_.begin(l); i < runs_.end(l); ++i) seen[ev[i].array] = true;
  memory_of_rank_.clear();
  for (std::size_t id = 0; id < kMaxMemoryIds; ++id)
    if (seen[id]) {
      rank_[id] = static_cast<std::int16_t>(memory_of_rank_.size());
      memory_of_rank_.push_back(static_cast<std::uint8_t>(id));
    }
  const int kCombos = static_cast<int>(memory_of_rank_.size()) * kCombosPerMemory;
  combos_ = kCombos;
  const std::int16_t* rank = rank_.data();
  counts_.assign(std::size_t(kCombos) * kWarpSize, 0);
  rows_.assign(kCombos, 0);
  const auto counts = [&](int c) { return counts_.data() + std::size_t(c) * kWarpSize; };
  std::uint32_t* rows = rows_.data();
  for (std::uint32_t l = 0; l < lane_count_; ++l)
    for (std::uint64_t i = runs_.begin(l); i < runs_.end(l); ++i) {
      if (!starts_access(ev, i, runs_.begin(l))) continue;
      const int c = combo_of(ev[i], rank);
      rows[c] = std::max(rows[c], ++counts(c)[l]);
    }
  first_row_.assign(kCombos + 1, 0);
  std::uint32_t* first_row = first_row_.data();
  for (int c = 0; c < kCombos; ++c) first_row[c + 1] = first_row[c] + rows[c];
  const std::uint64_t table = std::uint64_t{first_row[kCombos]} * lane_count_;
  // The slot table is rows x lanes: for real kernels about the epoch's events,
  // but up to 32 times them when one lane made far more accesses than the
  // others. Past a bound (a damaged or hand-made file), lanes keep their
  // accesses in order without realignment, in memory linear in the events.
  constexpr std::uint64_t kMaxSlots = std::uint64_t{1} << 24;
  if (table > kMaxSlots) {
    sparse_.resize(runs_.total());
    offset_.assign(std::size_t(kCombos) * kWarpSize, 0);
    fill_.assign(std::size_t(kCombos) * kWarpSize, 0);
    std::uint64_t at = 0;
    for (int c = 0; c < kCombos; ++c)
      for (std::uint32_t l = 0; l < lane_count_; ++l)
        offset_[c * kWarpSize + l] = fill_[c * kWarpSize + l] = at, at += counts(c)[l];
    for (std::uint32_t l = 0; l < lane_count_; ++l)
      for (std::uint64_t i = runs_.begin(l); i < runs_.end(l); ++i)
        if (starts_access(ev, i, runs_.begin(l))) sparse_[fill_[combo_of(ev[i], rank) * kWarpSize + l]++] = i;
    for (int c = 0; c < kCombos; ++c) {
      bool partial = false;
      for (std::uint32_t l = 0; l < lane_count_; ++l)
        if (counts(c)[l] != 0 && counts(c)[l] != rows[c]) partial = true, ++alignment_.unresolved_lanes;
      alignment_.partial_groups += partial ? 1 : 0;
      emit_rows(epoch, c, rows[c], [&](std::uint32_t r, std::uint32_t l) -> std::uint64_t {
        return r < counts(c)[l] ? sparse_[offset_[c * kWarpSize + l] + r] + 1 : 0;
      });
    }
    return;
  }
  slots_.assign(table, 0);

  // The n-th access of a kind in a lane goes to row n of that kind.
  next_.assign(std::size_t(kCombos) * kWarpSize, 0);
  for (std::uint32_t l = 0; l < lane_count_; ++l)
    for (std::uint64_t i = runs_.begin(l); i < runs_.end(l); ++i) {
      if (!starts_access(ev, i, runs_.begin(l))) continue;
      const int c = combo_of(ev[i], rank);
      slots_[(std::size_t{first_row[c]} + next_[c * kWarpSize + l]++) * lane_count_ + l] = i + 1;
    }
  for (int c = 0; c < kCombos; ++c) {
    if (rows[c] == 0) continue;
    bool partial = false;
    for (std::uint32_t l = 0; l < lane_count_; ++l) partial |= counts(c)[l] != 0 && counts(c)[l] != rows[c];
    if (partial) realign_partial_lanes(slots_.data() + std::size_t{first_row[c]} * lane_count_, rows[c], counts(c));
    const std::uint64_t* block = slots_.data() + std::size_t{first_row[c]} * lane_count_;
    emit_rows(epoch, c, rows[c],
              [&](std::uint32_t r, std::uint32_t l) { return block[std::size_t{r} * lane_count_ + l]; });
  }
}

// Appends the requests of one (array, op) kind: row r holds, for lane l,
// slot(r, l) = its event + 1, or 0 when the lane makes no access in it.
template <class Slot>
void WarpAligner::emit_rows(std::uint16_t epoch, int combo, std::uint32_t rows, Slot&& slot) {
  const Event* ev = trace_->events.data();
  // Where the warp issued each request: its position in the epoch's longest
  // lane when that lane takes part, else the earliest position of any lane.
  std::uint32_t longest = 0;
  for (std::uint32_t l = 1; l < lane_count_; ++l)
    if (runs_.end(l) - runs_.begin(l) > runs_.end(longest) - runs_.begin(longest)) longest = l;
  for (std::uint32_t r = 0; r < rows; ++r) {
    WarpRequest req;
    req.width = static_cast<Width>(combo % kWidths);
    req.async = (combo / kWidths) % 2 != 0;
    req.op = static_cast<Op>((combo / kWidths / 2) % 2);
    req.array = static_cast<ArrayId>(memory_of_rank_[combo / kCombosPerMemory]);
    req.epoch = epoch;
    req.ordinal = r;
    req.first = static_cast<std::uint32_t>(lanes_.size());
    std::uint64_t position = std::numeric_limits<std::uint64_t>::max();
    for (std::uint32_t l = 0; l < lane_count_; ++l) {
      const std::uint64_t s = slot(r, l);
      if (s == 0) continue;
      const std::uint64_t e = s - 1;
      lanes_.push_back({l, e});
      addresses_.push_back(trace_->address(req.array, ev[e].index));
      lane_numbers_.push_back(l);
      position = std::min(position, e - runs_.begin(l));
    }
    req.count = static_cast<std::uint32_t>(lanes_.size()) - req.first;
    if (req.count == 0) continue;  // every lane of this row moved to another row
    ldmatrix_addresses(req);
    req.memory_space = ev[lanes_[req.first].event].space();
    req.copy_to = copy_destination(req);
    req.iter = ev[lanes_[req.first].event].iter;
    if (const std::uint64_t s = slot(r, longest); s != 0) position = s - 1 - runs_.begin(longest);
    requests_.push_back(req);
    order_.push_back(position * static_cast<std::uint64_t>(combos_) + static_cast<std::uint64_t>(combo));
  }
}

// A copy's global read: the recorders write each lane's read, then its write
// to shared memory; the request's first lane says where the copy goes.
std::int16_t WarpAligner::copy_destination(const WarpRequest& req) const {
  if (!req.async || req.op != Op::Load || req.space() != Space::Global) return -1;
  const LaneEvent& first = lanes_[req.first];
  const std::uint64_t write = first.event + floats_of(req.width);
  if (write >= runs_.end(first.lane)) return -1;
  const Event& w = trace_->events[write];
  if (!w.is_async() || w.op() != Op::Store || w.space() != Space::Shared) return -1;
  return static_cast<std::int16_t>(w.array);
}

// An mma A fragment (ldmatrix.x4, event.h) from a whole warp: the banks serve
// the 16-byte rows the lanes point at, lane i at row i % 8 of block i / 8,
// which is the row whose words lanes 4 (i % 8) .. 4 (i % 8) + 3 hold in
// register i / 8. Those are the request's addresses, so that its wavefronts
// are the hardware's (one per 8 x 16-byte block without conflicts).
void WarpAligner::ldmatrix_addresses(const WarpRequest& req) {
  const Event* ev = trace_->events.data();
  const LaneEvent* lanes = lanes_.data() + req.first;
  if (req.count != kWarpSize || req.width != Width::B16 || !ev[lanes[0].event].is_fragment()) return;
  std::uint64_t rows[kWarpSize];
  for (std::uint32_t i = 0; i < kWarpSize; ++i) {
    const LaneEvent& holder = lanes[4 * (i % 8)];
    const std::uint64_t e = holder.event + i / 8;  // that lane's register i / 8
    // A fragment cut short (a hand-made file): keep the lanes' own addresses.
    if (e >= runs_.end(holder.lane) || (i / 8 != 0 && !ev[e].continues_fragment()) || ev[e].array != ev[holder.event].array)
      return;
    rows[i] = trace_->address(req.array, ev[e].index);
  }
  std::copy(rows, rows + kWarpSize, addresses_.begin() + req.first);
}

// rows: row_count rows of lane_count_ slots for one (array, op) kind, each
// lane's accesses in its first lane_counts[l] rows. Moves a lane that made
// fewer accesses than the fullest lane to the rows where its element indices
// stay a constant distance from that lane's.
void WarpAligner::realign_partial_lanes(std::uint64_t* rows, std::uint32_t row_count,
                                        const std::uint32_t* lane_counts) {
  const Event* ev = trace_->events.data();
  ++alignment_.partial_groups;
  std::uint32_t full = 0;
  while (lane_counts[full] != row_count) ++full;
  ref_index_.resize(row_count);
  for (std::uint32_t r = 0; r < row_count; ++r) ref_index_[r] = ev[rows[r * lane_count_ + full] - 1].index;
  for (std::uint32_t l = 0; l < lane_count_; ++l) {
    const std::uint32_t n = lane_counts[l];
    if (n == 0 || n == row_count) continue;
    lane_index_.resize(n);
    for (std::uint32_t j = 0; j < n; ++j) lane_index_[j] = ev[rows[j * lane_count_ + l] - 1].index;
    matched_rows_.assign(n, 0);
    bool found = false;
    for (std::uint32_t start = 0; start + n <= row_count && !found; ++start) {
      const std::int64_t distance = lane_index_[0] - ref_index_[start];
      matched_rows_[0] = start;
      std::uint32_t j = 1;
      for (std::uint32_t r = start + 1; r < row_count && j < n; ++r)
        if (lane_index_[j] - ref_index_[r] == distance) matched_rows_[j++] = r;
      found = j == n;
    }
    if (!found) {
      ++alignment_.unresolved_lanes;
      continue;
    }
    if (matched_rows_[n - 1] == n - 1) continue;  // already where the first rows put it
    ++alignment_.realigned_lanes;
    moved_.resize(n);
    for (std::uint32_t j = 0; j < n; ++j) {
      moved_[j] = rows[j * lane_count_ + l];
      rows[j * lane_count_ + l] = 0;
    }
    for (std::uint32_t j = 0; j < n; ++j) rows[matched_rows_[j] * lane_count_ + l] = moved_[j];
  }
}

}  // namespace ts
