// trace.h — one recorded launch: what ran, on what, and every thread's accesses.
//
// Threads are numbered block-major (blocks in x-fastest order, then threads in
// x-fastest order inside a block); thread t's events are
// events[thread_offsets[t] .. thread_offsets[t + 1]) in program order, so an
// event's sequence number is its position in that range.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "trace/block_timing.h"  // GPU recordings only: where and when each block ran
#include "trace/dim3.h"
#include "trace/event.h"
#include "trace/memory.h"
#include "trace/tiling.h"

namespace ts {

// One of tilescope's own five arrays (ArrayId) as trace files of versions 1
// and 2 list them: element (r, c) is at base + (r * ld + c) * 4 bytes; shared
// arrays give their offset in the block's shared window. The launch's tables
// (memory.h) hold the same; LaunchInfo::array() and set_array() translate.
struct ArrayLayout {
  bool present = false;
  std::uint64_t base = 0;
  std::uint32_t rows = 0, cols = 0, ld = 0;
  std::uint64_t elements() const { return std::uint64_t{rows} * ld; }
};

// A kernel the user wrote (kernels/user/): how to compile it again.
struct UserKernelInfo {
  std::string file;                  // the source file, as given
  std::string entry;                 // the function recorded
  std::vector<std::string> defines;  // "NAME=VALUE", in order
  std::uint32_t tile_rows = 0, tile_cols = 0;  // the cells of C one block computes
  std::vector<std::string> args;     // "NAME=VALUE" as bound with --arg, in order (none in older files)
  friend bool operator==(const UserKernelInfo&, const UserKernelInfo&) = default;
};

// A launch the tracer recorded (tracer/, docs/tracer.md): a kernel tilescope
// did not compile, launched by a program as it is. Where it came from, what
// else the program launched, and what the tracer could not see in it.
struct TracerInfo {
  std::string source;   // how it came in: "exec", "cuda-file", "cublas" or "tilescope" (its own plain kernel)
  std::string program;  // what ran, as a command line (for titles and to run it again by hand)
  std::string symbol;   // the kernel's full name, demangled
  std::vector<std::string> launches;  // the kernels the program launched, in order, up to the traced one at least
  std::uint32_t launch_index = 0;     // the traced one's place in launches
  std::vector<std::string> limits;    // what the tracer could not see in this launch, a sentence each
  // The kernel's SASS, one instruction each ("/*0120*/ LDG.E.128 R4, desc[UR6][R2.64] ;  // line 35" with
  // line info), from its cubin; empty without a disassembler (nvdisasm). Trace::lines number source_file's
  // lines when the cubin has line info (-lineinfo), else these instructions (1: the first).
  std::vector<std::string> sass;
  std::string source_file;  // the file Trace::lines number; empty: they number sass (or there are none)
  friend bool operator==(const TracerInfo&, const TracerInfo&) = default;
};

struct LaunchInfo {
  std::string kernel;  // command-line name from the catalog, e.g. "tiled"; "FILE:ENTRY" for a user kernel
  int tile = 0;
  int m = 0, n = 0, k = 0;
  Dim3 grid, block;
  IterationRule iteration_rule{};
  Tiling tiling{};          // block, warp and register tiles (zeros in files written before them)
  std::string recorder;     // "gpu" or "emulator"
  std::string device_name;  // the GPU's name, or "CPU emulator"
  std::string date;         // ISO 8601, UTC, when it was recorded
  std::uint64_t seed = 0;   // of the random inputs
  // The memory tables (memory.h): an event's memory id is an index into
  // buffers, then regions.
  std::vector<Buffer> buffers;
  std::vector<Region> regions;
  // A focused trace holds the events of these blocks only (linear ids,
  // ascending); the other blocks' threads have none. Empty: every block.
  std::vector<std::uint32_t> traced_blocks;
  std::optional<UserKernelInfo> user_kernel;  // set for a kernel the user wrote
  std::optional<TracerInfo> tracer;           // set for a launch the tracer recorded

  bool focused() const { return !traced_blocks.empty(); }
  bool block_traced(std::uint32_t block_linear) const;
  std::uint64_t thread_count() const { return grid.count() * block.count(); }
  std::uint32_t threads_per_block() const { return static_cast<std::uint32_t>(block.count()); }
  bool recorded_on_gpu() const { return recorder == "gpu"; }
  bool traced() const { return tracer.has_value(); }

  // ---- the memory tables ----
  std::size_t memory_count() const { return buffers.size() + regions.size(); }
  bool is_region(std::uint32_t id) const { return id >= buffers.size(); }
  const Buffer* buffer_at(std::uint32_t id) const { return id < buffers.size() ? &buffers[id] : nullptr; }
  const Region* region_at(std::uint32_t id) const {
    return id >= buffers.size() && id - buffers.size() < regions.size() ? &regions[id - buffers.size()] : nullptr;
  }
  std::uint32_t region_id(std::size_t region) const { return static_cast<std::uint32_t>(buffers.size() + region); }
  Space space_of_id(std::uint32_t id) const { return is_region(id) ? Space::Shared : Space::Global; }
  std::string memory_name(std::uint32_t id) const;  // "?" for an id past the tables
  std::optional<std::uint32_t> find_memory(std::string_view name) const;
  const Buffer* buffer_with_role(BufferRole role) const;  // the first, or nullptr
  // The memory id of the buffer whose role is A, B or C (validation makes
  // each of them exactly one buffer); kNoMemory when there is none.
  std::uint32_t role_id(BufferRole role) const;
  // The role of the buffer with memory id `id` (Other for a region or no row).
  BufferRole role_of(std::uint32_t id) const;
  // Element (row, col) of an event's index in its buffer or region.
  MatrixCoord coord(std::uint32_t id, std::uint32_t index) const;
  // Its byte address: a buffer's device address (base + offset), a region's
  // offset in the block's shared window.
  std::uint64_t address(std::uint32_t id, std::uint32_t index) const;

