// stats.cpp — count events by array, space and op.
#include "app/core/stats.h"

#include "app/core/launch_json.h"

namespace ts {

TraceCounts count_events(const Trace& t, const TraceIndex& index) {
  TraceCounts s;
  for (const Event& e : t.events.span()) {
    const int op = e.flags & kFlagStore ? 1 : 0;
    ++s.by_array[e.array][op];
    if (e.flags & kFlagPadding) ++s.padding_stores;
  }
  for (int a = 0; a < kArrayCount; ++a)
    for (int op = 0; op < 2; ++op)
      s.by_space[static_cast<int>(space_of(static_cast<ArrayId>(a)))][op] += s.by_array[a][op];
  s.a_loads_min = index.min_loads(ArrayId::A);
  s.a_loads_max = index.max_loads(ArrayId::A);
  s.b_loads_min = index.min_loads(ArrayId::B);
  s.b_loads_max = index.max_loads(ArrayId::B);
  return s;
}

TraceStats compute_stats(const Trace& t, const TraceIndex& index) {
  return {count_events(t, index), analyze_memory(t), analyze_reuse(t)};
}

nlohmann::json stats_to_json(const Trace& t, const TraceStats& stats) {
  const TraceCounts& s = stats.counts;
  nlohmann::json by_space, by_array;
  for (int sp = 0; sp < 2; ++sp)
    by_space[space_name(static_cast<Space>(sp))] = {{"load", s.by_space[sp][0]}, {"store", s.by_space[sp][1]}};
  for (int a = 0; a < kArrayCount; ++a) {
    if (!t.launch.arrays[a].present) continue;
    by_array[array_name(static_cast<ArrayId>(a))] = {{"load", s.by_array[a][0]}, {"store", s.by_array[a][1]}};
  }
  nlohmann::json j = {{"launch", launch_to_json(t.launch)},
          {"events", t.events.size()},
          {"threads", t.thread_count()},
          {"by_space", by_space},
          {"by_array", by_array},
          {"padding_stores", s.padding_stores},
          {"global_loads_per_element",
           {{"A", {{"min", s.a_loads_min}, {"max", s.a_loads_max}}},
            {"B", {{"min", s.b_loads_min}, {"max", s.b_loads_max}}}}}};
  j.update(memory_counters_json(stats.memory));
  j.update(reuse_counters_json(stats.reuse));
  j["memory"] = memory_details_json(t, stats.memory);
  return j;
}

}  // namespace ts
