// cmd_launch.cpp — `tilescope launch`: one kernel launched once, plain, on the
// inputs `record --seed` makes, its C checked; nothing is recorded. What the
// tracer traces (`record --cuda-file`, `--library cublas`, `--tracer`), and a
// launch to hand to any other tool (compute-sanitizer, Nsight Compute):
//   tilescope launch --cuda-file sgemm.cu --entry sgemm --grid 4,4 --block 16,16 --m 64 --n 64 --k 64 --arg alpha=1
//   tilescope launch --library cublas --math tf32 --m 256 --n 256 --k 256
//   tilescope launch --kernel tiled --tile 16 --size 128 --seed 7
#include <cstdio>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/launch_options.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/user/user_kernel.h"

namespace ts::cli {

int run_launch(const gpu::LaunchRequest& q) {
  try {
    const gpu::LaunchOutcome r = gpu::launch_once(q);
    std::printf("launched %s on %s, M=%d N=%d K=%d, seed %llu, in %.3f ms: ", r.kernel.c_str(), r.device.c_str(), q.m,
                q.n, q.k, static_cast<unsigned long long>(r.seed), r.milliseconds);
    if (r.wrong.empty()) {
      std::printf("C equals %s (checked in double precision)\n", r.product.c_str());
      return 0;
    }
    std::printf("C is wrong\n");
    std::fflush(stdout);
    return fail(r.kernel + " computed a wrong C: " + r.wrong), kExitWrongResult;
  } catch (const UserKernelError& e) {
    switch (e.kind()) {
      case UserKernelError::Kind::Compile:
      case UserKernelError::Kind::NoEntry: return fail_with_details(e.what()), kExitKernelCompile;
      case UserKernelError::Kind::BadSpec: return fail(e.what()), kExitUsage;
      default: return fail(e.what());
    }
  } catch (const RecordError& e) {
    return fail(e.what()), e.kind() == RecordError::Kind::InvalidParams ? kExitUsage : kExitFailure;
  } catch (const gpu::GpuError& e) {
    const std::string what = e.what();
    return fail(what), what.starts_with("the launch of") ? kExitKernelFault : kExitFailure;
  } catch (const std::bad_alloc&) {
    return fail("out of memory");
  }
}

Command add_launch_command(CLI::App& parent) {
  auto* app = parent.add_subcommand(
      "launch",
      "Launch one kernel once, plain, on seeded inputs, and check C: a CUDA file as written (--cuda-file), cuBLAS "
      "(--library cublas) or one of tilescope's kernels; nothing is recorded (record traces it with the same flags)");
  auto opts = std::make_shared<RecordOptions>();
  auto flags = std::make_shared<LaunchFlags>();
  add_launch_options(*app, *opts);
  add_launch_flags(*app, *flags);
  app->add_option("--entry", opts->entry, "With --cuda-file: the __global__ function to launch");
  app->add_option("--block", opts->block, "With --cuda-file: threads per block, X,Y[,Z] (or XxY)")
      ->capture_default_str();
  app->add_option("-D,--define", opts->defines, "With --cuda-file: a macro NAME=VALUE (repeatable)");
  app->add_option("--arg", opts->args,
                  "With --cuda-file: a parameter's value, NAME=VALUE (repeatable); a pointer's is @A, @B or @C");
  return {app, [opts, flags]() -> int {
            gpu::LaunchRequest q;
            if (std::string err = to_launch_request(*opts, *flags, q); !err.empty()) return fail(err), kExitUsage;
            return run_launch(q);
          }};
}

}  // namespace ts::cli
