// memory_vs_ncu.cpp — the table of the trace's memory counters next to Nsight
// Compute's for the same launches (see scripts/gpu-checks.d/60-memory-vs-ncu.sh).
//
//   memory_vs_ncu --print-metrics                      the ncu metrics to collect
//   memory_vs_ncu --manifest launches.json --ncu ncu.csv [--sass sass.txt]
//                 [--device gpu|cpu|auto] [--check-emulator-up-to N]
//                 -o table.json [--markdown table.md]
//   memory_vs_ncu ... --counters   (the whole-launch counters of `tilescope counters`
//                 instead of a trace: any N; scripts/gpu-checks.d/70-counters-vs-ncu.sh)
//   memory_vs_ncu --render table.json --markdown table.md   (no GPU: rewrite the
//                 Markdown of a recorded table, e.g. after the reasons changed)
//
// For each launch ncu_launches made (and ncu profiled, in the same order), it
// records the instrumented kernel (or the emulator) at the same kernel, TILE
// and size, counts requests, sectors, wavefronts and bank conflicts from the
// trace, and writes both sets of numbers with a verdict and a reason per pair.
// The ladder's rungs come with TILE 0 (fixed tiles); the table says so with
// "-", and app/core/analysis/ncu_table.cpp explains what their 128-bit and
// cp.async (LDGSTS) accesses make ncu count differently. A summary line per
// counter says how many pairs agree, and how many differ with no explanation.
// --check-emulator-up-to N also records launches up to size N on the CPU
// emulator and fails unless its counters equal the GPU trace's.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/core/analysis/memory_stats.h"
#include "app/core/analysis/ncu_import.h"
#include "app/core/analysis/ncu_table.h"
#include "app/core/safe_file.h"
#include "kernels/catalog.h"
#include "app/counters/counter.h"
#include "kernels/recorder.h"

