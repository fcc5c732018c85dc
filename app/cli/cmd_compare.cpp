// cmd_compare.cpp — `tilescope compare A.tstrace B.tstrace [--json] [--cell R,C] [--step S]`:
// two traces' memory counters side by side (naive vs tiled, transposed vs
// padded), over the whole launch or for the block and warp that computed one
// cell of C, in one step.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/core/analysis/trace_compare.h"
#include "app/core/display_text.h"
#include "app/core/replay.h"
#include "app/core/trace_file.h"

namespace ts::cli {
namespace {

// "tiled-padded  TILE=32  M=64 N=64 K=64 (CPU emulator)"; a rung says its tiling.
std::string side_title(const LaunchInfo& launch) {
  return escape_control(launch_title(launch) + " (" + launch.device_name + ")");
}

void print_section(const char* title, const nlohmann::json& a, const nlohmann::json& b, const nlohmann::json& ratio) {
  std::printf("\n%s\n", title);
  for (const auto& [key, va] : a.items()) {
    if (!va.is_number() || !b.contains(key)) continue;
    std::printf("  %-32s %16.6g %16.6g", key.c_str(), va.get<double>(), b[key].get<double>());
    if (ratio.contains(key)) std::printf("   x%.3g", ratio[key].get<double>());
    std::printf("\n");
  }
}

void print_table(const nlohmann::json& j, const LaunchInfo& a, const LaunchInfo& b) {
  std::printf("a: %s\nb: %s\n", side_title(a).c_str(), side_title(b).c_str());
  if (j.contains("step")) std::printf("step %u only\n", j["step"].get<unsigned>());
  std::printf("%-34s %16s %16s   b/a\n", "", "a", "b");
  print_section("whole launch", j["a"]["counters"], j["b"]["counters"], j["ratio"]["counters"]);
  if (j["a"].contains("block")) {
    print_section("the block that computed the cell", j["a"]["block"], j["b"]["block"], j["ratio"]["block"]);
    print_section("the warp that computed the cell", j["a"]["warp"], j["b"]["warp"], j["ratio"]["warp"]);
  }
}

}  // namespace

Command add_compare_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("compare", "Two traces' memory counters side by side");
  auto files = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  auto cell = std::make_shared<std::vector<std::uint32_t>>();
  auto step = std::make_shared<std::uint32_t>(kAllSteps);
  app->add_option("files", *files, "Two trace files")->required()->expected(2);
  app->add_flag("--json", *json, "Print JSON");
  app->add_option("--cell", *cell, "ROW,COL of C: also compare the block and warp that computed it")
      ->delimiter(',')
      ->expected(2);
  app->add_option("--step", *step, "Only this k-iteration (the last step is the store of C)");
  return {app, [files, json, cell, step]() -> int {
            try {
              const Trace a = load_trace((*files)[0]);
              const Trace b = load_trace((*files)[1]);
              // A step past a trace's last (its store of C) would compare zeros.
              for (int i = 0; i < 2 && *step != kAllSteps; ++i)
                if (const std::uint32_t last = (i ? b : a).launch.iteration_rule.iterations; *step > last)
                  return fail("--step " + std::to_string(*step) + ": " + escape_control((*files)[i]) +
                              " has steps 0.." + std::to_string(last) + " (the last is the store of C)");
              CompareOptions o;
              o.step = *step;
              if (!cell->empty()) o.cell = ElementCoord{(*cell)[0], (*cell)[1]};
              const nlohmann::json j = compare_traces_json(a, b, o);
              if (*json) std::printf("%s\n", j.dump(2).c_str());
              else print_table(j, a.launch, b.launch);
            } catch (const TraceFileError& e) {
              return fail(e.what());
            } catch (const std::invalid_argument& e) {
              return fail(e.what());
            } catch (const std::bad_alloc&) {
              return fail("out of memory while loading the traces");
            }
            return 0;
          }};
}

}  // namespace ts::cli
