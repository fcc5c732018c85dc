// rule_fit.h — what the two plan rules' fitting tools share (tf32_rule_fit,
// fp32_rule_fit): a table of measured plans per shape, the score of a rule
// against it, the constants a run may set by name, and the search that
// scales them while the score falls. Plain C++, no GPU.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ts::ladder::rule_fit {

struct Shape {
  int m = 0, n = 0, k = 0;
  bool operator<(const Shape& o) const { return std::tie(m, n, k) < std::tie(o.m, o.n, o.k); }
};

// shape -> plan name -> % of cuBLAS (the alternating rounds' ratio where the log has it)
using Table = std::map<Shape, std::map<std::string, double>>;

// Opens a tuning log; false, with a message naming the tool, where it cannot.
inline bool open_log(std::ifstream& in, const std::string& path, const char* tool) {
  in.open(path);
  if (!in) std::fprintf(stderr, "%s: cannot open %s\n", tool, path.c_str());
  return bool(in);
}

// The shapes the targets are over: every side from 128, at least 2^30 multiply-adds.
inline bool counted_shape(const Shape& s) {
  return std::min({s.m, s.n, s.k}) >= 128 && double(s.m) * s.n * s.k >= double(1 << 30);
}

struct Score {
  double loss = 0;  // the sum over shapes of best / picked - 1
  int shapes = 0, untimed = 0, pick_under = 0, best_under = 0, counted = 0;
};

// Scores a rule: pick(shape) names the plan it runs; `timed` tells a plan's
// row from cuBLAS's and the like; `target` is the % of cuBLAS a pick must
// reach. With `print`, a line a shape (flagged where the pick is 5% or more
// behind the best timed plan).
template <class Pick, class IsPlan>
Score score_rule(const Table& table, Pick&& pick, IsPlan&& is_plan, double target, bool print) {
  Score sc;
  for (const auto& [s, row] : table) {
    double best = 0;
    std::string best_name;
    for (const auto& [name, pct] : row)
      if (is_plan(name) && pct > best) best = pct, best_name = name;
    if (best_name.empty()) continue;
    const std::string picked = pick(s);
    const auto it = row.find(picked);
    ++sc.shapes;
    if (it == row.end()) {
      ++sc.untimed;
      if (print) std::printf("%5dx%dx%d  the rule picks %s, which was not timed\n", s.m, s.n, s.k, picked.c_str());
      continue;
    }
    sc.loss += best / it->second - 1;
    if (counted_shape(s)) {
      ++sc.counted;
      sc.pick_under += it->second < target;
      sc.best_under += best < target;
    }
    if (print)
      std::printf("%5dx%dx%d  pick %-30s %6.1f%%   best %-30s %6.1f%%%s\n", s.m, s.n, s.k, picked.c_str(), it->second,
                  best_name.c_str(), best, it->second < 0.95 * best ? "   <- 5% or more behind" : "");
  }
  return sc;
}

inline void print_score(const char* what, const Score& s, double target, const char* reference) {
  std::printf("%s: loss %.3f over %d shapes (%d picks not timed, left out); of the %d shapes with every side from 128 "
              "and 2^30 multiply-adds, the pick is under %g%% of %s at %d, the best timed plan at %d\n",
              what, s.loss, s.shapes - s.untimed, s.untimed, s.counted, target, reference, s.pick_under, s.best_under);
}

// The constants a run may set and the search may scale, by name.
using Knobs = std::vector<std::pair<std::string, double*>>;

// Applies each NAME=VALUE (VALUE >= 0); false, with the names there are, for any other.
inline bool apply_sets(const std::vector<std::string>& sets, Knobs& knobs, const char* tool, const char* zero_means) {
  for (const std::string& s : sets) {
    const std::size_t eq = s.rfind('=');
    bool found = false;
    if (eq != std::string::npos) {
      char* end = nullptr;
      const double v = std::strtod(s.c_str() + eq + 1, &end);
      if (end != s.c_str() + eq + 1 && *end == '\0' && v >= 0 && std::isfinite(v))
        for (auto& [name, value] : knobs)
          if (name == s.substr(0, eq)) *value = v, found = true;
    }
    if (!found) {
      std::fprintf(stderr, "%s: --set takes NAME=VALUE, VALUE >= 0%s, NAME one of:", tool, zero_means);
      for (const auto& [name, value] : knobs) std::fprintf(stderr, " '%s'", name.c_str());
      std::fprintf(stderr, " (not '%s')\n", s.c_str());
      return false;
    }
  }
  return true;
}

// Scales each knob in turn by a few factors, keeping a change where the loss
// falls and no more picks go untimed, until a pass changes nothing (at most
// 20 passes). score() scores the knobs' current values.
template <class ScoreFn>
void fit_knobs(Knobs& knobs, ScoreFn&& score) {
  const Score start = score();
  double loss = start.loss;
  for (int pass = 0; pass < 20; ++pass) {
    bool better = false;
    for (auto& [name, value] : knobs)
      for (const double f : {0.8, 0.9, 0.95, 1.05, 1.1, 1.25}) {
        const double old = *value;
        *value = old * f;
        const Score s = score();
        if (s.untimed <= start.untimed && s.loss < loss - 1e-9) {
          loss = s.loss;
          better = true;
        } else {
          *value = old;
        }
      }
    if (!better) break;
  }
}

// The command line both tools take: LOG... [COUNT_FLAG N] [--fit] [--set NAME=VALUE]... [--quiet].
struct Args {
  std::vector<std::string> logs, sets;
  int count = 0;  // the tool's one number (tf32_rule_fit's clusters, fp32_rule_fit's SMs)
  bool fit = false, quiet = false;
  bool constants = false;  // print the constants (after --set) as NAME=VALUE and stop: no log needed
};

// Parses into `a` (a.count holds the default); false, with the usage, on anything else.
inline bool parse_args(int argc, char** argv, const char* tool, const char* count_flag, Args& a) {
  const auto usage = [&] {
    std::fprintf(stderr, "usage: %s LOG... [%s N] [--fit] [--set NAME=VALUE]... [--quiet] | [--set ...] --constants\n",
                 tool, count_flag);
  };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--fit") a.fit = true;
    else if (arg == "--quiet") a.quiet = true;
    else if (arg == "--constants") a.constants = true;
    else if (arg == count_flag && i + 1 < argc) a.count = std::atoi(argv[++i]);
    else if (arg == "--set" && i + 1 < argc) a.sets.push_back(argv[++i]);
    else if (!arg.empty() && arg[0] != '-') a.logs.push_back(arg);
    else {
      usage();
      std::fprintf(stderr, "(not '%s')\n", arg.c_str());
      return false;
    }
  }
  if ((a.logs.empty() && !a.constants) || a.count < 1) {
    usage();
    return false;
  }
  return true;
}

// --constants: every knob as NAME=VALUE, one a line (what --set takes back).
inline void print_knobs(const Knobs& knobs) {
  for (const auto& [name, value] : knobs) std::printf("%s=%.9g\n", name.c_str(), *value);
}

// With --fit: searches the knobs, prints the values found and the score with them.
template <class ScoreFn, class PrintFn>
void fit_and_print(Knobs& knobs, ScoreFn&& score, PrintFn&& print) {
  fit_knobs(knobs, score);
  std::printf("\nfitted constants (the rule's picks limited to plans that were timed):\n");
  for (const auto& [name, value] : knobs) std::printf("  %-32s %g\n", name.c_str(), *value);
  print("with them", score());
}

}  // namespace ts::ladder::rule_fit
