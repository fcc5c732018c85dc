// memory_counts.cpp — adding up and reading the memory counters.
#include "trace/model/memory_counts.h"

namespace ts {

std::uint32_t AccessTotals::max_per_request() const {
  for (std::size_t i = histogram.size(); i-- > 0;)
    if (histogram[i] != 0) return static_cast<std::uint32_t>(i);
  return 0;
}

double AccessTotals::per_request() const {
  if (requests == 0) return 0.0;
  return static_cast<double>(sectors + wavefronts) / static_cast<double>(requests);  // one of them is zero
}

void AccessTotals::add(const AccessTotals& o) {
  requests += o.requests;
  accesses += o.accesses;
  sectors += o.sectors;
  lines += o.lines;
  ideal_sectors += o.ideal_sectors;
  wavefronts += o.wavefronts;
  bank_conflicts += o.bank_conflicts;
  broadcast_lanes += o.broadcast_lanes;
  for (std::size_t i = 0; i < histogram.size(); ++i) histogram[i] += o.histogram[i];
}

AccessTotals MemoryStats::total(Space space, Op op) const {
  AccessTotals t;
  for (std::size_t a = 0; a < by_array.size(); ++a)
    if ((shared[a] != 0) == (space == Space::Shared)) t.add(by_array[a][static_cast<int>(op)]);
  return t;
}

AccessTotals MemoryStats::compiled_shared_load_totals() const {
  AccessTotals t;
  for (const AccessTotals& c : compiled_loads) t.add(c);  // shared regions only
  return t;
}

void MemoryStats::add(const MemoryStats& o) {
  for (std::size_t a = 0; a < o.by_array.size(); ++a) {
    std::array<AccessTotals, 2>& mine = by_array[a];
    for (int op = 0; op < 2; ++op) mine[op].add(o.by_array[a][op]);
    if (o.shared[a]) shared[a] = 1;
  }
  for (std::size_t a = 0; a < o.compiled_loads.size(); ++a) compiled_loads[a].add(o.compiled_loads[a]);
  alignment.add(o.alignment);
}

}  // namespace ts
