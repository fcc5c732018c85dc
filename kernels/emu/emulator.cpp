// emulator.cpp — the CPU emulator: fibers, barriers, shared memory, the sink.
#include "kernels/emu/emulator.h"

// clang-format off
#include "kernels/emu/mode_emulator.h"
#include "kernels/all_kernels.h"
// clang-format on

#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define TS_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TS_EMU_ASAN 1
#endif
#endif

#if defined(TS_EMU_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#if defined(__EMSCRIPTEN__)
#include "kernels/emu/web_fiber.h"  // the browser build: emscripten fibers (Asyncify)
#else
#include <boost/context/fiber.hpp>
#endif
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/dispatch.h"
#include "kernels/emu/sanitizer.h"
#include "kernels/emu/warp_mma.h"
#include "kernels/undeclared_shared.h"

namespace ts::emu {
#if defined(__EMSCRIPTEN__)
namespace ctx = web_fiber;
#else
namespace ctx = boost::context;
#endif

namespace {

#if defined(TS_EMU_ASAN)
constexpr std::size_t kStackBytes = 256 * 1024;  // the sanitizer's frames are larger
#elif defined(__EMSCRIPTEN__)
constexpr std::size_t kStackBytes = 16 * 1024;  // wasm keeps most locals off this stack (web_fiber.h)
#else
constexpr std::size_t kStackBytes = 64 * 1024;
#endif

// AddressSanitizer must be told each time execution moves to another stack
// (it unpoisons the stack it knows of when an exception is thrown; thrown on a
// stack it does not know, it leaves stale poison behind that later reads as an
// overflow). Boost.Context's fcontext fibers do not tell it, so the switches
// below do: start before the jump, finish after it, on the stack arrived at.
struct StackSpan {
  const void* bottom = nullptr;
  std::size_t size = 0;
};

inline void switch_start([[maybe_unused]] void** fake_stack_save, [[maybe_unused]] StackSpan to) {
#if defined(TS_EMU_ASAN)
  __sanitizer_start_switch_fiber(fake_stack_save, to.bottom, to.size);
#endif
}

inline void switch_finish([[maybe_unused]] void* fake_stack_save, [[maybe_unused]] StackSpan* from) {
#if defined(TS_EMU_ASAN)
  __sanitizer_finish_switch_fiber(fake_stack_save, from ? &from->bottom : nullptr, from ? &from->size : nullptr);
#endif
}

// Thrown at a suspended thread's switch point when its block is abandoned
// (another thread faulted): its frames unwind on its own stack, in the open,
// instead of through Boost's forced unwinding from the fiber's destructor.
struct Abandoned {};

// Fiber stacks, each with a guard page below it, mapped once for the whole
// process and reused by every block of every recording: a TILE = 32 block
// starts 1024 fibers, and mapping their stacks afresh each time (mmap,
// mprotect, munmap) cost more than the emulation itself at N = 64.
class StackPool {
 public:
#if defined(__EMSCRIPTEN__)
  StackPool() : page_(0) {}  // WebAssembly memory has no protection: no guard page
#else
  StackPool() : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {}
#endif
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool() {
    for (void* base : mapped_) munmap(base, kStackBytes + page_);
  }
  ctx::stack_context allocate() {
    void* base = nullptr;
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        base = free_.back();
        free_.pop_back();
      }
    }
    if (!base) {
      base = mmap(nullptr, kStackBytes + page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (base == MAP_FAILED) throw std::bad_alloc();
      mprotect(base, page_, PROT_NONE);  // guard page: an overflow faults instead of corrupting
      std::lock_guard lock(mutex_);
      mapped_.push_back(base);
    }
    ctx::stack_context sc;
    sc.size = kStackBytes;
    sc.sp = static_cast<char*>(base) + page_ + kStackBytes;
    return sc;
  }
  void deallocate(ctx::stack_context& sc) {
    std::lock_guard lock(mutex_);
    free_.push_back(static_cast<char*>(sc.sp) - kStackBytes - page_);
  }

