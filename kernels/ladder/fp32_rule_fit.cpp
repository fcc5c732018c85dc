// fp32_rule_fit.cpp — how well fp32-best's plan rule (fp32_best.cu) picks on
// a GPU, from fp32_tune's tables, and model constants that would pick better:
// tf32_rule_fit's counterpart. Runs the rule's own code (fp32_best_plan with
// an Fp32Model), on the build machine; no GPU.
//
//   fp32_rule_fit LOG... [--sms N] [--fit] [--set NAME=VALUE]... [--quiet]
//   fp32_rule_fit [--set NAME=VALUE]... --constants: the constants, as --set takes them
//
// LOG: fp32_tune's output (one line a plan timed at a shape; several logs
// are merged, a later one's line winning). Each plan's figure is its % of
// cuBLAS SGEMM in alternating rounds, the L2 overwritten before each run, as
// `tilescope bench` times it. For each shape the rule picks a plan for a
// Hopper GPU of N SMs (132: an H100 or H200) with the model's constants (or
// those --set gives: an Fp32Model field's name), and the tool prints the
// pick's figure against the best timed plan's (of the plans fp32-best runs
// now: lines of others are left out), and the totals: the loss (the
// sum over shapes of best / picked - 1), and the shapes with every side from
// 128 and 2^30 multiply-adds where the pick or the best plan is under 95%.
// Shapes where the pick was not timed are listed and left out (fp32_tune
// times splits 1-8, 12, 16, 24, 32, 48 and 64 unless --plan names others).
// --fit then searches the constants (each scaled up and down in turn while
// the loss falls) and prints the values it found, to be written into
// Fp32Model's defaults by hand, and measured again on shapes not fitted to.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "kernels/ladder/fp32_best.h"
#include "kernels/ladder/rule_fit.h"

namespace {

using namespace ts::ladder;
namespace rf = ts::ladder::rule_fit;

// A plan's line: "MxNxK  [*]NAME  ms  GFLOP/s  %cuBLAS  err  model   alone | paired ms, P | after ms".
bool read_log(const std::string& path, rf::Table& table) {
  std::ifstream in;
  if (!rf::open_log(in, path, "fp32_rule_fit")) return false;
  const std::regex timed(
      R"(^([0-9]+)x([0-9]+)x([0-9]+)\s+\*?(\S.*\S)\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+\S+\s+\S+\s+[0-9.]+ \| [0-9.]+,\s*([0-9.]+) \| [0-9.]+)");
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    std::smatch t;
    if (!std::regex_search(line, t, timed)) continue;
    table[{std::stoi(t[1]), std::stoi(t[2]), std::stoi(t[3])}][t[4].str()] = std::stod(t[5].str());
    ++rows;
  }
  if (rows == 0) std::fprintf(stderr, "fp32_rule_fit: no timed plan in %s (fp32_tune's lines)\n", path.c_str());
  return rows > 0;
}

rf::Knobs knobs(Fp32Model& m) {
  return {{"start_end", &m.start_end},
          {"start_end_k16_short", &m.start_end_k16_short},
          {"cold_code_k32", &m.cold_code_k32},
          {"cold_code_k16", &m.cold_code_k16},
          {"round1", &m.round1},
          {"round2", &m.round2},
          {"round3", &m.round3},
          {"start_end_three", &m.start_end_three},
          {"words_64", &m.words_64},
          {"words_32", &m.words_32},
          {"split_adds", &m.split_adds},
          {"split_adds_past_1m", &m.split_adds_past_1m},
          {"split_adds_k", &m.split_adds_k},
          {"rounds_256", &m.rounds_256},
          {"sk_piece", &m.sk_piece},
          {"sk_scale", &m.sk_scale},
          {"sk_whole", &m.sk_whole},
          {"two_round1", &m.two_round1},
          {"two_round2", &m.two_round2},
          {"start_end_two", &m.start_end_two},
          {"four_round1", &m.four_round1},
          {"four_round2", &m.four_round2},
          {"four_round3", &m.four_round3},
          {"four_round4", &m.four_round4},
          {"start_end_four", &m.start_end_four},
          {"sk_scale_two", &m.sk_scale_two},
          {"sk_scale_four", &m.sk_scale_four},
          {"five_round1", &m.five_round1},
          {"five_round2", &m.five_round2},
          {"five_round3", &m.five_round3},
          {"five_round4", &m.five_round4},
          {"five_round5", &m.five_round5},
          {"start_end_five", &m.start_end_five},
          {"sk_scale_five", &m.sk_scale_five}};
}

// The plans fp32-best can run: a log's lines for others (a tile since
// removed, an experiment's kernel) are neither picked nor the best.
bool is_plan(const std::string& name) {
  static const std::set<std::string> names = [] {
    std::set<std::string> all;
    for (const Fp32Plan& p : fp32_plans()) all.insert(fp32_plan_name(p));
    return all;
  }();
  return names.count(name) > 0;
}

rf::Score score(const rf::Table& table, const Fp32Model& model, const Fp32Gpu& gpu, bool print) {
  return rf::score_rule(
      table, [&](const rf::Shape& s) { return fp32_plan_name(fp32_best_plan(s.m, s.n, s.k, gpu, model)); }, is_plan,
      95, print);
}

void print_score(const char* what, const rf::Score& s) { rf::print_score(what, s, 95, "cuBLAS SGEMM"); }

}  // namespace

int main(int argc, char** argv) {
  rf::Args args;
  args.count = 132;
  if (!rf::parse_args(argc, argv, "fp32_rule_fit", "--sms", args)) return 2;
  rf::Table table;
  for (const std::string& log : args.logs)
    if (!read_log(log, table)) return 1;

  Fp32Model model;
  auto all = knobs(model);
  if (!rf::apply_sets(args.sets, all, "fp32_rule_fit", "")) return 2;
  if (args.constants) {
    rf::print_knobs(all);
    return 0;
  }
  const Fp32Gpu gpu = hopper_gpu(args.count);
  std::printf("%zu shapes from %zu log(s); a Hopper GPU of %d SMs\n", table.size(), args.logs.size(), args.count);
  print_score("the rule", score(table, model, gpu, !args.quiet));
  if (args.fit) rf::fit_and_print(all, [&] { return score(table, model, gpu, false); }, print_score);
  return 0;
}
