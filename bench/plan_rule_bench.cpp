// plan_rule_bench.cpp — what tf32-wgmma-ws's plan rule
// (kernels/ladder/tf32_wgmma_ws_plan.h) costs the host on every launch.
//
//   plan_rule_bench [--json FILE] [--shapes N] [--seed S] [--rounds R]
//
// The launch evaluates the rule for its shape (every ruled tile with
// data-parallel, stream-k and each split the rule weighs), given how many
// clusters of each tile are resident; the runtime caches those counts per
// kernel after the first launch, so what is left per launch is this
// arithmetic and one cached lookup per ruled tile. Here the counts are
// Hopper's (132 SMs: 66 pairs, 132 pairs of the tiles of two CTAs an SM)
// and the shapes are drawn as the benchmark's drawn-shape check draws them
// (sides 128 to 6500, one in three with a side under 512; not its multiples
// of 4 and 128, which the rule's arithmetic does not see). Prints the
// median time of one call over the rounds, and the slowest shape's.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <span>
#include <thread>
#include <vector>

#include "kernels/ladder/tf32_wgmma_ws_plan.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Shape {
  int m, n, k;
};

std::vector<Shape> draw_shapes(int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> side(128, 6500), skinny(128, 511), pick(0, 2);
  std::vector<Shape> shapes;
  while (int(shapes.size()) < count) {
    Shape s{side(rng), side(rng), side(rng)};
    if (pick(rng) == 0) {  // skinny: one side, any of the three alike
      int* sides[3] = {&s.m, &s.n, &s.k};
      *sides[pick(rng)] = skinny(rng);
    }
    if (double(s.m) * s.n * s.k >= double(1 << 30)) shapes.push_back(s);
  }
  return shapes;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The host cost of tf32-wgmma-ws's plan rule"};
  std::string json_path;
  int count = 1000, rounds = 21;
  unsigned seed = 20261128;
  app.add_option("--json", json_path, "Also write the figures here");
  app.add_option("--shapes", count, "Shapes drawn")->check(CLI::Range(1, 1000000));
  app.add_option("--seed", seed, "Seed of the draw");
  app.add_option("--rounds", rounds, "Rounds over the shapes (the median is printed)")->check(CLI::Range(1, 1000));
  CLI11_PARSE(app, argc, argv);

  using namespace ts::ladder;
  const std::span<const Tf32WsVariant> variants(kTf32WsVariants);
  const auto hopper = [&](int i) { return 66 * variants[std::size_t(i)].ctas_per_sm; };
  const std::vector<Shape> shapes = draw_shapes(count, seed);
  int ruled = 0;
  for (const Tf32WsVariant& v : variants) ruled += v.k_tile_cost > 0;

  std::vector<double> per_call_ns;
  double slowest_ns = 0;
  Shape slowest{};
  long long checksum = 0;  // keeps the calls from being optimised away
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = Clock::now();
    for (const Shape& s : shapes) {
      const Tf32WsPlan p = tf32_ws_plan(s.m, s.n, s.k, variants, hopper);
      checksum += p.variant * 131 + p.splits + (p.stream_k ? 7 : 0) + p.tail * 17;
    }
    per_call_ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / double(shapes.size()));
  }
  for (const Shape& s : shapes) {  // the slowest single shape, timed alone (best of 5)
    double best = 1e300;
    for (int r = 0; r < 5; ++r) {
      const auto t0 = Clock::now();
      checksum += tf32_ws_plan(s.m, s.n, s.k, variants, hopper).variant;
      best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
    }
    if (best > slowest_ns) slowest_ns = best, slowest = s;
  }
  std::sort(per_call_ns.begin(), per_call_ns.end());
  const double median = per_call_ns[per_call_ns.size() / 2];
  std::printf("tf32-wgmma-ws plan rule: %d ruled tiles, %zu shapes (seed %u), %d rounds\n", ruled, shapes.size(), seed,
              rounds);
  std::printf("one call: median %.0f ns (rounds from %.0f to %.0f ns); slowest shape %dx%dx%d, %.0f ns\n", median,
              per_call_ns.front(), per_call_ns.back(), slowest.m, slowest.n, slowest.k, slowest_ns);
  std::printf("(checksum %lld)\n", checksum);
  if (!json_path.empty()) {
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    const nlohmann::json out = {{"date", date},
                                {"cores", std::thread::hardware_concurrency()},
                                {"ruled_tiles", ruled},          {"shapes", shapes.size()},
                                {"seed", seed},                  {"rounds", rounds},
                                {"median_ns_per_call", median},  {"min_ns_per_call", per_call_ns.front()},
                                {"max_ns_per_call", per_call_ns.back()},
                                {"slowest_shape", {slowest.m, slowest.n, slowest.k}},
                                {"slowest_ns", slowest_ns}};
    std::ofstream(json_path) << out.dump(2) << "\n";
  }
  return 0;
}