 private:
  std::size_t page_;
  std::mutex mutex_;
  std::vector<void*> mapped_, free_;
};

StackPool g_stacks;

struct PoolAllocator {
  StackPool* pool;
  StackSpan* span;  // where the stack it hands out lies (for the sanitizer's switches)
  ctx::stack_context allocate() {
    ctx::stack_context sc = pool->allocate();
    *span = {static_cast<char*>(sc.sp) - sc.size, sc.size};
    return sc;
  }
  void deallocate(ctx::stack_context& sc) { pool->deallocate(sc); }
};

template <KernelKind KIND, int TILE>
void kernel_entry(const KernelArgs& p) {
  run_kernel<KIND, TILE>(InMatrix{p.a, ArrayId::A}, InMatrix{p.b, ArrayId::B}, OutMatrix{p.c, ArrayId::C}, p.m, p.n,
                         p.k);
}

// What every fiber of one pass shares: read-only during the pass.
struct Pass {
  IterationRule rule{};
  std::array<std::uint64_t, kMaxMemoryIds> elements{};  // valid indices per memory id
  std::array<ArrayLayout, kMaxMemoryIds> arrays{};      // for the checks' messages
  Dim3 grid, block;
  Event* events = nullptr;                 // record pass: where events go
  const std::uint64_t* offsets = nullptr;  // record pass: each thread's first event
  std::uint64_t* counts = nullptr;         // count pass: each thread's event count
  std::uint16_t* lines = nullptr;          // record pass: each event's source line (or null)
  // --check: faults become findings (reported in the count pass only; the record pass repeats the run).
  const CheckOptions* check = nullptr;
  CheckReport* report = nullptr;
  std::mutex* report_mutex = nullptr;
  bool one_block = false;  // counts/offsets hold one block's threads (stream_launch), not the grid's
  KernelEntry entry = nullptr;
  KernelArgs args{};
  // Byte offset of each shared tile in the block's shared memory, as declared.
  std::array<std::atomic<std::int64_t>, kMaxMemoryIds>* shared_offsets = nullptr;
  // Each shared tile's rows << 32 | cols, as declared (a user kernel's are known only here).
  std::array<std::atomic<std::uint64_t>, kMaxMemoryIds>* shared_shapes = nullptr;
  MemoryNames* names = nullptr;  // each memory id's name, the regions' as declared
  // Past this the launch stops (TimedOutError); timeout_seconds says how long that was.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  double timeout_seconds = 0;
};

// A cp.async copy issued and not yet waited for: its value lands at the wait.
struct CopyInFlight {
  float* word;
  float value;
  std::uint32_t group;  // the commit group it belongs to (the count of commits before it)
};

struct FiberThread {
  std::vector<CopyInFlight> copies;
  std::uint32_t commits = 0;
  Event* out = nullptr;  // null while counting
  std::uint16_t* lines_out = nullptr;  // parallel to out, when lines are kept
  std::uint32_t linear = 0;            // thread index in its block
  rec::Origin origin[2];               // where the next access comes from (Sink::note)
  bool has_origin[2] = {false, false};
  std::uint32_t barrier_line = 0;      // the __syncthreads() it waits at
  std::uint64_t seq = 0, capacity = 0;
  std::uint32_t epoch = 0;
  std::uint32_t last_line = 0;    // the source line of its latest access
  std::uint32_t since_check = 0;  // accesses (and barriers) since it last looked at the clock
  uint3 tid;
  bool at_barrier = false, done = false;
  // Parked at mma_tf32 until the warp's other lanes arrive: its fragments.
  bool at_mma = false;
  float* mma_c = nullptr;
  const std::uint32_t* mma_a = nullptr;
  const std::uint32_t* mma_b = nullptr;
  std::uint32_t shared_declared = 0;
  std::uint32_t declared_rows = 0, declared_cols = 0;  // the tile this thread declared last
  std::exception_ptr error;
  ctx::fiber caller;
  bool abandon = false;      // set by the scheduler: unwind at the next switch point
  StackSpan stack, home;     // its own stack; the scheduler's (learnt at each switch)
  void* fake_stack = nullptr;  // the sanitizer's state for this stack while away
};

struct SharedDecl {
  std::uint32_t offset_words, words;
};

struct BlockRun {
  std::vector<FiberThread> threads;
  void* fake_stack = nullptr;  // the sanitizer's state for the scheduler's stack while a thread runs
  std::vector<float> shared;  // the block's shared memory, poisoned with NaN at block start
  std::vector<std::uint8_t> in_flight;  // per shared word: a cp.async copy to it has not been waited for
  std::vector<SharedDecl> decls;
  std::unique_ptr<BlockChecker> checker;  // --check: this worker's shadow and findings
};

thread_local const Pass* t_pass = nullptr;
thread_local BlockRun* t_block = nullptr;
thread_local FiberThread* t_thread = nullptr;

constexpr std::uint32_t kSharedWords = 64 * 1024 / 4;  // 64 KB: more than any kernel here declares
constexpr std::uint32_t kFirstRegion = 3;  // memory ids: A, B, C, then the shared regions in declaration order

std::string this_thread() {
  const uint3 b = blockIdx, t = threadIdx;
  return "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + ") thread (" + std::to_string(t.x) + "," +
         std::to_string(t.y) + ")";
}

[[noreturn]] void fault(const std::string& what) { throw EmulatorError(this_thread() + ": " + what); }

// The deadline is looked at every this many accesses (a barrier counts 64): a
// clock read per access would cost more than the access.
constexpr std::uint32_t kCheckEvery = 4096;

// Stops the launch at its deadline, saying where the block's threads are.
[[noreturn]] void timed_out(const FiberThread& t) {
  std::vector<std::uint32_t> lines;
  std::uint32_t running = 0;
  if (t_block)
    for (const FiberThread& other : t_block->threads) {
      if (other.done) continue;
      ++running;
      if (other.last_line != 0 && std::find(lines.begin(), lines.end(), other.last_line) == lines.end())
        lines.push_back(other.last_line);  // 0: it has not run yet (the scheduler runs one thread to its next barrier)
    }
  std::sort(lines.begin(), lines.end());
  std::string where;
  for (std::size_t i = 0; i < lines.size() && i < 8; ++i) where += (i ? ", " : "") + std::to_string(lines[i]);
  if (lines.size() > 8) where += ", ...";
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", t_pass->timeout_seconds);
  throw TimedOutError(std::string("the launch was still running after ") + seconds + " s and was stopped: " +
                      this_thread() + " was at line " + std::to_string(t.last_line) + " (its latest access); " +
                      std::to_string(running) + " threads of its block had not finished, those that ran at lines " +
                      where + ": a loop that never ends?");
}

inline void check_deadline(FiberThread& t, std::uint32_t weight) {
  if ((t.since_check += weight) < kCheckEvery) return;
  t.since_check = 0;
  if (std::chrono::steady_clock::now() > t_pass->deadline) timed_out(t);
}

void record(ArrayId array, std::uint32_t index, float value, std::uint8_t flags, std::uint32_t line,
            Width width = Width::B4, bool async = false) {
  FiberThread& t = *t_thread;
  t.last_line = line;
  check_deadline(t, 1);
  if (t.out) {
    if (t.seq >= t.capacity) fault("made more accesses than in the counting pass");
    if (t.lines_out) t.lines_out[t.seq] = static_cast<std::uint16_t>(std::min<std::uint32_t>(line, 0xFFFF));
    Event& e = t.out[t.seq];
    e.index = index;
    e.value = value;
    e.epoch = static_cast<std::uint16_t>(t.epoch);
    e.iter = iteration_of(t_pass->rule, array, index, t.epoch);
    e.array = static_cast<std::uint8_t>(array);
    e.flags = static_cast<std::uint8_t>(space_of(array) == Space::Shared ? flags | kFlagShared : flags);
    e.width = static_cast<std::uint8_t>(width);
    e.async = async ? 1 : 0;
  }
  ++t.seq;
}

// Where the access the sink now handles comes from (Sink::note), once.
rec::Origin take_origin(int slot, std::uint32_t index) {
  FiberThread& t = *t_thread;
  if (!t.has_origin[slot]) return {0, index, -1};
  t.has_origin[slot] = false;
  return t.origin[slot];
}

std::string name_of(ArrayId array) { return t_pass->names->of(array); }

std::string extent_of(ArrayId array) {
  const ArrayLayout& a = t_pass->arrays[static_cast<int>(array)];
  std::uint64_t rows = a.rows, cols = a.cols;
  if (space_of(array) == Space::Shared && (!a.present || a.cols == kUndeclaredShared) && t_pass->shared_shapes) {
    // A user kernel's tile: its shape is what TS_SHARED declared, not the placeholder.
    const std::uint64_t declared = (*t_pass->shared_shapes)[static_cast<int>(array)].load(std::memory_order_relaxed);
    if (declared) rows = declared >> 32, cols = declared & 0xFFFFFFFFu;
  }
  const std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
  if (space_of(array) == Space::Shared) return name_of(array) + " is " + shape;
  return name_of(array) + " has " + std::to_string(a.elements()) + " elements, " + shape;
}

// Whether the access may go ahead: outside its array it is a fault, or with
// --check a finding, and then the access is not performed.
bool inside(ArrayId array, std::uint32_t index, const rec::Origin& o, bool store) {
  const std::uint64_t n = t_pass->elements[static_cast<int>(array)];
  bool ok = index < n;
  if (o.line != 0 && space_of(array) == Space::Global) ok = ok && o.row >= 0 && static_cast<std::uint64_t>(o.row) < n;
  if (ok) return true;
  if (!t_pass->check)
    fault(std::string("access outside ") + name_of(array) +
          (index == rec::kOutOfRange ? " (index past a tile edge)" : " (element " + std::to_string(index) + ")") +
          (o.line ? " at line " + std::to_string(o.line) : ""));
  t_block->checker->out_of_bounds(t_thread->linear, array, o.row, o.col, o.line, store, extent_of(array));
  return false;
}

// The checks' view of a shared word: races and reads of unwritten words.
void shadow_shared(ArrayId array, const float* word, bool store, const rec::Origin& o, std::uint32_t element = 0) {
  if (!t_pass->check || space_of(array) != Space::Shared) return;
  const auto w = static_cast<std::uint32_t>(word - t_block->shared.data());
  const std::int64_t col = o.col + element;  // the element of a vector access
  t_block->checker->shared_access(t_thread->linear, w, store, array, o.row, col, o.line);
}

// --check: a barrier that not every thread of the block reached, or threads at
// different barriers, is a finding, and the waiting threads go on.
void check_barrier(BlockRun& br) {
  const FiberThread* waiting = nullptr;
  const FiberThread* finished = nullptr;
  for (const FiberThread& t : br.threads) {
    if (t.done && !finished) finished = &t;
    if (!t.done && !waiting) waiting = &t;
  }
  if (finished) {
    br.checker->barrier_exit(finished->linear, waiting->linear, waiting->barrier_line);
    return;
  }
  for (const FiberThread& t : br.threads)
    if (t.barrier_line != waiting->barrier_line) {
      br.checker->barrier_mismatch(t.linear, t.barrier_line, waiting->linear, waiting->barrier_line);
      return;
    }
}

// Every thread of the block is parked (at a barrier, at an mma, or done).
// A warp whose lanes all wait at an mma gets its product, and its lanes run
// on; a warp with some lanes at an mma and others elsewhere can never meet
// there (a divergent mma, or a warp of fewer than 32 threads): an error, not
// a hang. Returns whether any warp met.
bool meet_at_mma(BlockRun& br) {
  const auto n = static_cast<std::uint32_t>(br.threads.size());
  bool met = false;
  for (std::uint32_t first = 0; first < n; first += mma::kWarpLanes) {
    const std::uint32_t lanes = std::min<std::uint32_t>(mma::kWarpLanes, n - first);
    std::uint32_t waiting = 0;
    for (std::uint32_t l = 0; l < lanes; ++l) waiting += br.threads[first + l].at_mma ? 1 : 0;
    if (waiting == 0) continue;
    if (waiting != mma::kWarpLanes) {
      std::uint32_t absent = 0;
      while (absent < lanes && br.threads[first + absent].at_mma) ++absent;
      threadIdx = br.threads[first + std::min(absent, lanes - 1)].tid;
      fault(absent < lanes ? "lane " + std::to_string(absent) + " of warp " + std::to_string(first / 32) +
                                 " never reached the mma_tf32 its warp waits at (an mma inside divergent code)"
                           : "mma_tf32 needs a whole warp of 32 threads; this one has " + std::to_string(lanes));
    }
    std::uint32_t a[32][4], b[32][2];
    float c[32][4];
    for (std::uint32_t l = 0; l < 32; ++l) {
      const FiberThread& t = br.threads[first + l];
      std::copy_n(t.mma_a, 4, a[l]);
      std::copy_n(t.mma_b, 2, b[l]);
      std::copy_n(t.mma_c, 4, c[l]);
    }
    warp_mma_tf32(a, b, c);
    for (std::uint32_t l = 0; l < 32; ++l) {
      FiberThread& t = br.threads[first + l];
      std::copy_n(c[l], 4, t.mma_c);
      t.at_mma = false;
    }
    met = true;
  }
  return met;
}

// The scheduler runs thread t up to its next switch point (or its end).
void run_thread(BlockRun& br, FiberThread& t, ctx::fiber& fiber) {
  t_thread = &t;
  threadIdx = t.tid;
  switch_start(&br.fake_stack, t.stack);
  fiber = std::move(fiber).resume();
  switch_finish(br.fake_stack, nullptr);
}

// A thread hands control back to the scheduler until it is resumed.
void yield_to_scheduler(FiberThread& t) {
  switch_start(&t.fake_stack, t.home);
  t.caller = std::move(t.caller).resume();
  switch_finish(t.fake_stack, &t.home);
  if (t.abandon) throw Abandoned{};
}

void schedule_block(const Pass& pass, BlockRun& br, std::vector<ctx::fiber>& fibers);

void run_block(const Pass& pass, std::uint32_t block_linear, BlockRun& br) {
  const std::uint32_t n = static_cast<std::uint32_t>(pass.block.count());
  const std::uint64_t first_thread = pass.one_block ? 0 : std::uint64_t{block_linear} * n;
  blockIdx = {block_linear % pass.grid.x, (block_linear / pass.grid.x) % pass.grid.y,
              block_linear / (pass.grid.x * pass.grid.y)};
  blockDim = {pass.block.x, pass.block.y, pass.block.z};
  gridDim = {pass.grid.x, pass.grid.y, pass.grid.z};
  std::fill(br.shared.begin(), br.shared.end(), std::numeric_limits<float>::quiet_NaN());
  std::fill(br.in_flight.begin(), br.in_flight.end(), 0);
  br.decls.clear();
  br.threads.clear();
  br.threads.resize(n);
  if (pass.check) {
    if (!br.checker) br.checker = std::make_unique<BlockChecker>(*pass.check, pass.counts != nullptr, pass.names);
    br.checker->start_block(block_linear, {blockIdx.x, blockIdx.y, blockIdx.z}, pass.block, kSharedWords);
  }
  std::vector<ctx::fiber> fibers;
  fibers.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    FiberThread& t = br.threads[i];
    t.tid = {i % pass.block.x, (i / pass.block.x) % pass.block.y, i / (pass.block.x * pass.block.y)};
    t.linear = i;
    if (pass.events) {
      t.out = pass.events + pass.offsets[first_thread + i];
      if (pass.lines) t.lines_out = pass.lines + pass.offsets[first_thread + i];
      t.capacity = pass.offsets[first_thread + i + 1] - pass.offsets[first_thread + i];
    }
    fibers.emplace_back(std::allocator_arg, PoolAllocator{&g_stacks, &t.stack}, [&t, &pass](ctx::fiber&& caller) {
      switch_finish(nullptr, &t.home);
      t.caller = std::move(caller);
      try {
        if (!t.abandon) pass.entry(pass.args);
      } catch (const Abandoned&) {
      } catch (const ctx::detail::forced_unwind&) {
        throw;
      } catch (...) {
        t.error = std::current_exception();
      }
      t.done = true;
      switch_start(nullptr, t.home);  // this stack ends here
      return std::move(t.caller);
    });
  }
  t_block = &br;
  try {
    schedule_block(pass, br, fibers);
  } catch (...) {
    // A thread faulted: unwind the others where they wait (or before they start),
    // each on its own stack, before their fibers go.
    const std::exception_ptr failure = std::current_exception();
    for (std::uint32_t i = 0; i < n; ++i) {
      FiberThread& t = br.threads[i];
      if (t.done) continue;
      t.abandon = true;
      run_thread(br, t, fibers[i]);
    }
    t_thread = nullptr;
    std::rethrow_exception(failure);
  }
  if (pass.counts) {
    for (std::uint32_t i = 0; i < n; ++i) pass.counts[first_thread + i] = br.threads[i].seq;
  } else {
    for (std::uint32_t i = 0; i < n; ++i)
      if (br.threads[i].seq != br.threads[i].capacity) {
        threadIdx = br.threads[i].tid;
        fault("made fewer accesses than in the counting pass");
      }
  }
}

