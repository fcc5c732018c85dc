// recorder.h — record a trace: validate the request, make the inputs, run the
// instrumented kernel on the GPU or the emulator, and label the result.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "trace/trace.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/emu/sanitizer.h"
#include "kernels/kernel_kind.h"
#include "kernels/user/user_kernel.h"

namespace ts {

enum class DeviceChoice { Auto, Gpu, Cpu };
enum class InputKind { Random, SmallIntegers };

struct RecordParams {
  KernelKind kernel = KernelKind::Tiled;
  int tile = 16;
  int m = 64, n = 64, k = 64;
  DeviceChoice device = DeviceChoice::Auto;
  InputKind inputs = InputKind::Random;  // SmallIntegers: 0..4, to follow by hand
  std::uint64_t seed = 0;                // 0: a fresh random seed
  std::uint64_t event_limit = 0;         // 0: default_event_limit()
  unsigned cpu_workers = 0;              // 0: one per core
  // A kernel the user wrote (kernels/user/): it replaces kernel and tile; m, n, k,
  // device, inputs, seed and check still apply.
  std::optional<UserKernelSpec> user;
  // The emulator's checks (kernels/emu/sanitizer.h): they run the launch on the
  // emulator (--device gpu is refused), and record() fills its report.
  emu::CheckOptions check;
  // A launch still running this long is stopped (the emulator) or abandoned
  // (the GPU: RecordError TimedOut, after which the process should exit);
  // 0: no limit.
  double timeout_seconds = 60;
};

class RecordError : public std::runtime_error {
 public:
  enum class Kind {
    InvalidParams, TooLarge, NoGpu, GpuFailed, EmulatorFailed,
    KernelUnavailable,  // a user kernel's file or compiler is missing
    KernelCompile,      // a user kernel does not compile, or has no such entry
    TimedOut,           // the launch ran past params.timeout_seconds (a loop that never ends)
    GpuTimedOut,        // the same on the GPU: the launch was abandoned, the CUDA context is busy for good
  };
  RecordError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// The recording limit is memory-based: a trace takes 16 bytes per event, and
// may use at most a quarter of this machine's memory, at most 8 GiB, and fewer
// than 2^32 events (the index numbers events with 32 bits).
std::uint64_t default_event_limit();

// Throws RecordError with a one-line message if params cannot be recorded.
void validate(const RecordParams& params);
// validate() without the event limit: what the counters (app/counters/counter.h) need, as they keep no events.
void validate_shape(const RecordParams& params);
// What any run of this launch needs: each matrix indexed with int (the kernels' row * K + col), a grid CUDA
// launches. validate() includes it; a focused recording (focused.h) and the whole-launch counters
// (app/counters/counter.h) call it themselves.
void validate_trace_fits(const RecordParams& params);

// With params.check on, `report` (required then) gets the findings; when the
// checks stopped the run (CheckMode::Stop), the trace holds no events.
Trace record(const RecordParams& params, emu::CheckReport* report = nullptr);

// The launch description and its seeded inputs, C poisoned with NaN, no events
// yet: what the recorders and the counters start from.
Trace prepare_launch(const RecordParams& params);
// The matrices' layouts (A, B, C at the emulator's addresses) and M, N, K.
void set_matrix_layouts(LaunchInfo& launch, int m, int n, int k);
// Seeds (params.seed, or a fresh one) and fills A and B; C is NaN.
void fill_launch_inputs(Trace& trace, const RecordParams& params);
// Where the recording runs for params.device; throws RecordError(NoGpu) for
// --device gpu without one. status: what the probe said (empty for --device cpu).
bool choose_gpu(const RecordParams& params, gpu::DeviceStatus& status);

// Each event's source line for trace: its own (Trace::lines), or for a trace
// of one of the project's kernels without them (a GPU recording, a file) the
// emulator's lines of the same launch, re-run, when every thread made as many
// events. Empty, with why, when there are none to have.
std::vector<std::uint16_t> source_lines(const Trace& trace, std::string& why);

// "gpu", "cpu" or "auto", for messages and flags.
const char* device_choice_name(DeviceChoice d);

}  // namespace ts
