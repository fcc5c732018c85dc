// record_exec.cpp — `record --exec`: start the program with the tracer
// library preloaded (LD_PRELOAD), wait for it, then assemble the raw file it
// wrote into a trace (tracer/assemble.h), validate it and save it.
//   tilescope record --exec --m 64 --n 64 --k 64 -o t.tstrace -- ./program args
#include "app/cli/record_exec.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/cli/commands.h"
#include "app/core/child_process.h"
#include "app/core/safe_file.h"
#include "app/core/trace_file.h"
#include "app/core/trace_validation.h"
#include "tracer/assemble.h"
#include "tracer/raw_file.h"

namespace ts::cli {
namespace fs = std::filesystem;

void add_exec_options(CLI::App& app, ExecOptions& o) {
  app.add_flag("--exec", o.exec,
               "Trace one kernel launch of any program, unmodified: tilescope record --exec --m M --n N --k K -- "
               "PROGRAM ARGS... (needs the tracer library, built with the Compute Sanitizer API)");
  app.add_option("program", o.program, "With --exec: the program and its arguments, after --");
  app.add_option("--layout", o.layout, "With --exec, --cuda-file or --library: the order of A, B and C in memory, row or col "
                 "(default: col for --library cublas, row else)")
      ->capture_default_str();
  app.add_option("--launch", o.launch, "With --exec: which launch to trace, from 0, among those --kernel-name matches")
      ->capture_default_str();
  app.add_option("--kernel-name", o.kernel_name, "With --exec: a regex the traced kernel's name must contain");
  app.add_option("--max-records", o.max_records,
                 "With --exec: the tracer's device log, in 48-byte records; a launch that needs more is refused")
      ->capture_default_str();
  app.add_option("--k-tile", o.k_tile, "With --exec: the kernel's k-extent per iteration (0: iterations are barrier intervals)");
  app.add_flag("--all-launches", o.all_launches,
               "With --exec, --cuda-file or --library: also trace every launch after the chosen one (a split-k "
               "GEMM's reduction), each into OUTPUT.N.tstrace (on by default for --library cublas)");
  app.add_option("--a-alloc", o.a_alloc, "With --exec: the allocation (from 0, in allocation order) that is A");
  app.add_option("--b-alloc", o.b_alloc, "With --exec: the allocation that is B");
  app.add_option("--c-alloc", o.c_alloc, "With --exec: the allocation that is C");
}

namespace {

// The tracer library: TILESCOPE_TRACER_LIBRARY, else beside this executable.
std::string find_tracer(std::string& looked) {
  if (const char* env = std::getenv("TILESCOPE_TRACER_LIBRARY"); env && *env) {
    looked = std::string(env) + " (TILESCOPE_TRACER_LIBRARY)";
    return fs::exists(env) ? std::string(env) : std::string();
  }
  std::error_code ec;
  const fs::path lib = fs::path(this_executable()).parent_path() / "libtilescope_tracer.so";
  looked = lib.string();
  return fs::exists(lib, ec) ? lib.string() : std::string();
}

// nvdisasm: beside the CUDA Toolkit that built tilescope, under CUDA_HOME, or on PATH.
std::string find_nvdisasm() {
  std::vector<fs::path> places;
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) places.push_back(fs::path(home) / "bin/nvdisasm");
  places.push_back("/usr/local/cuda/bin/nvdisasm");
  if (const char* path = std::getenv("PATH"))
    for (std::string_view p = path; !p.empty();) {
      const auto colon = p.find(':');
      places.push_back(fs::path(std::string(p.substr(0, colon))) / "nvdisasm");
      p = colon == std::string_view::npos ? std::string_view() : p.substr(colon + 1);
    }
  std::error_code ec;
  for (const fs::path& f : places)
    if (fs::exists(f, ec) && access(f.c_str(), X_OK) == 0) return f.string();
  return {};
}

// The traced function's instructions, from the cubin the tracer kept; empty,
// with why, when there is no cubin or no disassembler.
std::vector<tracer::SassInstruction> disassemble(const tracer::RawLaunch& raw, const fs::path& scratch,
                                                 std::string& why) {
  if (raw.cubin.empty()) return why = "the tracer kept no cubin of the kernel's module", std::vector<tracer::SassInstruction>{};
  const std::string nvdisasm = find_nvdisasm();
  if (nvdisasm.empty())
    return why = "no nvdisasm here (it comes with the CUDA Toolkit): the trace has no SASS and no source lines",
           std::vector<tracer::SassInstruction>{};
  const fs::path cubin = scratch.string() + ".cubin", listing = scratch.string() + ".sass";
  std::vector<tracer::SassInstruction> out;
  {
    std::ofstream f(cubin, std::ios::binary);
    f.write(reinterpret_cast<const char*>(raw.cubin.data()), static_cast<std::streamsize>(raw.cubin.size()));
  }
  std::string error;
  // Only the traced function: a library's module holds hundreds of kernels.
  const auto done =
      run_child({nvdisasm, "-g", "-c", "-fun", raw.kernel, cubin.string()}, {}, 120, error, listing.string());
  if (done && WIFEXITED(done->status) && WEXITSTATUS(done->status) == 0) {
    std::ifstream in(listing);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    out = tracer::parse_nvdisasm(text, raw.kernel);
    if (out.empty()) why = "nvdisasm listed no function " + raw.kernel + ": the trace has no SASS and no source lines";
  } else {
    why = "nvdisasm could not read the kernel's cubin: the trace has no SASS and no source lines";
  }
  std::error_code ec;
  fs::remove(cubin, ec);
  fs::remove(listing, ec);
  return out;
}

// Traces o.launch of the program into out; `launches` gets every kernel the program
// launched and `traced` the traced one's place among them (on success).
int trace_once(const ExecOptions& o, int m, int n, int k, double timeout, const std::string& out,
               std::vector<std::string>& launches, std::uint32_t& traced) {
  if (o.program.empty())
    return fail("--exec needs a program to run: tilescope record --exec --m M --n N --k K -- PROGRAM ARGS..."),
           kExitUsage;
  if (m < 1 || n < 1 || k < 1) return fail("--m, --n and --k must each be at least 1"), kExitUsage;
  if (!o.layout.empty() && o.layout != "row" && o.layout != "col")
    return fail("unknown --layout '" + o.layout + "' (choose row or col)"), kExitUsage;
  if (o.max_records == 0) return fail("--max-records must be at least 1"), kExitUsage;
  std::string looked;
  const std::string library = find_tracer(looked);
  if (library.empty())
    return fail("the tracer is not built: no " + looked +
                " (build tilescope with CUDA and the Compute Sanitizer API, -DTILESCOPE_SANITIZER_DIR=..., "
                "or point TILESCOPE_TRACER_LIBRARY at libtilescope_tracer.so)");

  const fs::path raw_path = fs::path(out).string() + ".tracer-raw";
  std::error_code ec;
  fs::remove(raw_path, ec);
  fs::remove(raw_path.string() + ".error", ec);
  const std::uint64_t mk = std::uint64_t(m) * k * 4, kn = std::uint64_t(k) * n * 4, mn = std::uint64_t(m) * n * 4;
  std::string preload = library;
  if (const char* old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;
  const std::vector<std::string> env = {
      "LD_PRELOAD=" + preload,
      "TILESCOPE_TRACER_OUT=" + fs::absolute(raw_path).string(),
      "TILESCOPE_TRACER_KERNEL=" + o.kernel_name,
      "TILESCOPE_TRACER_LAUNCH=" + std::to_string(o.launch),
      "TILESCOPE_TRACER_CAPACITY=" + std::to_string(o.max_records),
      "TILESCOPE_TRACER_SNAPSHOT=" + std::to_string(mk) + "," + std::to_string(kn) + "," + std::to_string(mn),
  };
  const auto t0 = std::chrono::steady_clock::now();
  std::string error;
  const auto child = run_child(o.program, env, timeout, error);
  if (!child) return fail(error);
  if (child->timed_out) {
    fail(o.program[0] + " ran past --timeout " + std::to_string(timeout) + " s and was stopped");
    return kExitTimedOut;
  }
  if (WIFSIGNALED(child->status))
    return fail(o.program[0] + " was killed by signal " + std::to_string(WTERMSIG(child->status)));
  const int status = WIFEXITED(child->status) ? WEXITSTATUS(child->status) : 0;
  if (o.launcher && status != 0 && status != kExitWrongResult) return status;  // it said why; nothing ran to trace
  if (status != 0)
    std::fprintf(stderr, "tilescope: %s exited with status %d; assembling what the tracer wrote\n",
                 o.launcher ? "the launch" : o.program[0].c_str(), status);
  if (!fs::exists(raw_path)) {
    const fs::path refused = raw_path.string() + ".error";
    if (std::ifstream why(refused); why) {
      std::string line;
      std::getline(why, line);
      fs::remove(refused, ec);
      return fail(line);
    }
    return fail("the tracer wrote nothing (" + raw_path.string() + "): was the program a CUDA program, and did " +
                library + " load?");
  }
  try {
    const tracer::RawLaunch raw = tracer::read_raw_launch(raw_path.string());
    if (const char* keep = std::getenv("TILESCOPE_TRACER_KEEP_RAW"); !keep || !*keep) fs::remove(raw_path, ec);
    tracer::AssembleOptions opts;
    opts.m = m, opts.n = n, opts.k = k;
    opts.order = o.layout == "col" ? MatrixOrder::ColMajor : MatrixOrder::RowMajor;
    opts.a_allocation = o.a_alloc, opts.b_allocation = o.b_alloc, opts.c_allocation = o.c_alloc;
    opts.k_tile = o.k_tile;
    std::string no_sass;
    opts.sass = disassemble(raw, raw_path, no_sass);
    tracer::AssembleReport report;
    Trace trace = tracer::assemble_trace(raw, opts, &report);
    trace.launch.tracer->source = o.source;
    if (!o.shown.empty()) {
      trace.launch.tracer->program = o.shown;
    } else {
      for (const std::string& a : o.program) trace.launch.tracer->program += (trace.launch.tracer->program.empty() ? "" : " ") + a;
    }
    if (o.seed) trace.launch.seed = *o.seed;
    if (!no_sass.empty()) trace.launch.tracer->limits.push_back(no_sass);
    validate_trace(trace, ~0ull >> 8);
    save_trace(trace, out);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("traced launch %u of %s (%s) grid %ux%ux%u block %ux%ux%u on %s: %llu events in %.2f s -> %s\n",
                raw.launch_index, o.program[0].c_str(), trace.launch.kernel.c_str(), raw.grid.x, raw.grid.y,
                raw.grid.z, raw.block.x, raw.block.y, raw.block.z, trace.launch.device_name.c_str(),
                static_cast<unsigned long long>(trace.events.size()), secs, out.c_str());
    for (const std::string& line : report.lines()) std::printf("  %s\n", line.c_str());
    for (const std::string& line : trace.launch.tracer->limits) std::printf("  limit: %s\n", line.c_str());
    launches = raw.launches;
    traced = raw.launch_index;
    if (o.launcher && status != 0) return status;  // C is wrong: the trace shows how
  } catch (const tracer::RawFileError& e) {
    return fail(e.what());
  } catch (const tracer::AssembleError& e) {
    return fail_with_details(e.what());
  } catch (const TraceFileError& e) {
    return fail(std::string("the assembled trace is invalid: ") + e.what());
  } catch (const std::bad_alloc&) {
    return fail("out of memory while assembling the trace; record a smaller size");
  }
  return 0;
}

}  // namespace

int record_exec(const ExecOptions& o, int m, int n, int k, double timeout, const std::string& out) {
  std::vector<std::string> launches;
  std::uint32_t traced = 0;
  const int status = trace_once(o, m, n, k, timeout, out, launches, traced);
  if (!o.all_launches || launches.empty()) return status;  // launches: set once the trace is written
  // The launches after it (a split-k GEMM's reduction), each in a trace of its own: the program again,
  // tracing its launch number j among all of them (a library picks the same kernels for the same call).
  constexpr std::size_t kMaxMore = 16;
  const std::string stem = out.ends_with(".tstrace") ? out.substr(0, out.size() - 8) : out;
  int worst = status;
  for (std::size_t j = traced + 1; j < launches.size() && j <= traced + kMaxMore; ++j) {
    ExecOptions next = o;
    next.kernel_name.clear();
    next.launch = j;
    const std::string path = stem + "." + std::to_string(j) + ".tstrace";
    std::printf("launch %zu of %zu, %s, after the traced one:\n", j, launches.size(),
                tracer::short_symbol_name(launches[j], 200).c_str());
    std::vector<std::string> again;
    std::uint32_t index = 0;
    const int s = trace_once(next, m, n, k, timeout, path, again, index);
    if (s != 0 && worst == 0) worst = s;
  }
  return worst;
}

}  // namespace ts::cli