// Runs the block's threads, barrier interval by barrier interval, until all end.
void schedule_block(const Pass& pass, BlockRun& br, std::vector<ctx::fiber>& fibers) {
  const auto n = static_cast<std::uint32_t>(br.threads.size());
  for (;;) {
    // Run every thread up to its next barrier (or its end), in thread order.
    for (std::uint32_t i = 0; i < n; ++i) {
      FiberThread& t = br.threads[i];
      if (t.done || t.at_barrier || t.at_mma) continue;
      run_thread(br, t, fibers[i]);
      if (t.error) std::rethrow_exception(t.error);
    }
    if (meet_at_mma(br)) continue;  // warps met at an mma: run their lanes on
    std::uint32_t done = 0;
    for (const auto& t : br.threads) done += t.done ? 1 : 0;
    if (done == n) break;
    if (pass.check) {
      check_barrier(br);
      br.checker->next_interval();
    } else if (done != 0) {
      threadIdx = br.threads[0].tid;
      fault("some threads of the block finished while others wait at __syncthreads() (barrier " +
            std::to_string(std::max_element(br.threads.begin(), br.threads.end(),
                                            [](auto& x, auto& y) { return x.epoch < y.epoch; })
                               ->epoch) +
            "): a barrier inside divergent code");
    }
    for (auto& t : br.threads) t.at_barrier = false;
  }
}

