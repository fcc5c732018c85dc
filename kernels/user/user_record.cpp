// user_record.cpp — compile, record and describe a user kernel.
#include "kernels/user/user_record.h"

#include <algorithm>

#include "kernels/cuda/gpu_runtime.h"
#include "kernels/emu/emulator.h"
#include "kernels/user/cpu_compiler.h"

namespace ts {
namespace {

using RK = RecordError::Kind;

RecordError as_record_error(const UserKernelError& e) {
  switch (e.kind()) {
    case UserKernelError::Kind::BadSpec: return {RK::InvalidParams, e.what()};
    case UserKernelError::Kind::NoFile:
    case UserKernelError::Kind::NoCompiler: return {RK::KernelUnavailable, e.what()};
    case UserKernelError::Kind::Compile:
    case UserKernelError::Kind::NoEntry: return {RK::KernelCompile, e.what()};
  }
  return {RK::KernelCompile, e.what()};
}

LaunchInfo describe_user(const RecordParams& p) {
  const UserKernelSpec& s = *p.user;
  LaunchInfo L;
  L.kernel = s.entry;  // a trace's kernel name is an identifier; the file is in user_kernel
  L.grid = s.grid(p.m, p.n);
  L.block = s.block;
  set_matrix_layouts(L, p.m, p.n, p.k);
  // Provisional, until the recording shows the barriers (derive_iteration_rule): by k, one step per k.
  L.iteration_rule = {0, 1, static_cast<std::uint32_t>(p.k), static_cast<std::uint32_t>(p.n),
                      static_cast<std::uint32_t>(p.k), 0, 0};
  // No regions yet: the recorders add each TS_SHARED region as the kernel declares it.
  L.user_kernel = UserKernelInfo{s.file, s.entry, s.defines, static_cast<std::uint32_t>(s.rows_per_block()),
                                 static_cast<std::uint32_t>(s.cols_per_block()), s.args};
  return L;
}

std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return (a + b - 1) / b; }

}  // namespace

void validate_user(const RecordParams& p) {
  try {
    validate_user_spec(*p.user);
  } catch (const UserKernelError& e) {
    throw as_record_error(e);
  }
  if (p.m < 1 || p.n < 1 || p.k < 1)
    throw RecordError(RK::InvalidParams, "sizes must be at least 1 (M=" + std::to_string(p.m) +
                                             " N=" + std::to_string(p.n) + " K=" + std::to_string(p.k) + ")");
  const std::uint64_t mk = std::uint64_t(p.m) * p.k, kn = std::uint64_t(p.k) * p.n, mn = std::uint64_t(p.m) * p.n;
  if (std::max({mk, kn, mn}) > 0xFFFFFFF0ull)
    throw RecordError(RK::TooLarge, "a trace indexes each matrix with 32 bits: M=" + std::to_string(p.m) +
                                        " N=" + std::to_string(p.n) + " K=" + std::to_string(p.k) + " is too large");
  const Dim3 grid = p.user->grid(p.m, p.n);
  if (grid.y > 65535)
    throw RecordError(RK::TooLarge, "M=" + std::to_string(p.m) + " needs " + std::to_string(grid.y) +
                                        " block rows; CUDA allows at most 65535");
}

IterationRule derive_iteration_rule(const Trace& t, int fallback_step) {
  const LaunchInfo& L = t.launch;
  IterationRule r{};
  r.k = static_cast<std::uint32_t>(L.k);
  r.n = static_cast<std::uint32_t>(L.n);
  std::uint32_t barriers = 0;  // the most barriers any thread passed before an access
  std::uint32_t a_step = 0, b_step = 0;  // the k extent loaded from A, from B, before the first barrier
  for (const Event& e : t.events.span()) {
    barriers = std::max<std::uint32_t>(barriers, e.epoch);
    if (e.epoch != 0 || !e.is_global_load()) continue;
    if (e.array_id() == ArrayId::A) a_step = std::max(a_step, e.index % r.k + 1);
    if (e.array_id() == ArrayId::B) b_step = std::max(b_step, e.index / r.n + 1);
  }
  const std::uint32_t step = barriers == 0 ? static_cast<std::uint32_t>(std::max(1, fallback_step))
                             : a_step    ? a_step
                             : b_step    ? b_step
                                         : r.k;
  r.tile = std::min(step, r.k);
  r.iterations = ceil_div(r.k, r.tile);
  if (barriers == 0) return r;  // barriers_per_iteration 0: by k
  if (barriers % r.iterations == 0) {
    r.barriers_per_iteration = barriers / r.iterations;
  } else {
    r.barriers_per_iteration = std::max(1u, barriers / r.iterations);
    r.barriers_before = barriers > r.barriers_per_iteration * r.iterations
                            ? barriers - r.barriers_per_iteration * r.iterations
                            : 0;
    r.global_by_k = 1;
  }
  return r;
}

