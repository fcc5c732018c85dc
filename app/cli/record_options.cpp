// record_options.cpp — parse and check the recording flags.
#include "app/cli/record_options.h"

#include "app/cli/commands.h"
#include "kernels/catalog.h"

namespace ts::cli {

void add_launch_options(CLI::App& app, RecordOptions& o) {
  app.add_option("--kernel", o.kernel, "Kernel: " + kernel_names())->capture_default_str();
  app.add_option("--tile", o.tile, "TILE of the textbook kernels (block edge for the naive ones): 2, 4, 8, 16 or 32; the ladder's rungs have fixed tiles and ignore it")->capture_default_str();
  app.add_option("--size", o.size, "Sets M = K = N")->capture_default_str();
  app.add_option("--m", o.m, "Rows of A and C (overrides --size)");
  app.add_option("--k", o.k, "Columns of A, rows of B (overrides --size)");
  app.add_option("--n", o.n, "Columns of B and C (overrides --size)");
  app.add_option("--seed", o.seed, "Seed of the inputs (0: a fresh one)")->check(kWholeNumber);
}

void add_record_options(CLI::App& app, RecordOptions& o) {
  add_launch_options(app, o);
  app.add_option("--device", o.device, "gpu, cpu (the emulator) or auto")->capture_default_str();
  app.add_option("--inputs", o.inputs, "random (uniform in [-1, 1]) or integers (0..4)")->capture_default_str();
  app.add_option("--kernel-file", o.kernel_file,
                 "Record a kernel of your own: a file that includes <tilescope/kernel.h> (examples/kernels/)");
  app.add_option("--entry", o.entry,
                 "With --kernel-file: the function, void NAME(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, "
                 "then any scalars given by --arg)");
  app.add_option("--block", o.block, "With --kernel-file: threads per block, XxY")->capture_default_str();
  app.add_option("--block-tile", o.block_tile,
                 "With --kernel-file: the ROWSxCOLS cells of C one block computes (default: the block's YxX); "
                 "the grid is ceil(N/COLS) x ceil(M/ROWS)");
  app.add_option("-D,--define", o.defines, "With --kernel-file: a compile-time constant NAME=VALUE (repeatable)");
  app.add_option("--arg", o.args,
                 "With --kernel-file: the value of a parameter of the entry after M, N, K, NAME=VALUE (repeatable), "
                 "e.g. --arg alpha=2 --arg lda=64; int, unsigned, long, long long, size_t, float, double or bool. "
                 "A parameter named alpha scales the product C is checked against; with one named beta, C starts at 0");
  app.add_option("--timeout", o.timeout,
                 "Seconds the launch may run (a loop that never ends): then the emulator stops it and says where its "
                 "threads are, and a GPU launch is abandoned (the process exits); 0: no limit")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e6));
}

std::string to_record_params(const RecordOptions& o, RecordParams& p) {
  if (!o.kernel_file.empty()) {
    p.user.emplace();
    if (std::string err =
            user_spec_from_flags(o.kernel_file, o.entry, o.block, o.block_tile, o.defines, o.args, *p.user);
        !err.empty())
      return "--kernel-file: " + err;
  } else if (!o.entry.empty() || !o.defines.empty() || !o.block_tile.empty() || !o.args.empty()) {
    return "--entry, --block-tile, -D and --arg go with --kernel-file FILE (or --cuda-file FILE)";
  }
  const auto kind = find_kernel(o.kernel);
  if (!kind) return "unknown kernel '" + o.kernel + "' (choose one of " + kernel_names() + ")";
  p.kernel = *kind;
  p.tile = o.tile;
  p.m = o.m.value_or(o.size);
  p.n = o.n.value_or(o.size);
  p.k = o.k.value_or(o.size);
  if (o.device == "gpu") p.device = DeviceChoice::Gpu;
  else if (o.device == "cpu") p.device = DeviceChoice::Cpu;
  else if (o.device == "auto") p.device = DeviceChoice::Auto;
  else return "unknown device '" + o.device + "' (choose gpu, cpu or auto)";
  if (o.inputs == "random") p.inputs = InputKind::Random;
  else if (o.inputs == "integers") p.inputs = InputKind::SmallIntegers;
  else return "unknown inputs '" + o.inputs + "' (choose random or integers)";
  p.seed = o.seed;
  p.timeout_seconds = o.timeout;
  return {};
}

}  // namespace ts::cli