// Spreads the indices [0, blocks) over `workers` threads (at least one, at most
// one per index). Each thread calls setup(w) once, which points t_pass at the
// pass it uses and returns its own state, then body(state, w, i, br) for each
// index it takes, with a BlockRun of its own. The first exception stops the
// others and is rethrown here.
template <class Setup, class Body>
void run_workers(unsigned workers, std::uint32_t blocks, Setup&& setup, Body&& body) {
  std::atomic<std::uint32_t> next{0};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  auto worker = [&](unsigned w) {
    BlockRun br;
    br.shared.resize(kSharedWords);
    br.in_flight.resize(kSharedWords);
    try {
      auto state = setup(w);
      for (std::uint32_t i; (i = next.fetch_add(1)) < blocks;) body(state, w, i, br);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!first_error) first_error = std::current_exception();
      next = blocks;  // stop the others
    }
    if (br.checker && t_pass && t_pass->report) {
      std::lock_guard lock(*t_pass->report_mutex);
      t_pass->report->merge(br.checker->take(), t_pass->check->cap);
    }
    t_pass = nullptr;
    t_block = nullptr;
    t_thread = nullptr;
  };
  workers = std::max(1u, std::min(workers, blocks));
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(worker, w);
  worker(0);
  for (auto& th : pool) th.join();
  if (first_error) std::rethrow_exception(first_error);
}

