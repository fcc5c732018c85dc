// cmd_bench.cpp — `tilescope bench`: the visualized kernels, the ladder and
// cuBLAS at full size, each checked before it is timed.
//
//   tilescope bench                                  every kernel at 4096^3
//   tilescope bench --kernels ladder --size 4096     the ladder (and cuBLAS)
//   tilescope bench --sweep all -o r.json -o r.csv   128..8192 square and non-square
//   tilescope bench --shape 3000x5000x2000 --kernels tiled/16,warptile
//   tilescope bench --list
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <regex>
#include <sstream>

#include "app/cli/commands.h"
#include "app/core/bench_results_file.h"
#include "kernels/cuda/bench_runner.h"
#include "kernels/cuda/gpu_runtime.h"

namespace ts::cli {
namespace {

struct BenchCliOptions {
  std::vector<std::string> kernels, shapes, outputs;
  std::vector<int> sizes;
  std::string sweep;
  int runs = 20, warmup = 3;
  double max_seconds = 15;
  std::uint64_t seed = 2024;
  bool no_ceilings = false, list = false, apart = false, warm_l2 = false;
};

// "4096x1024x512" -> m 4096, n 1024, k 512.
bool parse_shape(const std::string& text, gpu::GemmShape& s) {
  const std::regex kShape(R"((\d{1,7})x(\d{1,7})x(\d{1,7}))");
  std::smatch m;
  if (!std::regex_match(text, m, kShape)) return false;
  s = {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
  return s.m > 0 && s.n > 0 && s.k > 0;
}

std::string check_output_name(const std::string& path) {
  const auto dot = path.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : path.substr(dot);
  if (ext != ".json" && ext != ".csv") return "cannot tell the format of " + path + ": name it .json or .csv";
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (access(dir.c_str(), W_OK) != 0) return "cannot write " + path + ": the directory " + dir + " is not writable";
  return {};
}

// One line per row when stderr is a log; a bar redrawn in place on a terminal.
class ProgressBar {
 public:
  ProgressBar() : tty_(isatty(STDERR_FILENO) == 1) {}
  void operator()(const gpu::BenchProgress& p) {
    const int width = 30;
    const int filled = p.total ? int(width * p.done / p.total) : width;
    std::string bar(filled, '#');
    bar.resize(width, '.');
    if (tty_) std::fprintf(stderr, "\r[%s] %zu/%zu %-48.48s", bar.c_str(), p.done, p.total, p.step.c_str());
    else std::fprintf(stderr, "[%s] %zu/%zu %s\n", bar.c_str(), p.done, p.total, p.step.c_str());
    if (tty_ && p.done == p.total) std::fputc('\n', stderr);
    std::fflush(stderr);
  }

 private:
  bool tty_;
};

void print_table(const BenchResults& r) {
  std::printf("%s (%d SMs, %.0f MHz max, FP32 peak %.1f TFLOP/s), driver %s, CUDA %s, cuBLAS %s, %s\n",
              r.device.name.c_str(), r.device.sm_count, r.device.sm_clock_max_mhz, r.ceilings.peak_fp32_gflops / 1e3,
              r.device.driver.c_str(), r.device.cuda_runtime.c_str(), r.device.cublas.c_str(), r.device.date.c_str());
  char copy[48] = "not measured";  // --no-ceilings
  if (r.ceilings.copy_gbytes_per_s > 0) std::snprintf(copy, sizeof copy, "%.0f GB/s", r.ceilings.copy_gbytes_per_s);
  std::printf("ceilings: copy %s, cuBLAS FP32 %.1f TFLOP/s, cuBLAS TF32 %.1f TFLOP/s\n", copy,
              r.ceilings.cublas_fp32_gflops / 1e3, r.ceilings.cublas_tf32_gflops / 1e3);
  if (!r.timing.empty()) std::printf("timing: %s\n", r.timing.c_str());
  std::printf("%-20s %17s %-7s %10s %10s %8s %8s %7s %9s %9s\n", "kernel", "m x n x k", "status", "time ms", "GFLOP/s",
              "%cuBLAS", "%TF32", "%peak", "FLOP/B", "rel.err");
  for (const BenchRow& x : r.rows) {
    char shape[40];
    std::snprintf(shape, sizeof shape, "%dx%dx%d", x.m, x.n, x.k);
    if (x.status != RowStatus::Ok) {
      std::printf("%-20s %17s %-7s %s\n", x.kernel.c_str(), shape, std::string(row_status_name(x.status)).c_str(),
                  x.message.c_str());
      continue;
    }
    std::printf("%-20s %17s %-7s %10.4f %10.1f %8.1f %8.1f %7.1f %9.1f %9.1e\n", x.kernel.c_str(), shape, "ok",
                x.time_ms, x.gflops, x.pct_cublas, x.pct_cublas_tf32, x.pct_peak, x.intensity, x.rel_err_ref);
  }
}

int run(const BenchCliOptions& o) {
  if (o.list) {
    try {
      for (const gpu::BenchKernelInfo& k : gpu::bench_kernel_list())
        std::printf("%-20s %-10s %-5s %s\n", k.name.c_str(), k.family.c_str(), k.precision.c_str(), k.title.c_str());
    } catch (const gpu::GpuError& e) {
      return fail(e.what());
    }
    return 0;
  }
  gpu::BenchOptions opt;
  for (const std::string& list : o.kernels) {
    std::stringstream ss(list);
    for (std::string name; std::getline(ss, name, ',');)
      if (!name.empty()) opt.kernels.push_back(name);
  }
  for (int e : o.sizes) opt.shapes.push_back({e, e, e});
  for (const std::string& text : o.shapes) {
    gpu::GemmShape s;
    if (!parse_shape(text, s)) return fail("--shape wants MxNxK with positive whole numbers, e.g. 4096x1024x512, not '" + text + "'");
    opt.shapes.push_back(s);
  }
  if (!o.sweep.empty()) {
    const auto sweep = gpu::sweep_shapes(o.sweep);
    opt.shapes.insert(opt.shapes.end(), sweep.begin(), sweep.end());
  }
  if (opt.shapes.empty()) opt.shapes.push_back({4096, 4096, 4096});
  opt.timed_runs = o.runs;
  opt.warmup_runs = o.warmup;
  opt.max_seconds_per_row = o.max_seconds;
  opt.measure_ceilings = !o.no_ceilings;
  opt.paired = !o.apart;
  opt.flush_l2 = !o.warm_l2;
  opt.seed = o.seed;
  for (const std::string& out : o.outputs)
    if (std::string why = check_output_name(out); !why.empty()) return fail(why);

  BenchResults results;
  try {
    ProgressBar bar;
    results = gpu::run_benchmark(opt, [&bar](const gpu::BenchProgress& p) { bar(p); });
  } catch (const gpu::GpuError& e) {
    return fail(e.what());
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "tilescope: %s\n", e.what());
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    return fail("out of host memory; try smaller sizes");
  }
  print_table(results);
  for (const std::string& out : o.outputs) {
    try {
      save_results(results, out);
      std::printf("wrote %s\n", out.c_str());
    } catch (const BenchFileError& e) {
      return fail(e.what());
    }
  }
  std::size_t failed = 0;
  std::string names;
  for (const BenchRow& x : results.rows)
    if (x.status == RowStatus::Failed) names += (failed++ ? ", " : "") + x.kernel + " " + std::to_string(x.m) + "x" +
                                                 std::to_string(x.n) + "x" + std::to_string(x.k);
  if (failed) return fail(std::to_string(failed) + " kernel run(s) failed the correctness check: " + names);
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("bench", "Time the kernels at full size against cuBLAS, each checked first");
  auto o = std::make_shared<BenchCliOptions>();
  app->add_option("--kernels", o->kernels,
                  "Comma-separated kernel names (see --list) or families (visualized, ladder, cublas); default all");
  app->add_option("--size", o->sizes, "Square size M = N = K (repeatable)")->check(CLI::Range(1, 1 << 20));
  app->add_option("--shape", o->shapes, "MxNxK (repeatable), e.g. 4096x1024x512");
  app->add_option("--sweep", o->sweep, "square (128..8192), nonsquare, or all")
      ->check(CLI::IsMember({"square", "nonsquare", "all"}));
  app->add_option("--runs", o->runs, "Timed runs per kernel and size (median reported)")
      ->check(CLI::Range(20, 100000))
      ->capture_default_str();
  app->add_option("--warmup", o->warmup, "Untimed runs first")->check(CLI::Range(1, 1000))->capture_default_str();
  app->add_option("--max-seconds", o->max_seconds, "Skip timing a kernel whose runs would take longer than this")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  app->add_option("--seed", o->seed, "Seed of the random inputs")->capture_default_str()->check(kWholeNumber);
  app->add_flag("--no-ceilings", o->no_ceilings, "Skip measuring copy bandwidth and cuBLAS at 8192");
  app->add_flag("--apart", o->apart,
                "Time each kernel on its own, back to back (default: in alternating rounds with the cuBLAS of its "
                "precision, so both run at the same clocks)");
  app->add_flag("--warm-l2", o->warm_l2,
                "Do not overwrite the L2 cache before each timed run (inputs that fit in it are then read from what "
                "the last run left there)");
  app->add_option("-o,--output", o->outputs, "Results file, .json or .csv (repeatable)");
  app->add_flag("--list", o->list, "List the kernels and exit");
  return {app, [o]() -> int { return run(*o); }};
}

}  // namespace ts::cli
