// stats.cpp — count events by buffer or region, space and op.
#include "app/core/stats.h"

#include "trace/launch_json.h"

namespace ts {

TraceCounts count_events(const Trace& t, const TraceIndex& index) {
  TraceCounts s;
  std::uint64_t counts[kMaxMemoryIds][2] = {};
  for (const Event& e : t.events.span()) {
    ++counts[e.array][e.flags & kFlagStore ? 1 : 0];
    if (e.is_padding()) ++s.padding_stores;
  }
  for (std::uint32_t a = 0; a < t.launch.memory_count() && a < kMaxMemoryIds; ++a)
    for (int op = 0; op < 2; ++op) {
      s.by_array[a][op] = counts[a][op];
      s.by_space[static_cast<int>(t.launch.space_of_id(a))][op] += counts[a][op];
    }
  s.a_loads_min = index.min_loads(BufferRole::A);
  s.a_loads_max = index.max_loads(BufferRole::A);
  s.b_loads_min = index.min_loads(BufferRole::B);
  s.b_loads_max = index.max_loads(BufferRole::B);
  return s;
}

void count_block_events(const Trace& t, std::uint32_t block, TraceCounts& s) {
  const std::uint64_t threads = t.launch.threads_per_block(), first = std::uint64_t{block} * threads;
  const Event* ev = t.events.data();
  for (std::uint64_t q = t.thread_offsets[first], end = t.thread_offsets[first + threads]; q < end; ++q) {
    const int op = ev[q].flags & kFlagStore ? 1 : 0;
    ++s.by_array[ev[q].array][op];
    ++s.by_space[static_cast<int>(ev[q].space())][op];
    if (ev[q].is_padding()) ++s.padding_stores;
  }
}

void add_counts(TraceCounts& into, const TraceCounts& from) {
  for (std::size_t a = 0; a < from.by_array.size(); ++a)
    for (int op = 0; op < 2; ++op) into.by_array[a][op] += from.by_array[a][op];
  for (int sp = 0; sp < 2; ++sp)
    for (int op = 0; op < 2; ++op) into.by_space[sp][op] += from.by_space[sp][op];
  into.padding_stores += from.padding_stores;
}

TraceStats compute_stats(const Trace& t, const TraceIndex& index) {
  return {count_events(t, index), analyze_memory(t), analyze_reuse(t)};
}

nlohmann::json stats_to_json(const Trace& t, const TraceStats& stats) {
  return stats_to_json(t.launch, t.events.size(), t.thread_count(), stats);
}

nlohmann::json stats_to_json(const LaunchInfo& launch, std::uint64_t events, std::uint64_t threads,
                             const TraceStats& stats) {
  const TraceCounts& s = stats.counts;
  nlohmann::json by_space, by_array;
  for (int sp = 0; sp < 2; ++sp)
    by_space[space_name(static_cast<Space>(sp))] = {{"load", s.by_space[sp][0]}, {"store", s.by_space[sp][1]}};
  for (std::uint32_t a = 0; a < launch.memory_count(); ++a)
    by_array[launch.memory_name(a)] = {{"load", s.by_array[a][0]}, {"store", s.by_array[a][1]}};
  nlohmann::json j = {{"launch", launch_to_json(launch)},
          {"events", events},
          {"threads", threads},
          {"by_space", by_space},
          {"by_array", by_array},
          {"padding_stores", s.padding_stores},
          {"global_loads_per_element",
           {{"A", {{"min", s.a_loads_min}, {"max", s.a_loads_max}}},
            {"B", {{"min", s.b_loads_min}, {"max", s.b_loads_max}}}}}};
  j.update(memory_counters_json(stats.memory));
  j.update(reuse_counters_json(stats.reuse));
  j["memory"] = memory_details_json(launch, stats.memory);
  return j;
}

}  // namespace ts