void run_pass(const Pass& pass, unsigned workers) {
  run_workers(
      workers, static_cast<std::uint32_t>(pass.grid.count()),
      [&](unsigned) {
        t_pass = &pass;
        return 0;
      },
      [&](int, unsigned, std::uint32_t b, BlockRun& br) { run_block(pass, b, br); });
}

}  // namespace

// ---- the sink: what the recorded kernel calls -------------------------------

// A shared word whose cp.async copy has not been waited for holds no data yet.
void check_landed(ArrayId array, const float* base, std::uint32_t index) {
  if (space_of(array) != Space::Shared) return;
  BlockRun& br = *t_block;
  const auto word = static_cast<std::size_t>(base + index - br.shared.data());
  if (word < br.in_flight.size() && br.in_flight[word])
    fault(std::string("reads ") + name_of(array) + " element " + std::to_string(index) +
          " before the cp.async copy to it was waited for (cp_async_wait)");
}

float Sink::load(ArrayId array, const float* base, std::uint32_t index) {
  const rec::Origin o = take_origin(0, index);
  if (!inside(array, index, o, false)) return 0.0f;
  check_landed(array, base, index);
  shadow_shared(array, base + index, false, o);
  const float v = base[index];
  record(array, index, v, 0, o.line);
  return v;
}

void Sink::store(ArrayId array, float* base, std::uint32_t index, float value, std::uint8_t flags) {
  const rec::Origin o = take_origin(0, index);
  if (!inside(array, index, o, true)) return;
  shadow_shared(array, base + index, true, o);
  base[index] = value;
  record(array, index, value, flags, o.line);
}

void Sink::note(const rec::Origin& origin, int slot) {
  t_thread->origin[slot] = origin;
  t_thread->has_origin[slot] = true;
}

// One access of 2 or 4 floats: aligned as the hardware requires (else a
// fault), all inside (else a fault, or with --check a finding: not performed).
bool check_vector(ArrayId array, std::uint32_t index, Width width, const rec::Origin& o, bool store) {
  const std::uint32_t n = floats_of(width);
  if (index != rec::kOutOfRange && index % n != 0)
    fault(std::string("misaligned ") + std::to_string(bytes_of(width)) + "-byte access to " + name_of(array) +
          " element " + std::to_string(index) + ": its index must be a multiple of " + std::to_string(n));
  rec::Origin last = o;
  if (space_of(array) == Space::Global) last.row += n - 1;
  else last.col += n - 1;
  return inside(array, index, o, store) &&
         inside(array, index == rec::kOutOfRange ? index : index + n - 1, last, store);
}

