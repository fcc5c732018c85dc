// tf32_rule_fit.cpp — how well tf32-wgmma-ws's plan rule
// (tf32_wgmma_ws_plan.h) picks on a GPU, from tf32_ws_tune's tables, and
// constants that would pick better. Plain C++: runs on the build machine,
// with the rule's own code (not a copy of its model).
//
//   tf32_rule_fit LOG... [--clusters N] [--fit] [--set NAME=VALUE]... [--quiet]
//   tf32_rule_fit [--set NAME=VALUE]... --constants: the constants, as --set takes them
//
// LOG: tf32_ws_tune's output (its closing table: every plan timed against
// cuBLAS TF32 at each shape, or where the run stopped before it, each plan's
// line as it was timed; several logs are merged, a later one's cell
// winning). For each shape the rule picks a plan with the compiled variants'
// costs and the model's constants (or those --set gives: a variant's name for
// its k_tile_cost, 0 to leave it out, NAME:alone for k_tile_cost_alone, or
// piece, partial, stream_k_step, split_launch, split_bytes, tail_step,
// pair_m_three), given N resident clusters of each tile (66: an H100 or
// H200's 132 SMs in pairs; twice that for the tiles of two CTAs an SM). It
// prints the pick's measured share of cuBLAS TF32 against the best timed
// plan's, and the totals: the loss (the sum over shapes of best / picked -
// 1), and the shapes with every side from 128 and 2^30 multiply-adds where
// the pick or the best plan is under 90%. Shapes where the pick was not
// timed are listed and left out.
// --fit then searches the constants (each scaled up and down in turn while
// the loss falls) and prints the values it found, to be written into the
// variants table and the model by hand, and measured again.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <regex>
#include <span>
#include <string>
#include <vector>

#include "kernels/ladder/rule_fit.h"
#include "kernels/ladder/tf32_wgmma_ws_plan.h"

namespace {

using namespace ts::ladder;
using rule_fit::Score;
using rule_fit::Shape;
using rule_fit::Table;

bool read_log(const std::string& path, Table& table) {
  std::ifstream in;
  if (!rule_fit::open_log(in, path, "tf32_rule_fit")) return false;
  std::string line;
  bool in_table = false;
  std::vector<Shape> shapes;
  const std::regex cell(R"(([0-9]+\.[0-9]+) \(\s*([0-9]+\.[0-9]+)(?:\|\s*([0-9]+\.[0-9]+))?\)|not run|failed|WRONG|refused)");
  int rows = 0;
  // A plan's own line as it was timed ("NAME  MxNxK  ms  TFLOP/s  %  err  paired: a / b ms, P%"): the same
  // figure as the closing table's, so a run stopped before its table still counts.
  const std::regex timed(R"(^(.*\S)\s+([0-9]+)x([0-9]+)x([0-9]+)\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+\S+\s+paired: [0-9.]+ / [0-9.]+ ms, ([0-9.]+)%)");
  int timed_rows = 0;
  while (std::getline(in, line)) {
    std::smatch t;
    if (!in_table && std::regex_search(line, t, timed)) {
      table[{std::stoi(t[2]), std::stoi(t[3]), std::stoi(t[4])}][t[1].str()] = std::stod(t[5].str());
      ++timed_rows;
      continue;
    }
    if (line.rfind("TFLOP/s", 0) == 0) {
      in_table = true;
      shapes.clear();
      continue;
    }
    if (!in_table) continue;
    if (shapes.empty()) {  // the header: "kernel" and the shapes
      std::size_t pos = line.find("kernel");
      if (pos == std::string::npos) return false;
      const std::regex shape_re(R"(([0-9]+)x([0-9]+)x([0-9]+))");
      for (auto it = std::sregex_iterator(line.begin() + long(pos), line.end(), shape_re); it != std::sregex_iterator(); ++it)
        shapes.push_back({std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[3])});
      if (shapes.empty()) return false;
      continue;
    }
    if (line.empty() || line.rfind("failed:", 0) == 0 || line.rfind("not run:", 0) == 0) {
      if (line.empty() && rows > 0) in_table = false;
      continue;
    }
    std::smatch first;
    if (!std::regex_search(line, first, cell)) continue;
    std::string name = line.substr(0, std::size_t(first.position(0)));
    while (!name.empty() && (name.back() == ' ' || name.back() == '*')) name.pop_back();
    std::size_t i = 0;
    for (auto it = std::sregex_iterator(line.begin() + first.position(0), line.end(), cell);
         it != std::sregex_iterator() && i < shapes.size(); ++it, ++i) {
      const std::smatch& m = *it;
      if (!m[1].matched) continue;  // not timed
      table[shapes[i]][name] = std::stod(m[3].matched ? m[3].str() : m[2].str());
    }
    ++rows;
  }
  if (rows == 0 && timed_rows == 0)
    std::fprintf(stderr, "tf32_rule_fit: no table in %s (tf32_ws_tune's closing table or its timed plans)\n",
                 path.c_str());
  return rows > 0 || timed_rows > 0;
}

