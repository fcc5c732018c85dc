// trace_compare.cpp — the counters of two traces, side by side.
#include "app/core/analysis/trace_compare.h"

#include <stdexcept>
#include <string>

#include "app/core/analysis/reuse.h"
#include "trace/launch_json.h"

namespace ts {

std::optional<std::uint64_t> c_writer_thread(const Trace& t, std::uint32_t row, std::uint32_t col) {
  const std::uint32_t id = t.launch.role_id(BufferRole::C);
  const Buffer* c = t.launch.buffer_at(id);
  if (!c || row >= c->rows || col >= c->cols) return std::nullopt;
  const std::uint64_t index = c->index_of(row, col);
  for (std::uint64_t th = 0; th < t.thread_count(); ++th)
    for (const Event& e : t.thread_events(th))
      if (e.array == id && e.op() == Op::Store && e.index == index) return th;
  return std::nullopt;
}

ThreadScope thread_scope(const Trace& t, std::uint64_t thread, std::uint32_t step) {
  ThreadScope s;
  s.thread = thread;
  if (thread >= t.thread_count()) return s;
  const ThreadCoord c = t.thread_coord(thread);
  s.block = c.block_linear;
  s.warp = c.warp;
  s.block_stats = analyze_block(t, s.block, step);
  s.warp_stats = analyze_warp(t, s.block, s.warp, step);
  return s;
}

namespace {

// Why no thread of T wrote CELL: outside C, not among a focused trace's blocks, or not written at all.
std::string no_writer_message(const Trace& t, ElementCoord cell) {
  const std::string name = "C[" + std::to_string(cell.row) + "][" + std::to_string(cell.col) + "]";
  const Buffer* c = t.launch.buffer_with_role(BufferRole::C);
  if (!c || cell.row >= c->rows || cell.col >= c->cols)
    return name + " is outside C, which is " + std::to_string(c ? c->rows : 0) + " x " + std::to_string(c ? c->cols : 0);
  if (t.launch.focused())
    return "no traced block of this focused trace of " + t.launch.kernel + " wrote " + name + " (it holds " +
           std::to_string(t.launch.traced_blocks.size()) + " of " + std::to_string(t.launch.grid.count()) +
           " blocks): record the cell's block with --blocks, or pick a cell of a traced block";
  return "no thread of " + t.launch.kernel + " wrote " + name;
}

nlohmann::json side(const Trace& t, const CompareOptions& o) {
  nlohmann::json j = {{"launch", launch_to_json(t.launch)}};
  nlohmann::json counters = memory_counters_json(analyze_memory(t, 0, o.step));
  if (o.step == kAllSteps) {  // the reuse counters are over the whole launch only
    counters.update(reuse_counters_json(analyze_reuse(t)));
    counters.erase("shared_reads_per_staged_value");  // an object, not a counter
  }
  j["counters"] = counters;
  if (o.cell) {
    const auto thread = c_writer_thread(t, o.cell->row, o.cell->col);
    if (!thread) throw std::invalid_argument(no_writer_message(t, *o.cell));
    const ThreadScope scope = thread_scope(t, *thread, o.step);
    const ThreadCoord c = t.thread_coord(*thread);
    j["cell"] = {{"block", {c.block.x, c.block.y}}, {"thread", {c.thread.x, c.thread.y}}, {"warp", scope.warp}};
    j["block"] = memory_counters_json(scope.block_stats);
    j["warp"] = memory_counters_json(scope.warp_stats);
  }
  return j;
}

nlohmann::json ratios(const nlohmann::json& a, const nlohmann::json& b) {
  nlohmann::json r = nlohmann::json::object();
  for (const auto& [key, va] : a.items())
    if (va.is_number() && b.contains(key) && b[key].is_number() && va.get<double>() != 0)
      r[key] = b[key].get<double>() / va.get<double>();
  return r;
}

}  // namespace

nlohmann::json compare_traces_json(const Trace& a, const Trace& b, const CompareOptions& o) {
  nlohmann::json ja = side(a, o), jb = side(b, o);
  nlohmann::json ratio = {{"counters", ratios(ja["counters"], jb["counters"])}};
  if (o.cell) {
    ratio["block"] = ratios(ja["block"], jb["block"]);
    ratio["warp"] = ratios(ja["warp"], jb["warp"]);
  }
  nlohmann::json out = {{"a", ja}, {"b", jb}, {"ratio", ratio}};
  if (o.step != kAllSteps) out["step"] = o.step;
  return out;
}

}  // namespace ts