void Sink::load_vector(ArrayId array, const float* base, std::uint32_t index, Width width, float* out) {
  const rec::Origin o = take_origin(0, index);
  std::fill(out, out + floats_of(width), 0.0f);
  if (!check_vector(array, index, width, o, false)) return;
  for (std::uint32_t i = 0; i < floats_of(width); ++i) check_landed(array, base, index + i);
  for (std::uint32_t i = 0; i < floats_of(width); ++i) {
    shadow_shared(array, base + index + i, false, o, i);
    out[i] = base[index + i];
    record(array, index + i, out[i], 0, o.line, width);
  }
}

void Sink::store_vector(ArrayId array, float* base, std::uint32_t index, Width width, const float* values,
                        const std::uint8_t* flags) {
  const rec::Origin o = take_origin(0, index);
  if (!check_vector(array, index, width, o, true)) return;
  for (std::uint32_t i = 0; i < floats_of(width); ++i) {
    shadow_shared(array, base + index + i, true, o, i);
    base[index + i] = values[i];
    record(array, index + i, values[i], flags[i], o.line, width);
  }
}

void Sink::copy_async(ArrayId dst, float* dst_base, std::uint32_t dst_index, ArrayId src, const float* src_base,
                      std::uint32_t src_index, Width width) {
  if (space_of(dst) != Space::Shared || (src_base && space_of(src) != Space::Global))
    fault("cp.async copies from global to shared memory");
  if (width != Width::B4 && width != Width::B16) fault("cp.async copies 4 or 16 bytes");
  const rec::Origin o = take_origin(0, dst_index), src_o = take_origin(1, src_index);
  if (!check_vector(dst, dst_index, width, o, true)) return;
  if (src_base && !check_vector(src, src_index, width, src_o, false)) return;
  FiberThread& t = *t_thread;
  BlockRun& br = *t_block;
  float values[4] = {};
  if (src_base)
    for (std::uint32_t i = 0; i < floats_of(width); ++i) {
      values[i] = src_base[src_index + i];
      record(src, src_index + i, values[i], 0, src_o.line ? src_o.line : o.line, width, true);
    }
  const std::uint8_t flags = src_base ? kFlagStore : kFlagStore | kFlagPadding;  // zero fill: no read
  for (std::uint32_t i = 0; i < floats_of(width); ++i) {
    float* word = dst_base + dst_index + i;
    shadow_shared(dst, word, true, o, i);
    record(dst, dst_index + i, values[i], flags, o.line, width, true);
    t.copies.push_back({word, values[i], t.commits});
    br.in_flight[static_cast<std::size_t>(word - br.shared.data())] = 1;
  }
}

void Sink::commit_async() { ++t_thread->commits; }

// The copies of every committed group but the newest `pending` land.
void Sink::wait_async(int pending) {
  FiberThread& t = *t_thread;
  BlockRun& br = *t_block;
  const std::uint32_t keep = static_cast<std::uint32_t>(std::max(pending, 0));
  const std::uint32_t landed_below = t.commits > keep ? t.commits - keep : 0;
  std::size_t kept = 0;
  for (const CopyInFlight& c : t.copies) {
    if (c.group < landed_below) {
      *c.word = c.value;
      br.in_flight[static_cast<std::size_t>(c.word - br.shared.data())] = 0;
    } else {
      t.copies[kept++] = c;
    }
  }
  t.copies.resize(kept);
}

void Sink::barrier(std::uint32_t line) {
  FiberThread& t = *t_thread;
  t.barrier_line = line;
  check_deadline(t, 64);
  ++t.epoch;
  if (t.epoch > kMaxEpoch)
    throw TooLargeError(this_thread() + " passes more than " + std::to_string(kMaxEpoch) +
                        " barriers, more than an event counts: record a smaller K");
  t.at_barrier = true;
  yield_to_scheduler(t);  // until the whole block is here
}

float Sink::load_fragment(ArrayId array, const float* base, std::uint32_t index, Width width, bool continues) {
  if (space_of(array) != Space::Shared) fault("loads an mma fragment from global memory (fragments come from shared tiles)");
  const rec::Origin o = take_origin(0, index);
  if (!inside(array, index, o, false)) return 0.0f;
  check_landed(array, base, index);
  shadow_shared(array, base + index, false, o);
  const float v = base[index];
  record(array, index, v, kFlagFragment, o.line, width, continues);  // event.h: the async bit marks a later register
  return v;
}

// The lane parks until its warp's other 31 lanes arrive (meet_at_mma computes
// the product into c); the fragments stay on this fiber's stack meanwhile.
void Sink::mma_tf32(float (&c)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  FiberThread& t = *t_thread;
  t.mma_c = c;
  t.mma_a = a;
  t.mma_b = b;
  t.at_mma = true;
  yield_to_scheduler(t);
}

void Sink::shared_base(ArrayId array, const float* base) {
  const auto offset = static_cast<std::int64_t>((base - t_block->shared.data()) * sizeof(float));
  (*t_pass->shared_offsets)[static_cast<int>(array)].store(offset, std::memory_order_relaxed);
  // SharedArray2D announces its base right after TS_SHARED declared its words.
  const FiberThread& t = *t_thread;
  (*t_pass->shared_shapes)[static_cast<int>(array)].store(std::uint64_t{t.declared_rows} << 32 | t.declared_cols,
                                                          std::memory_order_relaxed);
}

