// tf32_rule_fit.cpp — how well tf32-wgmma-ws's plan rule
// (tf32_wgmma_ws_plan.h) picks on a GPU, from tf32_ws_tune's tables, and
// constants that would pick better. Plain C++: runs on the build machine,
// with the rule's own code (not a copy of its model).
//
//   tf32_rule_fit LOG... [--clusters N] [--fit] [--set NAME=VALUE]... [--quiet]
//
// LOG: tf32_ws_tune's output (its closing table: every plan timed against
// cuBLAS TF32 at each shape, or where the run stopped before it, each plan's
// line as it was timed; several logs are merged, a later one's cell
// winning). For each shape the rule picks a plan with the compiled variants'
// costs and the model's constants (or those --set gives: a variant's name for
// its k_tile_cost, 0 to leave it out, NAME:alone for k_tile_cost_alone, or
// piece, partial, stream_k_step, split_launch, split_bytes), given N resident clusters of
// each tile (66: an H100 or H200's 132 SMs in pairs; twice that for the tiles
// of two CTAs an SM). It prints the pick's measured share of cuBLAS TF32
// against the best timed plan's, and the totals: the loss (the sum over
// shapes of best / picked - 1), and the shapes with every side from 128 and
// 2^30 multiply-adds where the pick or the best plan is under 90%. Shapes
// where the pick was not timed are listed and left out. --fit then searches
// the constants (each scaled up and down in turn while the loss falls) and
// prints the values it found, to be written into the variants table and the
// model by hand, and measured again.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/ladder/tf32_wgmma_ws_plan.h"

namespace {

using namespace ts::ladder;

struct Shape {
  int m = 0, n = 0, k = 0;
  bool operator<(const Shape& o) const { return std::tie(m, n, k) < std::tie(o.m, o.n, o.k); }
};

// shape -> plan name -> % of cuBLAS TF32 (the alternating rounds' ratio where the cell has it)
using Table = std::map<Shape, std::map<std::string, double>>;

bool read_log(const std::string& path, Table& table) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "tf32_rule_fit: cannot open %s\n", path.c_str());
    return false;
  }
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
std::vector<std::pair<std::string, double*>> knobs(Constants& c) {
  std::vector<std::pair<std::string, double*>> all;
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
  return all;
}

struct Score {
  double loss = 0;
  int shapes = 0, untimed = 0, pick_under = 0, best_under = 0, counted = 0;
};

bool counted_shape(const Shape& s) { return std::min({s.m, s.n, s.k}) >= 128 && double(s.m) * s.n * s.k >= double(1 << 30); }

Score score(const Table& table, const Constants& c, int clusters, bool print) {
  Score sc;
  const std::span<const Tf32WsVariant> variants(c.variants);
  const auto resident = [&](int i) { return clusters * variants[std::size_t(i)].ctas_per_sm; };
  for (const auto& [s, row] : table) {
    double best = 0;
    std::string best_name;
    for (const auto& [name, pct] : row)
      if (name != "cublas-tf32" && name.rfind("tf32-wgmma", 0) != 0 && pct > best) best = pct, best_name = name;
    if (best_name.empty()) continue;
    const std::string pick = tf32_ws_plan_name(tf32_ws_plan(s.m, s.n, s.k, variants, resident, c.model), variants);
    const auto it = row.find(pick);
    ++sc.shapes;
    if (it == row.end()) {
      ++sc.untimed;
      if (print) std::printf("%5dx%dx%d  the rule picks %s, which was not timed\n", s.m, s.n, s.k, pick.c_str());
      continue;
    }
    sc.loss += best / it->second - 1;
    if (counted_shape(s)) {
      ++sc.counted;
      sc.pick_under += it->second < 90;
      sc.best_under += best < 90;
    }
    if (print)
      std::printf("%5dx%dx%d  pick %-30s %6.1f%%   best %-30s %6.1f%%%s\n", s.m, s.n, s.k, pick.c_str(), it->second,
                  best_name.c_str(), best, it->second < 0.95 * best ? "   <- 5% or more behind" : "");
  }
  return sc;
}

void print_score(const char* what, const Score& s) {
  std::printf("%s: loss %.3f over %d shapes (%d picks not timed, left out); of the %d shapes with every side from 128 "
              "and 2^30 multiply-adds, the pick is under 90%% of cuBLAS TF32 at %d, the best timed plan at %d\n",
              what, s.loss, s.shapes - s.untimed, s.untimed, s.counted, s.pick_under, s.best_under);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> logs, sets;
  int clusters = 66;
  bool fit = false, quiet = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--fit") fit = true;
    else if (a == "--quiet") quiet = true;
    else if (a == "--clusters" && i + 1 < argc) clusters = std::atoi(argv[++i]);
    else if (a == "--set" && i + 1 < argc) sets.push_back(argv[++i]);
    else if (!a.empty() && a[0] != '-') logs.push_back(a);
    else {
      std::fprintf(stderr,
                   "usage: tf32_rule_fit LOG... [--clusters N] [--fit] [--set NAME=VALUE]... [--quiet]\n"
                   "(not '%s')\n",
                   a.c_str());
      return 2;
    }
  }
  if (logs.empty() || clusters < 1) {
    std::fprintf(stderr, "usage: tf32_rule_fit LOG... [--clusters N] [--fit] [--set NAME=VALUE]... [--quiet]\n");
    return 2;
  }
  Table table;
  for (const std::string& log : logs)
    if (!read_log(log, table)) return 1;

  Constants c{std::vector<Tf32WsVariant>(std::begin(kTf32WsVariants), std::end(kTf32WsVariants)), {}};
  auto all = knobs(c);
  for (const std::string& s : sets) {
    const std::size_t eq = s.rfind('=');
    bool found = false;
    if (eq != std::string::npos) {
      char* end = nullptr;
      const double v = std::strtod(s.c_str() + eq + 1, &end);
      if (end != s.c_str() + eq + 1 && *end == '\0' && v >= 0 && std::isfinite(v))
        for (auto& [name, value] : all)
          if (name == s.substr(0, eq)) *value = v, found = true;
    }
    if (!found) {
      std::fprintf(stderr, "tf32_rule_fit: --set takes NAME=VALUE, VALUE >= 0 (a tile's 0: not weighed), NAME one of:");
      for (const auto& [name, value] : all) std::fprintf(stderr, " '%s'", name.c_str());
      std::fprintf(stderr, " (not '%s')\n", s.c_str());
      return 2;
    }
  }
  std::printf("%zu shapes from %zu log(s); %d resident clusters of each tile (twice that of two CTAs an SM)\n",
              table.size(), logs.size(), clusters);
  const Score before = score(table, c, clusters, !quiet);
  print_score("the rule", before);
  if (!fit) return 0;

  double loss = before.loss;
  for (int pass = 0; pass < 20; ++pass) {
    bool better = false;
    for (auto& [name, value] : all)
      for (const double f : {0.8, 0.9, 0.95, 1.05, 1.1, 1.25}) {
        const double old = *value;
        *value = old * f;
        const Score s = score(table, c, clusters, false);
        if (s.untimed <= before.untimed && s.loss < loss - 1e-9) {
          loss = s.loss;
          better = true;
        } else {
          *value = old;
        }
      }
    if (!better) break;
  }
  std::printf("\nfitted constants (the rule's picks limited to plans that were timed):\n");
  for (const auto& [name, value] : all) std::printf("  %-32s %g\n", name.c_str(), *value);
  print_score("with them", score(table, c, clusters, false));
  return 0;
}
