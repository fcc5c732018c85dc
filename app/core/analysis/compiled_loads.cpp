// compiled_loads.cpp — merge a family's 4-byte shared loads as ptxas does.
#include "app/core/analysis/compiled_loads.h"

#include <algorithm>

namespace ts {

// The epoch's family of 4-byte loads of one shared array.
struct CompiledLoads::Family {
  bool open = false;
  WarpRequest first;                  // the request that set it (array, op, epoch)
  std::vector<std::uint64_t> base;    // per lane of the family: its byte address
  std::vector<std::uint32_t> lanes;   // the family's lane numbers
  std::uint32_t align = 1;            // 4, 2 or 1: the widest access the lanes' words allow together
  std::vector<std::pair<std::int32_t, std::uint16_t>> offsets;  // (d, k-iteration of its load), in order taken
  std::int32_t lo = 0, hi = 0;        // the least and the greatest d taken
};

namespace {

bool is_scalar_shared_load(const WarpRequest& r) {
  return r.space() == Space::Shared && r.op == Op::Load && r.width == Width::B4 && !r.async;
}

}  // namespace

CompiledLoads::CompiledLoads() : families_(std::make_unique<Family[]>(kMaxMemoryIds)) {}
CompiledLoads::~CompiledLoads() = default;

void CompiledLoads::start(const LaunchInfo& launch) {
  for (std::uint32_t a = 0; a < kMaxMemoryIds; ++a) array_base_[a] = a < launch.memory_count() ? launch.address(a, 0) : 0;
  for (std::uint8_t a : open_) families_[a].open = false;
  open_.clear();
  epoch_ = 0;
}

bool CompiledLoads::join(const WarpRequest& r, std::span<const std::uint64_t> addresses,
                         std::span<const std::uint32_t> lanes, const CompiledLoadSink& merged) {
  if (r.epoch != epoch_) end_epoch(merged), epoch_ = r.epoch;
  if (!is_scalar_shared_load(r)) return false;
  Family& f = families_[static_cast<int>(r.array)];
  if (!f.open) {
    open(f, r, addresses, lanes);
    open_.push_back(static_cast<std::uint8_t>(r.array));
  }
  if (f.align == 1 || f.offsets.size() >= kFamilyLoads) return false;
  // Every lane's word less the family's: one number d for all lanes.
  if (lanes.size() != f.lanes.size() || !std::equal(lanes.begin(), lanes.end(), f.lanes.begin())) return false;
  const std::int64_t first = static_cast<std::int64_t>(addresses[0]) - static_cast<std::int64_t>(f.base[0]);
  for (std::size_t i = 1; i < addresses.size(); ++i)
    if (static_cast<std::int64_t>(addresses[i]) - static_cast<std::int64_t>(f.base[i]) != first) return false;
  if (first % 4 != 0 || first / 4 < -kFamilyReach || first / 4 > kFamilyReach) return false;
  const auto d = static_cast<std::int32_t>(first / 4);
  // Only a d between the least and the greatest taken can have been taken.
  if (!f.offsets.empty() && d >= f.lo && d <= f.hi &&
      std::any_of(f.offsets.begin(), f.offsets.end(), [&](const auto& o) { return o.first == d; }))
    return false;
  f.lo = f.offsets.empty() ? d : std::min(f.lo, d);
  f.hi = f.offsets.empty() ? d : std::max(f.hi, d);
  f.offsets.emplace_back(d, r.iter);
  return true;
}

void CompiledLoads::finish(const CompiledLoadSink& merged) { end_epoch(merged); }

void CompiledLoads::end_epoch(const CompiledLoadSink& merged) {
  for (std::uint8_t a : open_)
    if (families_[a].open) close(families_[a], merged);
  open_.clear();
}

void CompiledLoads::open(Family& f, const WarpRequest& r, std::span<const std::uint64_t> addresses,
                         std::span<const std::uint32_t> lanes) {
  f.open = true;
  f.first = r;
  f.base.assign(addresses.begin(), addresses.end());
  f.lanes.assign(lanes.begin(), lanes.end());
  f.offsets.clear();
  bool by4 = true, by2 = true;
  for (const std::uint64_t a : addresses) {
    by4 = by4 && (a - addresses[0]) % 16 == 0;
    by2 = by2 && (a - addresses[0]) % 8 == 0;
  }
  f.align = by4 ? 4 : by2 ? 2 : 1;
}

// The family's loads in ascending offset, merged where aligned and complete.
void CompiledLoads::close(Family& f, const CompiledLoadSink& merged) {
  f.open = false;
  std::sort(f.offsets.begin(), f.offsets.end());
  // Alignment within the array: the compiler places each shared array at a 16-byte boundary.
  const auto base_word = static_cast<std::int64_t>((f.base[0] - array_base_[static_cast<int>(f.first.array)]) / 4);
  AccessTotals cost[3];  // of a load of 1, 2 and 4 floats a lane, once counted
  bool counted[3] = {};
  for (std::size_t i = 0; i < f.offsets.size();) {
    const std::int32_t d = f.offsets[i].first;
    const std::int64_t word = base_word + d;
    std::uint32_t n = 1;
    for (const std::uint32_t width : {4u, 2u}) {
      bool all = f.align >= width && word % width == 0 && i + width <= f.offsets.size();
      for (std::uint32_t e = 1; e < width && all; ++e) all = f.offsets[i + e].first == d + static_cast<std::int32_t>(e);
      if (all) {
        n = width;
        break;
      }
    }
    WarpRequest r = f.first;
    r.width = n == 4 ? Width::B16 : n == 2 ? Width::B8 : Width::B4;
    r.iter = f.offsets[i].second;
    r.count = static_cast<std::uint32_t>(f.lanes.size());
    const int p = n == 4 ? 2 : n == 2 ? 1 : 0;
    if (!counted[p]) {
      addresses_.resize(f.base.size());
      for (std::size_t l = 0; l < f.base.size(); ++l)
        addresses_[l] = static_cast<std::uint64_t>(static_cast<std::int64_t>(f.base[l]) + std::int64_t{d} * 4);
      count_request(cost[p], r, addresses_, f.lanes);
      counted[p] = true;
    }
    merged(r, cost[p]);
    i += n;
  }
}

}  // namespace ts