float* shared_words(std::uint32_t rows, std::uint32_t cols, const char* name, std::uint32_t element_bytes) {
  BlockRun& br = *t_block;
  FiberThread& t = *t_thread;
  const std::uint32_t words = rows * cols * element_bytes / 4;
  const std::uint32_t n = t.shared_declared++;
  if (kFirstRegion + n >= kMaxMemoryIds)
    fault("declares more than " + std::to_string(kMaxMemoryIds - kFirstRegion) + " shared regions");
  const char* expected = nullptr;  // the first declaration names it; the block's other threads agree
  t_pass->names->declared[kFirstRegion + n].compare_exchange_strong(expected, name, std::memory_order_relaxed);
  t.declared_rows = rows;
  t.declared_cols = cols;
  if (n < br.decls.size()) {
    if (br.decls[n].words != words) fault("threads of a block declare different shared tiles");
    return br.shared.data() + br.decls[n].offset_words;
  }
  const std::uint32_t offset = br.decls.empty() ? 0 : ((br.decls.back().offset_words + br.decls.back().words + 3) & ~3u);
  if (offset + words > kSharedWords) fault("declares more shared memory than the emulator has (64 KB)");
  br.decls.push_back({offset, words});
  return br.shared.data() + offset;
}

ArrayId declared_region() {
  const FiberThread& t = *t_thread;
  return static_cast<ArrayId>(kFirstRegion + t.shared_declared - 1);
}

KernelEntry builtin_entry(KernelKind kind, int tile) {
  return dispatch(kind, tile, []<KernelKind K, int T>() -> KernelEntry { return &kernel_entry<K, T>; });
}

void record_launch(KernelKind kind, Trace& trace, unsigned workers) {
  record_launch_with(builtin_entry(kind, trace.launch.tile), trace, LaunchOptions{workers, {}});
}

CheckReport record_launch(KernelKind kind, Trace& trace, const LaunchOptions& options) {
  return record_launch_with(builtin_entry(kind, trace.launch.tile), trace, options);
}

namespace {

struct SharedLayouts {
  std::array<std::atomic<std::int64_t>, kMaxMemoryIds> offsets;
  std::array<std::atomic<std::uint64_t>, kMaxMemoryIds> shapes;
  MemoryNames names;
};

Pass make_pass(KernelEntry entry, Trace& trace, SharedLayouts& shared) {
  const LaunchInfo& L = trace.launch;
  Pass pass;
  pass.rule = L.iteration_rule;
  pass.grid = L.grid;
  pass.block = L.block;
  // A, B, C and the regions the catalog describes have their layouts; a region
  // only the kernel's declaration describes is bounded by its declared shape
  // (SharedArray2D checks every subscript against it).
  for (std::uint32_t a = 0; a < kMaxMemoryIds; ++a) {
    const ArrayLayout l = a < kArrayCount ? L.array(ArrayId(a)) : ArrayLayout{};
    pass.arrays[a] = l;
    pass.elements[a] = l.present ? l.elements() : a >= kFirstRegion ? kUndeclaredShared : 0;
  }
  pass.entry = entry;
  pass.args = {trace.a.data(), trace.b.data(), trace.c.data(), L.m, L.n, L.k};
  for (auto& o : shared.offsets) o = -1;
  for (auto& s : shared.shapes) s = 0;
  for (auto& n : shared.names.declared) n = nullptr;
  pass.shared_offsets = &shared.offsets;
  pass.shared_shapes = &shared.shapes;
  pass.names = &shared.names;
  return pass;
}

// The launch's shared regions, as the kernel declared them: region n is the
// n-th TS_SHARED, by its name, at its offset; a region the catalog describes
// (tilescope's own As and Bs) keeps the catalog's layout, its offset as laid out.
void set_shared_bases(LaunchInfo& launch, const SharedLayouts& shared) {
  std::vector<Region> regions;
  for (std::uint32_t a = kFirstRegion; a < kMaxMemoryIds; ++a) {
    const std::int64_t off = shared.offsets[a];
    if (off < 0) break;  // regions are declared in order: the first one never declared ends them
    const std::size_t r = a - kFirstRegion;
    Region g = r < launch.regions.size() ? launch.regions[r] : Region{};
    g.name = shared.names.of(static_cast<ArrayId>(a));
    g.offset = static_cast<std::uint32_t>(off);
    g.raw = false;
    if (r >= launch.regions.size() || g.cols == kUndeclaredShared) {
      const std::uint64_t shape = shared.shapes[a];
      g.type = ElementType::F32;
      g.rows = static_cast<std::uint32_t>(shape >> 32);
      g.cols = g.ld = static_cast<std::uint32_t>(shape);
    }
    g.bytes = static_cast<std::uint32_t>(g.elements() * element_bytes(g.type));
    regions.push_back(std::move(g));
  }
  if (!regions.empty() || launch.buffers.size() == kFirstRegion) launch.regions = std::move(regions);
}

}  // namespace

void record_launch_with(KernelEntry entry, Trace& trace, unsigned workers) {
  record_launch_with(entry, trace, LaunchOptions{workers, {}});
}

