// compiled_loads.cpp — merge a family's 4-byte shared loads as ptxas does.
#include "app/core/analysis/compiled_loads.h"

#include <algorithm>
#include <vector>

namespace ts {
namespace {

// The epoch's family of 4-byte loads of one shared array.
struct Family {
  bool open = false;
  WarpRequest first;                  // the request that set it (array, op, epoch)
  std::vector<std::uint64_t> base;    // per lane of the family: its byte address
  std::vector<std::uint32_t> lanes;   // the family's lane numbers
  std::uint32_t align = 1;            // 4, 2 or 1: the widest access the lanes' words allow together
  std::vector<std::pair<std::int32_t, std::uint16_t>> offsets;  // (d, k-iteration of its load), in order taken
};

bool is_scalar_shared_load(const WarpRequest& r) {
  return r.space() == Space::Shared && r.op == Op::Load && r.width == Width::B4 && !r.async;
}

// Every lane's word less the family's base, when it is one number for all lanes.
bool uniform_offset(const Family& f, std::span<const std::uint64_t> addresses, std::span<const std::uint32_t> lanes,
                    std::int64_t& d) {
  if (lanes.size() != f.lanes.size() || !std::equal(lanes.begin(), lanes.end(), f.lanes.begin())) return false;
  const std::int64_t first = static_cast<std::int64_t>(addresses[0]) - static_cast<std::int64_t>(f.base[0]);
  for (std::size_t i = 1; i < addresses.size(); ++i)
    if (static_cast<std::int64_t>(addresses[i]) - static_cast<std::int64_t>(f.base[i]) != first) return false;
  if (first % 4 != 0) return false;
  d = first / 4;
  return d >= -kFamilyReach && d <= kFamilyReach;
}

class Merger {
 public:
  Merger(const LaunchInfo& launch, const CompiledLoadSink& sink) : sink_(sink) {
    for (int a = 0; a < kArrayCount; ++a) array_base_[a] = launch.arrays[a].base;
  }

  void add(const WarpRequest& r, std::span<const std::uint64_t> addresses, std::span<const std::uint32_t> lanes) {
    if (r.space() != Space::Shared || r.op != Op::Load) return;
    if (r.epoch != epoch_) end_epoch(), epoch_ = r.epoch;
    Family& f = families_[static_cast<int>(r.array)];
    if (!is_scalar_shared_load(r)) return sink_(r, addresses, lanes);
    if (!f.open) open(f, r, addresses, lanes);
    std::int64_t d = 0;
    const auto taken = [&] {
      return std::any_of(f.offsets.begin(), f.offsets.end(), [&](const auto& o) { return o.first == d; });
    };
    if (f.align == 1 || f.offsets.size() >= kFamilyLoads || !uniform_offset(f, addresses, lanes, d) || taken())
      return sink_(r, addresses, lanes);
    f.offsets.emplace_back(static_cast<std::int32_t>(d), r.iter);
  }

  void end_epoch() {
    for (Family& f : families_)
      if (f.open) close(f);
  }

 private:
  static void open(Family& f, const WarpRequest& r, std::span<const std::uint64_t> addresses,
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
  void close(Family& f) {
    std::sort(f.offsets.begin(), f.offsets.end());
    // Alignment within the array: the compiler places each shared array at a 16-byte boundary.
    const std::int64_t base_word = static_cast<std::int64_t>((f.base[0] - array_base_[static_cast<int>(f.first.array)]) / 4);
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
      addresses_.resize(f.base.size());
      for (std::size_t l = 0; l < f.base.size(); ++l)
        addresses_[l] = static_cast<std::uint64_t>(static_cast<std::int64_t>(f.base[l]) + std::int64_t{d} * 4);
      sink_(r, addresses_, f.lanes);
      i += n;
    }
    f.open = false;
  }

  const CompiledLoadSink& sink_;
  std::uint16_t epoch_ = 0;
  Family families_[kArrayCount];
  std::uint64_t array_base_[kArrayCount] = {};
  std::vector<std::uint64_t> addresses_;
};

}  // namespace

void compiled_shared_loads(const WarpAligner& aligner, const CompiledLoadSink& sink) {
  Merger merger(aligner.trace().launch, sink);
  for (const WarpRequest& r : aligner.requests()) merger.add(r, aligner.addresses(r), aligner.lane_numbers(r));
  merger.end_epoch();
}

}  // namespace ts