struct Constants {
  std::vector<Tf32WsVariant> variants;
  Tf32WsModel model;
};

// The constants --set and --fit change, as pointers into `c`.
rule_fit::Knobs knobs(Constants& c) {
  rule_fit::Knobs all;
  for (Tf32WsVariant& v : c.variants) {
    if (v.k_tile_cost <= 0) continue;
    all.push_back({std::string(v.name), &v.k_tile_cost});
    if (v.k_tile_cost_alone > 0) all.push_back({std::string(v.name) + ":alone", &v.k_tile_cost_alone});
  }
  all.push_back({"piece", &c.model.piece});
  all.push_back({"partial", &c.model.partial});
  all.push_back({"stream_k_step", &c.model.stream_k_step});
  all.push_back({"split_launch", &c.model.split_launch});
  all.push_back({"split_bytes", &c.model.split_bytes});
  all.push_back({"tail_step", &c.model.tail_step});
  all.push_back({"pair_m_three", &c.model.pair_m_three});
  return all;
}

Score score(const Table& table, const Constants& c, int clusters, bool print) {
  const std::span<const Tf32WsVariant> variants(c.variants);
  const auto resident = [&](int i) { return clusters * variants[std::size_t(i)].ctas_per_sm; };
  return rule_fit::score_rule(
      table,
      [&](const Shape& s) {
        return tf32_ws_plan_name(tf32_ws_plan(s.m, s.n, s.k, variants, resident, c.model), variants);
      },
      [](const std::string& name) { return name != "cublas-tf32" && name.rfind("tf32-wgmma", 0) != 0; }, 90, print);
}

void print_score(const char* what, const Score& s) { rule_fit::print_score(what, s, 90, "cuBLAS TF32"); }

}  // namespace

int main(int argc, char** argv) {
  rule_fit::Args args;
  args.count = 66;
  if (!rule_fit::parse_args(argc, argv, "tf32_rule_fit", "--clusters", args)) return 2;
  const int clusters = args.count;
  Table table;
  for (const std::string& log : args.logs)
    if (!read_log(log, table)) return 1;

  Constants c{std::vector<Tf32WsVariant>(std::begin(kTf32WsVariants), std::end(kTf32WsVariants)), {}};
  auto all = knobs(c);
  if (!rule_fit::apply_sets(args.sets, all, "tf32_rule_fit", " (a tile's 0: not weighed)")) return 2;
  if (args.constants) {
    rule_fit::print_knobs(all);
    return 0;
  }
  std::printf("%zu shapes from %zu log(s); %d resident clusters of each tile (twice that of two CTAs an SM)\n",
              table.size(), args.logs.size(), clusters);
  print_score("the rule", score(table, c, clusters, !args.quiet));
  if (args.fit) rule_fit::fit_and_print(all, [&] { return score(table, c, clusters, false); }, print_score);
  return 0;
}