CheckReport record_launch_with(KernelEntry entry, Trace& trace, const LaunchOptions& options) {
  const LaunchInfo& L = trace.launch;
  const unsigned workers = options.workers ? options.workers : std::max(1u, std::thread::hardware_concurrency());
  SharedLayouts shared;
  Pass pass = make_pass(entry, trace, shared);
  if (options.timeout_seconds > 0) {
    pass.timeout_seconds = options.timeout_seconds;
    pass.deadline = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(options.timeout_seconds));
  }
  CheckReport report;
  std::mutex report_mutex;
  if (options.check.enabled()) {
    pass.check = &options.check;
    pass.report = &report;
    pass.report_mutex = &report_mutex;
  }

  // Poison, every cell must be written; or zeros, for a kernel that reads C (beta C).
  const float c_start = options.c_starts_zero ? 0.0f : std::numeric_limits<float>::quiet_NaN();
  std::fill(trace.c.begin(), trace.c.end(), c_start);
  const std::uint64_t threads = L.thread_count();
  trace.thread_offsets.assign(threads + 1, 0);
  pass.counts = trace.thread_offsets.data() + 1;  // counts land one slot right, then a prefix sum
  try {
    run_pass(pass, workers);
  } catch (const CheckStop&) {
    trace.thread_offsets.clear();  // no recording: the run stopped at a finding
    return report;
  }
  for (std::uint64_t t = 0; t < threads; ++t) trace.thread_offsets[t + 1] += trace.thread_offsets[t];
  if (const std::uint64_t event_limit = options.event_limit; event_limit && trace.thread_offsets.back() > event_limit)
    throw TooLargeError("the launch makes " + std::to_string(trace.thread_offsets.back()) +
                        " accesses, more than the recording limit of " + std::to_string(event_limit) +
                        " events: record a smaller size");

  trace.events = EventBuffer(trace.thread_offsets.back());
  trace.lines.assign(options.lines ? trace.thread_offsets.back() : 0, 0);
  std::fill(trace.c.begin(), trace.c.end(), c_start);
  pass.counts = nullptr;
  pass.report = nullptr;  // the record pass repeats the run: its findings are the count pass's
  pass.events = trace.events.data();
  pass.lines = options.lines ? trace.lines.data() : nullptr;
  pass.offsets = trace.thread_offsets.data();
  run_pass(pass, workers);
  set_shared_bases(trace.launch, shared);
  return report;
}

std::uint64_t stream_launch(KernelKind kind, Trace& trace, unsigned workers, const BlockVisitor& visit,
                            std::span<const std::uint32_t> only, double timeout_seconds) {
  const KernelEntry entry = builtin_entry(kind, trace.launch.tile);
  const LaunchInfo& L = trace.launch;
  const auto blocks = static_cast<std::uint32_t>(only.empty() ? L.grid.count() : only.size());
  for (std::uint32_t b : only)
    if (b >= L.grid.count()) throw EmulatorError("block " + std::to_string(b) + " is outside the grid");
  const std::uint32_t threads = L.threads_per_block();
  if (workers == 0) workers = std::max(1u, std::thread::hardware_concurrency());
  SharedLayouts shared;
  Pass base = make_pass(entry, trace, shared);
  if (timeout_seconds > 0) {
    base.timeout_seconds = timeout_seconds;
    base.deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                             std::chrono::duration<double>(timeout_seconds));
  }
  std::fill(trace.c.begin(), trace.c.end(), std::numeric_limits<float>::quiet_NaN());  // poison, as in record_launch
  std::atomic<std::uint64_t> largest{0};
  struct Worker {
    Pass pass;
    Trace one;  // one block's events, reused block after block
  };
  run_workers(
      workers, blocks,
      [&](unsigned) {
        auto s = std::make_unique<Worker>();
        s->pass = base;
        s->pass.one_block = true;
        s->one.launch = L;
        s->one.launch.grid = {1, 1, 1};
        s->one.thread_offsets.assign(threads + 1, 0);
        t_pass = &s->pass;
        return s;
      },
      [&](std::unique_ptr<Worker>& s, unsigned w, std::uint32_t i, BlockRun& br) {
        Pass& pass = s->pass;
        Trace& one = s->one;
        const std::uint32_t b = only.empty() ? i : only[i];
        // Count, then record into a buffer of the block's size: the two passes of record_launch, per block.
        std::fill(one.thread_offsets.begin(), one.thread_offsets.end(), 0);
        pass.counts = one.thread_offsets.data() + 1;
        pass.events = nullptr;
        pass.offsets = nullptr;
        run_block(pass, b, br);
        for (std::uint32_t t = 0; t < threads; ++t) one.thread_offsets[t + 1] += one.thread_offsets[t];
        const std::uint64_t total = one.thread_offsets.back();
        if (total > one.events.size()) {
          one.events = EventBuffer(total);
          for (std::uint64_t seen = largest; total > seen && !largest.compare_exchange_weak(seen, total);) {}
        }
        pass.counts = nullptr;
        pass.events = one.events.data();
        pass.offsets = one.thread_offsets.data();
        run_block(pass, b, br);
        set_shared_bases(one.launch, shared);
        visit(w, b, one);
      });
  set_shared_bases(trace.launch, shared);
  return largest * sizeof(Event);
}

}  // namespace ts::emu
