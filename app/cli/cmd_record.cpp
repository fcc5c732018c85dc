// cmd_record.cpp — `tilescope record`: record a trace on the GPU or the emulator.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/launch_options.h"
#include "app/cli/record_exec.h"
#include "app/cli/record_options.h"
#include "app/core/trace_file.h"
#include "app/core/block_selection.h"
#include "app/core/display_text.h"
#include "trace/model/gpu_presets.h"
#include "trace/model/reference.h"
#include "app/core/replay.h"
#include "app/core/child_process.h"
#include "app/core/safe_file.h"
#include "kernels/catalog.h"
#include "app/counters/counter.h"
#include "kernels/focused.h"
#include "kernels/recorder.h"
#include "kernels/seeds.h"
#include "kernels/user/user_args.h"

namespace ts::cli {
namespace {

// Fails before a long recording rather than after it.
std::string unwritable_reason(const std::filesystem::path& out) {
  std::error_code ec;
  if (std::filesystem::is_directory(out, ec)) return "it is a directory";
  std::filesystem::path dir = out.parent_path();
  if (dir.empty()) dir = ".";
  if (!std::filesystem::is_directory(dir, ec)) return "no directory " + dir.string();
  if (access(dir.c_str(), W_OK) != 0) return "the directory " + dir.string() + " is not writable";
  if (std::filesystem::exists(out, ec) && access(out.c_str(), W_OK) != 0) return "the file is not writable";
  return {};
}

// `--check[=stop|continue|off]`: the emulator's checks (kernels/emu/sanitizer.h).
// Unsaid, they are off for tilescope's kernels and `continue` for a user's
// (unless it is to run on the GPU, where they cannot).
struct CheckFlags {
  std::string mode;  // empty: the default
  std::uint32_t cap = 20;
};

std::string to_check_options(const CheckFlags& f, const RecordParams& p, emu::CheckOptions& o) {
  if (f.mode.empty()) o.mode = p.user && p.device != DeviceChoice::Gpu ? emu::CheckMode::Continue : emu::CheckMode::Off;
  else if (f.mode == "off") o.mode = emu::CheckMode::Off;
  else if (f.mode == "stop") o.mode = emu::CheckMode::Stop;
  else if (f.mode == "continue") o.mode = emu::CheckMode::Continue;
  else return "unknown --check mode '" + f.mode + "' (choose stop, continue or off)";
  if (f.cap == 0) return "--check-limit must be at least 1";
  o.cap = f.cap;
  return {};
}

// Prints what the checks found; the exit status that says whether they found anything.
int print_check_report(const emu::CheckReport& r, std::uint32_t cap) {
  for (const emu::Finding& f : r.findings) std::printf("check: %s\n", f.text.c_str());
  std::printf("check: %s\n", emu::report_summary(r, cap).c_str());
  return r.clean() ? 0 : kExitFindings;
}

struct FocusOptions {
  std::string blocks, preset = "h100";
  bool counters = false;
};

// `record --blocks`: the chosen blocks' events, and with --counters the whole launch's numbers beside them.
int record_focused_trace(const RecordParams& params, const FocusOptions& focus, const std::string& out) {
  try {
    validate_shape(params);
    const LaunchShape shape = launch_shape(params.kernel, params.tile, params.m, params.n);
    std::string no_wave;
    const std::uint64_t per_wave =
        focus.blocks.starts_with("wave:") ? blocks_per_wave(params.kernel, params.tile, focus.preset, no_wave) : 0;
    const BlockSelection sel = parse_block_selection(focus.blocks, shape.grid, per_wave, no_wave);
    if (!sel.error.empty()) return fail(sel.error);
    const auto t0 = std::chrono::steady_clock::now();
    const Trace trace = record_focused(params, sel.blocks);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    save_trace(trace, out);
    std::printf("recorded %zu of %llu blocks of %s %s M=%d N=%d K=%d on %s: %llu events in %.2f s -> %s\n",
                sel.blocks.size(), static_cast<unsigned long long>(shape.grid.count()), trace.launch.kernel.c_str(),
                tiling_label(trace.launch).c_str(), trace.launch.m, trace.launch.n, trace.launch.k,
                trace.launch.device_name.c_str(), static_cast<unsigned long long>(trace.events.size()), secs,
                out.c_str());
    if (focus.counters) {
      RecordParams whole = params;
      whole.seed = trace.launch.seed;  // the same inputs
      const LaunchCounters c = count_launch(whole);
      const std::string path = out + ".counters.json";
      write_file_atomically(path, counters_to_json(c).dump(2) + "\n");
      std::printf("the whole launch is counted, not traced: %llu events on %s -> %s\n",
                  static_cast<unsigned long long>(c.events), c.launch.device_name.c_str(), path.c_str());
    }
  } catch (const RecordError& e) {
    return fail_recording(e);
  } catch (const TraceFileError& e) {
    return fail(e.what());
  } catch (const SafeFileError& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail("out of memory while recording; try fewer blocks");
  }
  return 0;
}

int record_error_exit(const RecordError& e) {
  switch (e.kind()) {
    case RecordError::Kind::InvalidParams: return fail(e.what()), kExitUsage;
    case RecordError::Kind::KernelCompile: return fail_with_details(e.what()), kExitKernelCompile;
    case RecordError::Kind::EmulatorFailed:
    case RecordError::Kind::GpuFailed: return fail(e.what()), kExitKernelFault;
    default: return fail(e.what());
  }
}

// A failed recording's message and exit status: a user kernel's own codes,
// else fail_recording's.
int record_failure(const RecordError& e, bool user) {
  const bool timed_out = e.kind() == RecordError::Kind::TimedOut || e.kind() == RecordError::Kind::GpuTimedOut;
  return user && !timed_out ? record_error_exit(e) : fail_recording(e);
}

// A user kernel's C is held to the reference after every recording; the trace is kept either way.
// With a parameter named alpha bound, C is held to alpha A x B (user_args.h: C starts at 0, so beta C adds nothing).
int check_user_result(const Trace& trace, const std::string& out) {
  const double alpha = trace.launch.user_kernel ? result_scale(trace.launch.user_kernel->args) : 1.0;
  const std::string wrong =
      check_matmul(trace.a, trace.b, trace.c, trace.launch.m, trace.launch.n, trace.launch.k, alpha);
  if (wrong.empty()) {
    std::printf("C equals %s (checked in double precision)\n", product_name(alpha).c_str());
    return 0;
  }
  std::fflush(stdout);  // the "recorded" line first, also when both go to one pipe
  fail(trace.launch.kernel + " computed a wrong C: " + wrong + " (the trace is in " + out + ")");
  return kExitWrongResult;
}

// `record --cuda-file`, `--library cublas`, `--tracer`: `tilescope launch`
// with the same flags, run under the tracer as any program is.
int record_launch(const RecordOptions& opts, LaunchFlags flags, const ExecOptions& exec, const std::string& out) {
  flags.layout = exec.layout;
  gpu::LaunchRequest q;
  if (std::string err = to_launch_request(opts, flags, q); !err.empty()) return fail(err), kExitUsage;
  if (q.seed == 0) q.seed = fresh_seed();
  ExecOptions e = exec;
  e.exec = true;
  e.launcher = true;
  e.seed = q.seed;
  e.layout = q.order == MatrixOrder::ColMajor ? "col" : "row";
  e.program = {this_executable(), "launch"};
  e.shown = "tilescope launch";
  for (const std::string& a : launch_arguments(q)) {
    e.program.push_back(a);
    e.shown += " " + (a.find_first_of(" \t'\"") == std::string::npos ? a : "'" + a + "'");
  }
  e.source = q.source == gpu::LaunchSource::CudaFile ? "cuda-file"
             : q.source == gpu::LaunchSource::Cublas ? "cublas"
                                                     : "tilescope";
  // cuBLAS may launch more than its GEMM (a split-k reduction after it): the GEMM, unless told otherwise.
  if (q.source == gpu::LaunchSource::Cublas && e.kernel_name.empty()) e.kernel_name = "gemm";
  // ... and every launch after it, the split-k reduction that writes C from the GEMM's partials.
  if (q.source == gpu::LaunchSource::Cublas) e.all_launches = true;
  if (std::string why = unwritable_reason(out); !why.empty()) return fail("cannot write " + out + ": " + why);
  return record_exec(e, q.m, q.n, q.k, opts.timeout, out);
}

}  // namespace

Command add_record_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("record", "Record every memory access of one kernel launch into a trace file");
  auto opts = std::make_shared<RecordOptions>();
  auto out = std::make_shared<std::string>("trace.tstrace");
  auto focus = std::make_shared<FocusOptions>();
  auto check = std::make_shared<CheckFlags>();
  auto exec = std::make_shared<ExecOptions>();
  auto launch = std::make_shared<LaunchFlags>();
  auto tracer = std::make_shared<bool>(false);
  add_record_options(*app, *opts);
  add_exec_options(*app, *exec);
  add_launch_flags(*app, *launch, false);
  app->add_flag("--tracer", *tracer,
                "Record one of tilescope's kernels (--kernel --tile) launched plain, through the tracer, as any "
                "program's kernel is (the instrumented recorders are the default)");
  app->add_flag("--check{stop}", check->mode,
                "Run on the emulator with its checks: out-of-bounds accesses, shared-memory races, reads of "
                "unwritten shared memory, barriers not all threads reach. --check stops at the first finding "
                "(no trace); --check=continue records the launch and reports every finding; --check=off "
                "turns them off. On by default (continue) for --kernel-file. Exit status 3: something was found");
  app->add_option("--check-limit", check->cap, "With --check: findings printed per kind (all are counted)")
      ->capture_default_str();
  app->add_option("-o,--output", *out, "Trace file to write")->capture_default_str();
  CLI::Option* blocks_flag = app->add_option("--blocks", focus->blocks,
                  "Record only these blocks, at any N: \"x,y;x,y\", row:Y, col:X or wave:W (a focused trace)");
  CLI::Option* gpu_flag =
      app->add_option("--gpu", focus->preset, "With --blocks wave:W: the GPU preset whose waves it counts (" +
                                                  gpu_preset_names() + ")")
          ->capture_default_str();
  app->add_flag("--counters", focus->counters,
                "With --blocks: also count the whole launch (as `tilescope counters`) into OUTPUT.counters.json");
  return {app, [opts, out, focus, check, exec, launch, tracer, blocks_flag, gpu_flag]() -> int {
            if (launch->any() || *tracer) {
              if (exec->exec || !exec->program.empty())
                return fail("--exec traces a program of yours; --cuda-file, --library and --tracer trace tilescope's "
                            "own launch: give one"),
                       kExitUsage;
              if (!focus->blocks.empty() || !check->mode.empty())
                return fail("--blocks and --check take tilescope's instrumented recorders, not the tracer"), kExitUsage;
              return record_launch(*opts, *launch, *exec, *out);
            }
            if (exec->exec || !exec->program.empty()) {
              if (!exec->exec) return fail("a program to run goes with --exec"), kExitUsage;
              if (!opts->kernel_file.empty() || !focus->blocks.empty())
                return fail("--exec traces a program; it does not combine with --kernel-file or --blocks"), kExitUsage;
              if (std::string why = unwritable_reason(*out); !why.empty())
                return fail("cannot write " + *out + ": " + why);
              return record_exec(*exec, opts->m.value_or(opts->size), opts->n.value_or(opts->size),
                                 opts->k.value_or(opts->size), opts->timeout, *out);
            }
            RecordParams params;
            if (std::string err = to_record_params(*opts, params); !err.empty()) return fail(err), kExitUsage;
            if (params.user && (!focus->blocks.empty() || focus->counters))
              return fail("--blocks and --counters take tilescope's own kernels, not --kernel-file"), kExitUsage;
            // Neither may silently record the whole launch instead of what was asked.
            if (blocks_flag->count() > 0 && focus->blocks.empty())
              return fail("--blocks names no block (\"x,y;x,y\", row:Y, col:X or wave:W)"), kExitUsage;
            if (gpu_flag->count() > 0 && !focus->blocks.starts_with("wave:"))
              return fail("--gpu picks the GPU whose waves --blocks wave:W counts; it goes with wave:W"), kExitUsage;
            if (!find_gpu_preset(focus->preset))
              return fail("unknown GPU preset '" + focus->preset + "' (choose one of " + gpu_preset_names() + ")"),
                     kExitUsage;
            if (focus->counters && focus->blocks.empty())
              return fail("--counters goes with --blocks (a focused trace); `tilescope counters` counts a whole "
                          "launch on its own"),
                     kExitUsage;
            if (std::string err = to_check_options(*check, params, params.check); !err.empty()) return fail(err);
            if (!focus->blocks.empty() && params.check.enabled())
              return fail("--check records the whole launch: it does not combine with --blocks");
            if (!focus->blocks.empty()) {
              if (std::string why = unwritable_reason(*out); !why.empty())
                return fail("cannot write " + *out + ": " + why);
              return record_focused_trace(params, *focus, *out);
            }
            try {
              validate(params);
            } catch (const RecordError& e) {
              return record_failure(e, params.user.has_value());
            }
            if (std::string why = unwritable_reason(*out); !why.empty())
              return fail("cannot write " + *out + ": " + why);
            const auto t0 = std::chrono::steady_clock::now();
            try {
              emu::CheckReport report;
              const Trace trace = record(params, &report);
              const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
              if (report.stopped) return print_check_report(report, params.check.cap);  // nothing recorded
              save_trace(trace, *out);
              std::printf("recorded %s %s M=%d N=%d K=%d on %s: %llu events in %.2f s -> %s\n",
                          trace.launch.kernel.c_str(), tiling_label(trace.launch).c_str(), trace.launch.m,
                          trace.launch.n, trace.launch.k, trace.launch.device_name.c_str(),
                          static_cast<unsigned long long>(trace.events.size()), secs, out->c_str());
              const int found = params.check.enabled() ? print_check_report(report, params.check.cap) : 0;
              const int result = params.user ? check_user_result(trace, *out) : 0;
              return found ? found : result;
            } catch (const RecordError& e) {
              return record_failure(e, params.user.has_value());
            } catch (const TraceFileError& e) {
              return fail(e.what());
            } catch (const std::bad_alloc&) {
              return fail("out of memory while recording; try a smaller size");
            }
            return 0;
          }};
}

}  // namespace ts::cli