namespace {

int fail(const std::string& what) {
  std::fprintf(stderr, "memory_vs_ncu: %s\n", what.c_str());
  return 1;
}

ts::Dim3 dim3_from(const nlohmann::json& j) {
  return {j.at(0).get<std::uint32_t>(), j.at(1).get<std::uint32_t>(), j.at(2).get<std::uint32_t>()};
}

std::string dim3_text(const ts::Dim3& d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

// A summary: how many pairs agree, per counter, and how many differ with no rule to say why;
// for shared wavefronts and conflicts also how many agree with ncu's per-instruction count.
void print_summary(const ts::NcuTable& table) {
  for (const ts::CounterPair& pair : ts::compared_counters()) {
    int counts[4] = {}, per_instruction[4] = {}, unexplained = 0;
    for (const ts::NcuRow& r : table.rows)
      for (const ts::CounterComparison& c : ts::compare_row(r))
        if (c.pair->trace_key == pair.trace_key) {
          ++counts[static_cast<int>(c.agreement)];
          ++per_instruction[static_cast<int>(c.per_instruction_agreement)];
          unexplained += !c.explained;
        }
    std::printf("%-28s equal %3d  close %3d  differs %3d  missing %3d  unexplained %3d",
                std::string(pair.label).c_str(), counts[0], counts[1], counts[2], counts[3], unexplained);
    if (per_instruction[3] < static_cast<int>(table.rows.size()))
      std::printf("  per instruction: equal %3d  close %3d  differs %3d  missing %3d", per_instruction[0],
                  per_instruction[1], per_instruction[2], per_instruction[3]);
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The trace's memory counters next to Nsight Compute's"};
  bool print_metrics = false;
  std::string manifest_path, ncu_path, sass_path, out_path, markdown_path, device = "auto", ncu_version, commit;
  int check_emulator_up_to = 0;
  bool counted = false;
  app.add_flag("--counters", counted, "Count each launch (app/counters/counter.h) instead of recording a trace");
  std::string counters_from, profiled_at;
  app.add_option("--profiled-at", profiled_at, "When ncu profiled the launches (UTC, ISO 8601); default: now");
  app.add_option("--counters-from", counters_from,
                 "Take each launch's counters from DIR/counters_<kernel>_<tile>.json (a rung's: DIR/counters_<kernel>.json; "
                 "`tilescope counters --json`, counted earlier on the GPU that ncu profiled) instead of counting them here");
  app.add_flag("--print-metrics", print_metrics, "Print the comma-separated ncu metrics and exit");
  app.add_option("--manifest", manifest_path, "launches.json from ncu_launches");
  app.add_option("--ncu", ncu_path, "ncu --csv --print-units base output for those launches");
  app.add_option("--sass", sass_path, "cuobjdump -sass output of ncu_launches (optional)");
  app.add_option("--device", device, "What records the traces")->check(CLI::IsMember({"gpu", "cpu", "auto"}));
  app.add_option("--check-emulator-up-to", check_emulator_up_to,
                 "Also record launches up to this size on the emulator; their counters must be equal");
  app.add_option("--ncu-version", ncu_version, "For the table's header");
  app.add_option("--commit", commit, "The commit that was profiled, for the table's header");
  app.add_option("-o,--output", out_path, "The table, as JSON");
  app.add_option("--markdown", markdown_path, "The table, as Markdown");
  std::string render_path;
  app.add_option("--render", render_path, "Only write --markdown for this recorded table (JSON)");
  CLI11_PARSE(app, argc, argv);

  if (!render_path.empty()) {
    if (markdown_path.empty()) return fail("--render needs --markdown");
    try {
      const ts::NcuTable table = ts::load_ncu_table(render_path);
      const std::string error = ts::try_write_file_atomically(markdown_path, ts::ncu_table_markdown(table));
      if (!error.empty()) return fail(error);
      print_summary(table);
    } catch (const ts::NcuTableError& e) {
      return fail(e.what());
    }
    return 0;
  }

  if (print_metrics) {
    std::string list;
    for (const std::string& m : ts::ncu_metrics()) list += (list.empty() ? "" : ",") + m;
    std::printf("%s\n", list.c_str());
    return 0;
  }
  if (manifest_path.empty() || ncu_path.empty() || out_path.empty())
    return fail("--manifest, --ncu and -o are needed (see --help)");

  nlohmann::json manifest;
  std::vector<ts::NcuLaunch> profiled;
  std::vector<ts::SassCounts> sass;
  try {
    std::ifstream m(manifest_path);
    if (!m) return fail("cannot open " + manifest_path);
    manifest = nlohmann::json::parse(m);
    std::ifstream csv(ncu_path);
    if (!csv) return fail("cannot open " + ncu_path);
    profiled = ts::parse_ncu_csv(csv);
    if (!sass_path.empty()) {
      std::ifstream s(sass_path);
      if (!s) return fail("cannot open " + sass_path);
      sass = ts::parse_sass(s);
    }
  } catch (const nlohmann::json::exception& e) {
    return fail(manifest_path + ": " + e.what());
  } catch (const ts::NcuImportError& e) {
    return fail(ncu_path + ": " + e.what());
  }

  ts::NcuTable table;
  table.date = profiled_at.empty() ? ts::utc_now_iso8601() : profiled_at;
  table.ncu_version = ncu_version;
  table.commit = commit;
  try {
    table.gpu = manifest.at("device").get<std::string>();
    const nlohmann::json& launches = manifest.at("launches");
    if (launches.size() != profiled.size())
      return fail("the manifest lists " + std::to_string(launches.size()) + " launches, ncu profiled " +
                  std::to_string(profiled.size()));
    for (std::size_t i = 0; i < launches.size(); ++i) {
      const nlohmann::json& l = launches[i];
      const std::string name = l.at("kernel").get<std::string>();
      const auto kind = ts::find_kernel(name);
      if (!kind) return fail("unknown kernel \"" + name + "\" in the manifest");
      ts::RecordParams p;
      p.kernel = *kind;
      p.tile = l.at("tile").get<int>();  // 0 for a rung: its tiles are fixed
      p.m = p.n = p.k = l.at("n").get<int>();
      const bool rung = !ts::takes_tile(*kind);
      const std::string what = rung ? name : name + " TILE " + std::to_string(p.tile);
      p.device = device == "gpu" ? ts::DeviceChoice::Gpu : device == "cpu" ? ts::DeviceChoice::Cpu : ts::DeviceChoice::Auto;
      // ncu's launch i must be the manifest's launch i: the shapes say so.
      const ts::Dim3 grid = dim3_from(l.at("grid")), block = dim3_from(l.at("block"));
      if (profiled[i].grid != grid || profiled[i].block != block)
        return fail("ncu's launch " + std::to_string(i) + " has grid " + dim3_text(profiled[i].grid) + " block " +
                    dim3_text(profiled[i].block) + ", the manifest's " + name + " " + dim3_text(grid) + " " +
                    dim3_text(block));
      // The launch's counters, from a trace or counted; and the emulator's for the same inputs.
      auto measure = [counted](const ts::RecordParams& params, ts::LaunchInfo& launch) {
        if (counted) {
          const ts::LaunchCounters c = ts::count_launch(params);
          launch = c.launch;
          return ts::memory_counters_json(c.stats.memory);
        }
        const ts::Trace trace = ts::record(params);
        launch = trace.launch;
        return ts::memory_counters_json(ts::analyze_memory(trace));
      };
      ts::LaunchInfo launch;
      nlohmann::json counters;
      if (!counters_from.empty()) {
        const std::string path =
            counters_from + "/counters_" + name + (rung ? "" : "_" + std::to_string(p.tile)) + ".json";
        std::ifstream f(path);
        if (!f) return fail("cannot open " + path);
        const nlohmann::json j = nlohmann::json::parse(f);
        const nlohmann::json& L = j.at("launch");
        // A rung's launch carries its k-step as TILE: only a textbook kernel's TILE must match.
        if (L.at("kernel") != name || (!rung && L.at("tile") != p.tile) || L.at("m") != p.m || L.at("n") != p.n ||
            L.at("k") != p.k)
          return fail(path + " counts another launch than the manifest's " + what);
        for (const ts::CounterPair& pair : ts::compared_counters())
          counters[std::string(pair.trace_key)] = j.at(std::string(pair.trace_key));
        launch.device_name = L.at("device_name").get<std::string>();
        counted = true;
      } else {
        counters = measure(p, launch);
      }
      table.trace_device = launch.device_name + (counted ? " (counted, not traced)" : "");
      ts::NcuRow row;
      row.kernel = name;
      row.tile = p.tile;
      row.n = p.n;
      // Block tiles past the matrices' edges: guarded stores and zero-filled slots there.
      const ts::Tiling tiling = ts::kernel_tiling(*kind, p.tile);
      const auto cut = [](int size, std::uint32_t step) { return step != 0 && size % static_cast<int>(step) != 0; };
      row.edges = cut(p.m, tiling.block_m) || cut(p.n, tiling.block_n) || cut(p.k, tiling.block_k);
      for (const auto& [key, value] : counters.items()) row.trace[key] = value.get<double>();
      if (p.n <= check_emulator_up_to && launch.recorded_on_gpu()) {
        ts::RecordParams cpu = p;
        cpu.device = ts::DeviceChoice::Cpu;
        cpu.seed = launch.seed;
        ts::LaunchInfo emulated_launch;
        const nlohmann::json emulated = measure(cpu, emulated_launch);
        if (emulated != counters)
          return fail(what + " N " + std::to_string(p.n) + ": the emulator's counters differ from the GPU trace's: " + emulated.dump() + " vs " +
                      counters.dump());
      }
      row.hardware = profiled[i].metrics;
      if (const auto s = ts::find_sass(sass, static_cast<int>(*kind), p.tile)) row.sass = s->opcodes;
      table.rows.push_back(std::move(row));
      std::fprintf(stderr, "\r%zu / %zu", i + 1, launches.size());
    }
    std::fprintf(stderr, "\n");
  } catch (const nlohmann::json::exception& e) {
    return fail(manifest_path + ": " + e.what());
  } catch (const ts::RecordError& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail("out of memory while recording");
  }

  if (std::string error = ts::try_write_file_atomically(out_path, ts::ncu_table_to_json(table).dump(1) + "\n");
      !error.empty())
    return fail(error);
  if (!markdown_path.empty())
    if (std::string error = ts::try_write_file_atomically(markdown_path, ts::ncu_table_markdown(table)); !error.empty())
      return fail(error);
  print_summary(table);
  return 0;
}
