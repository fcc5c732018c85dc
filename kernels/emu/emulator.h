// emulator.h — run a kernel family on the CPU and record every access.
//
// Each block's threads are fibers (Boost.Context) that switch at
// __syncthreads(); blocks are spread over worker threads. Two passes, as on the
// GPU: the first counts each thread's events, the second writes them straight
// into their place in the trace.
#pragma once

#include <functional>
#include <span>
#include <stdexcept>
#include <string>

#include "trace/trace.h"
#include "kernels/emu/kernel_args.h"
#include "kernels/emu/sanitizer.h"
#include "kernels/kernel_kind.h"

namespace ts::emu {

// A kernel did something a GPU would not allow: an access outside its arrays,
// or threads of a block that disagree about a barrier.
class EmulatorError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A launch still running at its deadline (a loop that never ends): stopped.
// The message names where the block's threads were: block, thread, the
// source lines of their last accesses.
class TimedOutError : public EmulatorError {
 public:
  using EmulatorError::EmulatorError;
};

// A launch larger than a trace holds (more events than the recording limit, more
// barriers than an event counts): the size's fault, not the kernel's.
class TooLargeError : public EmulatorError {
 public:
  using EmulatorError::EmulatorError;
};

// How to run a launch: workers (0: one per core), the checks (sanitizer.h; a
// user's kernel runs with them on), and whether to keep each event's source
// line in trace.lines.
// event_limit: refuse, after the counting pass, a launch that would make more
// events (0: no limit; a user kernel's count is known only then).
// timeout_seconds: stop the launch with TimedOutError once it has run that
// long, both passes together (0: no limit).
struct LaunchOptions {
  unsigned workers = 0;
  CheckOptions check;
  bool lines = true;
  std::uint64_t event_limit = 0;
  double timeout_seconds = 0;
  bool c_starts_zero = false;  // C starts at 0, not NaN: a user kernel that reads it for beta C (kernels/user/user_args.h)
};

// Records one launch. On entry trace.launch (kernel shape, sizes, array
// layouts of A, B and C, iteration rule) and trace.a / trace.b are set and
// trace.c has m * n elements; on return trace.c holds the kernel's result and
// trace.events / trace.thread_offsets the recording. workers = 0: one per core.
void record_launch(KernelKind kind, Trace& trace, unsigned workers = 0);
// The same with options; returns what the checks found (empty with them off).
// Without checks, a fault throws EmulatorError; with them, it is a finding, and
// CheckMode::Stop returns at the first with trace.thread_offsets empty.
CheckReport record_launch(KernelKind kind, Trace& trace, const LaunchOptions& options);

// Runs the launch without keeping its events: each worker records one block at
// a time (the same two passes, into a buffer of one block's size) and hands it
// to visit(worker, block, one_block) as a trace of one block (launch.grid is
// 1 x 1 x 1; `block` is its place in the real grid; the events buffer may be
// longer than the block's events: thread_offsets bounds them). Workers call
// visit concurrently, each with its own number below `workers`. On return
// trace.c holds the result; returns the largest block buffer in bytes.
// only: run just these blocks (C then holds only their cells); empty: all.
using BlockVisitor = std::function<void(unsigned worker, std::uint32_t block, const Trace& one_block)>;
// timeout_seconds: as LaunchOptions'.
std::uint64_t stream_launch(KernelKind kind, Trace& trace, unsigned workers, const BlockVisitor& visit,
                            std::span<const std::uint32_t> only = {}, double timeout_seconds = 0);

// The same for any kernel compiled in the emulator's mode (tests use this to
// check that the emulator catches kernels that a GPU would not run safely).
// (kernel_args.h.)
void record_launch_with(KernelEntry entry, Trace& trace, unsigned workers = 0);
CheckReport record_launch_with(KernelEntry entry, Trace& trace, const LaunchOptions& options);

}  // namespace ts::emu