  // ---- tilescope's own five arrays (ids = ArrayId) ----
  // The layout of one of them (present = false when the launch has none).
  ArrayLayout array(ArrayId id) const;
  // Sets one as its recorder lays it out: buffers A, B, C (row-major f32,
  // roles A, B, C) and regions As, Bs, in that order, so that their ids stay
  // ArrayId's; an array set before those before it gets placeholders.
  void set_array(ArrayId id, const ArrayLayout& layout);
  // Whether the tables are just those (what files of versions 1 and 2 hold).
  bool has_own_arrays_only() const;
};


// Events live in one uninitialised allocation: a trace of N = 256 holds
// ~36 million of them and zero-filling 450 MB first would cost real time.
// Large buffers ask for transparent huge pages: the recorders' threads fill
// them in parallel, and 4 KB page faults from two threads at once serialised
// on the kernel's memory map (the emulator ran slower on two cores than on one).
class EventBuffer {
 public:
  EventBuffer() = default;
  explicit EventBuffer(std::size_t n);
  Event* data() { return data_.get(); }
  const Event* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  Event& operator[](std::size_t i) { return data_[i]; }
  const Event& operator[](std::size_t i) const { return data_[i]; }
  std::span<const Event> span() const { return {data_.get(), size_}; }
  std::span<Event> span() { return {data_.get(), size_}; }

 private:
  struct Release {
    std::size_t bytes;  // mapped bytes; 0: allocated with new[]
    void operator()(Event* p) const;
  };
  std::unique_ptr<Event[], Release> data_;
  std::size_t size_ = 0;
};

struct ThreadCoord {
  Dim3 block;    // blockIdx
  Dim3 thread;   // threadIdx
  std::uint32_t block_linear = 0;
  std::uint32_t thread_in_block = 0;  // x-fastest
  std::uint32_t warp = 0;             // warp inside its block
};

struct ElementCoord {
  std::uint32_t row = 0, col = 0;
  friend bool operator==(const ElementCoord&, const ElementCoord&) = default;
};

struct Trace {
  LaunchInfo launch;
  std::vector<float> a, b, c;  // the inputs, and C as the kernel wrote it
  std::vector<std::uint64_t> thread_offsets;  // thread_count() + 1 entries
  std::vector<BlockTiming> block_timing;      // empty unless recorded on a GPU
  EventBuffer events;
  // The emulator's: the source line of each event's subscript (parallel to
  // events; 0 where not known, 65535 for any line past it). Empty when no lines
  // are known: GPU recordings, focused traces, files.
  std::vector<std::uint16_t> lines;

  std::uint64_t thread_count() const { return thread_offsets.empty() ? 0 : thread_offsets.size() - 1; }
  std::span<const Event> thread_events(std::uint64_t thread) const {
    return events.span().subspan(thread_offsets[thread], thread_offsets[thread + 1] - thread_offsets[thread]);
  }
  ThreadCoord thread_coord(std::uint64_t thread) const;
  std::uint64_t thread_id(const Dim3& block, const Dim3& thread) const;
  ElementCoord element(ArrayId array, std::uint32_t index) const;
  std::uint64_t address(ArrayId array, std::uint32_t index) const;
  // The values of the buffer whose role is A, B or C, in its storage order
  // (an event's index into it), and one element by row and column through
  // its layout (0 past its extent).
  const std::vector<float>& values(BufferRole role) const;
  float value_at(BufferRole role, std::uint32_t row, std::uint32_t col) const;
  // Sets kFlagShared on every event whose memory id names a region (and
  // clears it on the others): for traces built from files of versions 1
  // and 2, whose events carry no space, and for tests that build events.
  // Threads [first_thread, end_thread) only, when given.
  void mark_spaces(std::uint64_t first_thread = 0, std::uint64_t end_thread = ~0ull);
  // Bytes the trace holds in memory, for the benchmarks.
  std::uint64_t memory_bytes() const;
};

// Whether with_lines' source lines can stand for trace's events: the same
// count, thread by thread (a GPU recording borrows an emulator run's lines).
bool lines_fit(const Trace& trace, const Trace& with_lines);

// A, B or C as a dense row-major rows x cols matrix, whatever its layout:
// the trace's own values when they are laid out so (no copy: C is 64 MiB at
// N = 4096), else a copy made once (a column-major or padded operand). The
// views draw and sum these; the events keep their storage-order indices.
class DenseMatrix {
 public:
  DenseMatrix() = default;
  DenseMatrix(const Trace& t, BufferRole role);
  // Moves keep the copy's storage (and the span into it); copies would not.
  DenseMatrix(DenseMatrix&&) = default;
  DenseMatrix& operator=(DenseMatrix&&) = default;
  DenseMatrix(const DenseMatrix&) = delete;
  DenseMatrix& operator=(const DenseMatrix&) = delete;
  std::span<const float> values() const { return values_; }
  const float* data() const { return values_.data(); }
  std::uint32_t rows() const { return rows_; }
  std::uint32_t cols() const { return cols_; }
  float at(std::uint32_t row, std::uint32_t col) const { return values_[std::size_t{row} * cols_ + col]; }

 private:
  std::vector<float> copy_;
  std::span<const float> values_;
  std::uint32_t rows_ = 0, cols_ = 0;
};

const char* array_name(ArrayId a);
const char* space_name(Space s);
const char* op_name(Op o);
std::string utc_now_iso8601();

}  // namespace ts