void restamp_iterations(Trace& t) {
  const IterationRule& rule = t.launch.iteration_rule;
  for (Event& e : t.events.span()) e.iter = iteration_of(rule, e.array_id(), e.index, e.epoch);
}

Trace record_user_kernel(const RecordParams& params, emu::CheckReport* report) {
  validate_user(params);
  const UserKernelSpec& spec = *params.user;
  if (params.check.enabled() && params.device == DeviceChoice::Gpu)
    throw RecordError(RK::InvalidParams, "--check runs the launch on the emulator: use --device cpu or auto, or --check=off");
  gpu::DeviceStatus gpu_status;
  const bool on_gpu = !params.check.enabled() && choose_gpu(params, gpu_status);
  Trace t;
  t.launch = describe_user(params);
  fill_launch_inputs(t, params);
  const std::uint64_t limit = params.event_limit ? params.event_limit : default_event_limit();
  try {
    if (on_gpu) {
      try {
        const gpu::LaunchDeadline deadline(params.timeout_seconds);
        gpu::record_user_launch(spec, t, limit);
      } catch (const gpu::GpuTimeout& e) {
        throw RecordError(RK::GpuTimedOut, "recording " + spec.label() + " on the GPU: " + e.what());
      } catch (const gpu::GpuTooLarge& e) {
        throw RecordError(RK::TooLarge, spec.label() + " at M=" + std::to_string(params.m) + " N=" +
                                            std::to_string(params.n) + " K=" + std::to_string(params.k) +
                                            " is beyond the recording limit: " + e.what());
      } catch (const gpu::GpuError& e) {
        throw RecordError(RK::GpuFailed, std::string("recording on the GPU failed: ") + e.what());
      }
      t.launch.recorder = "gpu";
      t.launch.device_name = gpu_status.name;
    } else {
      const CompiledCpuKernel compiled = compile_for_emulator(spec);
      try {
        emu::LaunchOptions options;
        options.workers = params.cpu_workers;
        options.check = params.check;
        options.event_limit = limit;
        options.timeout_seconds = params.timeout_seconds;
        options.c_starts_zero = compiled.c_starts_zero;
        emu::CheckReport found = emu::record_launch_with(compiled.entry, t, options);
        const bool stopped = found.stopped;
        if (report) *report = std::move(found);
        if (stopped) {  // nothing recorded: no rule to derive
          t.launch.recorder = "emulator";
          t.launch.device_name = "CPU emulator";
          return t;
        }
      } catch (const emu::TooLargeError& e) {
        throw RecordError(RK::TooLarge, spec.label() + " at M=" + std::to_string(params.m) + " N=" +
                                            std::to_string(params.n) + " K=" + std::to_string(params.k) +
                                            " is beyond the recording limit: " + e.what());
      } catch (const emu::TimedOutError& e) {
        throw RecordError(RK::TimedOut, std::string("the emulator stopped ") + spec.label() + ": " + e.what());
      } catch (const emu::EmulatorError& e) {
        throw RecordError(RK::EmulatorFailed, std::string("the emulator stopped ") + spec.label() + ": " + e.what());
      }
      t.launch.recorder = "emulator";
      t.launch.device_name = "CPU emulator";
    }
  } catch (const UserKernelError& e) {
    throw as_record_error(e);
  }
  t.launch.iteration_rule = derive_iteration_rule(t, spec.cols_per_block());
  // What the loader would refuse is not written: an event counts 4095 k-steps at most.
  if (const IterationRule& r = t.launch.iteration_rule; r.iterations > kMaxIteration)
    throw RecordError(RK::TooLarge, spec.label() + " at K=" + std::to_string(params.k) +
                                        " is beyond the recording limit: its k-steps of " + std::to_string(r.tile) +
                                        " make " + std::to_string(r.iterations) +
                                        " of them, and an event counts at most " + std::to_string(kMaxIteration));
  t.launch.tile = static_cast<int>(t.launch.iteration_rule.tile);
  restamp_iterations(t);
  t.launch.date = utc_now_iso8601();
  return t;
}

}  // namespace ts
