// cmd_stats.cpp — `tilescope stats FILE [--json] [--by-line [--source FILE]]`:
// what a trace holds, in total or per source line of the kernel.
#include <cstdio>
#include <fstream>
#include <memory>

#include "app/cli/commands.h"
#include "app/core/analysis/line_stats.h"
#include "app/core/replay.h"
#include "app/core/stats.h"
#include "app/core/trace_file.h"
#include "app/core/trace_index.h"
#include "kernels/catalog.h"
#include "kernels/kernel_sources.h"
#include "kernels/recorder.h"

namespace ts::cli {
namespace {

struct ByLineOptions {
  bool on = false;
  std::string source;  // the kernel's file; empty: the project's own header, for its kernels
};

// The kernel's source, one string per line: --source, else a traced kernel's file or SASS listing
// (TracerInfo), else the embedded header of a built-in kernel.
std::vector<std::string> kernel_source(const LaunchInfo& launch, const std::string& path, std::string& name) {
  std::string text;
  if (!path.empty()) {
    std::ifstream in(path);
    if (!in) throw TraceFileError(TraceFileError::Kind::CannotOpen, "cannot read the kernel source " + path);
    text.assign(std::istreambuf_iterator<char>(in), {});
    name = path;
  } else if (const auto& t = launch.tracer) {  // a traced kernel: its file where this machine has it, else its SASS
    if (!t->source_file.empty()) {
      std::ifstream in(t->source_file);
      if (in) text.assign(std::istreambuf_iterator<char>(in), {});
      name = t->source_file + (in ? "" : " (not on this machine: give --source)");
    } else if (!t->sass.empty()) {
      name = "the kernel's SASS (a line per instruction)";
      return t->sass;
    }
  } else if (const auto kind = find_kernel(launch.kernel)) {
    const std::string_view file = kernel_info(*kind).source_file;
    if (const embed::File* f = embed::find_file(embed::kernel_sources(), file)) text = f->text;
    name = "kernels/" + std::string(file);
  }
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    lines.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  return lines;
}

std::string per_request(const AccessTotals& t, bool ideal) {
  if (!t.requests) return "-";
  char buf[48];
  if (ideal)
    std::snprintf(buf, sizeof buf, "%.2f (%.2f)", t.per_request(), double(t.ideal_sectors) / double(t.requests));
  else std::snprintf(buf, sizeof buf, "%.2f", t.per_request());
  return buf;
}

int print_by_line(const Trace& trace, const ByLineOptions& opts, bool json) {
  std::string why;
  const std::vector<std::uint16_t> lines = source_lines(trace, why);
  if (lines.empty() && trace.events.size() != 0) return fail(why);
  std::string name;
  const std::vector<std::string> source = kernel_source(trace.launch, opts.source, name);
  const std::vector<LineStats> stats = analyze_lines(trace, lines);
  if (json) {
    const nlohmann::json j = {{"kernel", trace.launch.kernel}, {"source_file", name},
                              {"lines_from", trace.lines.empty() ? "emulator (the same launch)" : "trace"},
                              {"lines", line_stats_json(trace.launch, stats, source)}};
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  const LaunchInfo& L = trace.launch;
  std::printf("%s  %s  M=%d N=%d K=%d, per source line of %s%s\n", L.kernel.c_str(), tiling_label(L).c_str(), L.m,
              L.n, L.k,
              name.empty() ? "the kernel (source not known: give --source)" : name.c_str(),
              trace.lines.empty() && L.recorded_on_gpu() ? " (lines from the emulator's run of the same launch)" : "");
  std::printf("%5s %9s %15s %9s %13s %9s %9s %10s  %-12s %s\n", "line", "gl.req", "sect/req(ideal)", "sh.req",
              "wavefr/req", "conflicts", "gl.loads", "loads/elem", "memory", "source");
  for (const LineStats& s : stats) {
    AccessTotals g = s.memory.total(Space::Global, Op::Load), sh = s.memory.total(Space::Shared, Op::Load);
    g.add(s.memory.total(Space::Global, Op::Store));
    sh.add(s.memory.total(Space::Shared, Op::Store));
    const std::string text = s.line >= 1 && s.line <= source.size() ? source[s.line - 1] : "";
    char elem[32] = "-";
    if (s.global_load_events) std::snprintf(elem, sizeof elem, "%.2f", s.loads_per_element());
    const std::string memory = line_memory_names(L, s);
    std::printf("%5u %9llu %15s %9llu %13s %9llu %9llu %10s  %-12s %s\n", s.line,
                static_cast<unsigned long long>(g.requests), per_request(g, true).c_str(),
                static_cast<unsigned long long>(sh.requests), per_request(sh, false).c_str(),
                static_cast<unsigned long long>(sh.bank_conflicts),
                static_cast<unsigned long long>(s.global_load_events), elem, memory.c_str(),
                text.substr(text.find_first_not_of(' ') == std::string::npos ? 0 : text.find_first_not_of(' ')).c_str());
    for (const std::string& f : s.findings()) std::printf("%5s   ^ %s\n", "", f.c_str());
  }
  return 0;
}

}  // namespace

void print_stats_table(const LaunchInfo& L, std::uint64_t events, std::uint64_t threads, const TraceStats& stats) {
  const TraceCounts& s = stats.counts;
  std::printf("%s  %s  M=%d N=%d K=%d  grid %ux%u  block %ux%u\n", L.kernel.c_str(), tiling_label(L).c_str(), L.m,
              L.n, L.k, L.grid.x, L.grid.y, L.block.x, L.block.y);
  std::printf("recorded by %s (%s) on %s\n", L.recorder.c_str(), L.device_name.c_str(), L.date.c_str());
  std::printf("%llu events from %llu threads\n", static_cast<unsigned long long>(events),
              static_cast<unsigned long long>(threads));
  if (L.focused())
    std::printf("a focused trace: %zu of %llu blocks traced; the numbers below cover those blocks only\n",
                L.traced_blocks.size(), static_cast<unsigned long long>(L.grid.count()));
  std::printf("%-6s %14s %14s\n", "array", "loads", "stores");
  for (std::uint32_t a = 0; a < L.memory_count(); ++a)
    std::printf("%-6s %14llu %14llu\n", L.memory_name(a).c_str(), static_cast<unsigned long long>(s.by_array[a][0]),
                static_cast<unsigned long long>(s.by_array[a][1]));
  std::printf("padding stores (zeros for slots outside the matrices): %llu\n",
              static_cast<unsigned long long>(s.padding_stores));
  std::printf("global loads per element: A %u..%u, B %u..%u\n", s.a_loads_min, s.a_loads_max, s.b_loads_min,
              s.b_loads_max);
  for (Space space : {Space::Global, Space::Shared})
    for (Op op : {Op::Load, Op::Store}) {
      const AccessTotals a = stats.memory.total(space, op);
      std::printf("%s %ss: %llu warp requests, %llu %s (%.2f per request)", space_name(space), op_name(op),
                  static_cast<unsigned long long>(a.requests),
                  static_cast<unsigned long long>(space == Space::Global ? a.sectors : a.wavefronts),
                  space == Space::Global ? "sectors" : "wavefronts", a.per_request());
      if (space == Space::Shared) std::printf(", %llu bank conflicts", static_cast<unsigned long long>(a.bank_conflicts));
      std::printf("\n");
    }
  std::printf("bytes loaded from global memory: %llu (minimum, each input read once and C written once: %llu); "
              "%.3g FLOP per byte loaded\n",
              static_cast<unsigned long long>(stats.reuse.global_bytes_loaded),
              static_cast<unsigned long long>(stats.reuse.min_bytes), stats.reuse.arithmetic_intensity);
}

Command add_stats_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("stats", "Count a trace's events by space, op and array");
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto by_line = std::make_shared<ByLineOptions>();
  app->add_option("file", *file, "Trace file")->required();
  app->add_flag("--json", *json, "Print JSON");
  app->add_flag("--by-line", by_line->on,
                "Per source line of the kernel: requests, sectors per request against the ideal, wavefronts, bank "
                "conflicts, global loads per element, and what the line wastes");
  app->add_option("--source", by_line->source, "With --by-line: the kernel's source file (default: tilescope's own "
                                               "header for its kernels)");
  return {app, [file, json, by_line]() -> int {
            try {
              const Trace trace = load_trace(*file);
              if (by_line->on) return print_by_line(trace, *by_line, *json);
              const TraceIndex index(trace);
              const TraceStats stats = compute_stats(trace, index);
              if (*json) std::printf("%s\n", stats_to_json(trace, stats).dump(2).c_str());
              else print_stats_table(trace.launch, trace.events.size(), trace.thread_count(), stats);
            } catch (const TraceFileError& e) {
              return fail(e.what());
            } catch (const std::bad_alloc&) {
              return fail("out of memory while loading " + *file);
            }
            return 0;
          }};
}

}  // namespace ts::cli
