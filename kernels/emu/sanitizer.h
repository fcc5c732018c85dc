// sanitizer.h — the emulator as a sanitizer: what `record --check` finds.
//
// The emulator sees every access of every thread with its source line, so it
// can report what compute-sanitizer's memcheck, racecheck, initcheck and
// synccheck report on a GPU, for the project's kernels and a user's alike:
//   - an access outside its array (global: past M*K, K*N or M*N elements, or
//     negative; shared: outside the tile's rows or columns): not performed, a
//     load yields 0;
//   - a shared-memory hazard: two threads touch one word between the same two
//     barriers and at least one writes. Threads of one warp are reported too,
//     marked so: since Volta a warp's threads are scheduled independently and
//     racecheck reports such hazards (as warnings), as it does across warps;
//   - a read of a shared word that no thread of the block wrote in this launch;
//   - a barrier not reached by every thread of the block: a thread that
//     finished while others wait, or threads waiting at different
//     __syncthreads() (the emulator lets the waiting threads go on instead of
//     hanging, as a GPU would).
// CheckMode::Stop ends the recording at the first finding (no trace, as a GPU
// launch that memcheck stops); Continue records the launch and reports all.
//
// Memory is bounded by the block's shared memory: one shadow entry per shared
// word per worker, stamped with the barrier interval (and the block) it belongs
// to, so that nothing is cleared at a barrier.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/dim3.h"
#include "trace/memory.h"
#include "trace/event.h"

namespace ts::emu {

enum class CheckMode { Off, Stop, Continue };

struct CheckOptions {
  CheckMode mode = CheckMode::Off;
  std::uint32_t cap = 20;  // findings kept (and printed) per kind; all are counted
  bool enabled() const { return mode != CheckMode::Off; }
};

enum class FindingKind : std::uint8_t { OutOfBounds = 0, Race = 1, Uninitialized = 2, Barrier = 3 };
inline constexpr int kFindingKinds = 4;
const char* finding_kind_name(FindingKind k);  // "out-of-bounds", "race", "uninitialized", "barrier"

// Where a thread was: an access (array, indices as written, line, load or store) or a barrier.
struct FindingSite {
  Dim3 thread;
  std::uint32_t line = 0;  // 0: not known
  bool store = false;
};

// The names of a launch's memory ids, as the kernel declared them: A, B, C,
// then each TS_SHARED region by the name the kernel gave it (string literals
// of the kernel, set as it declares them).
struct MemoryNames {
  std::array<std::atomic<const char*>, kMaxMemoryIds> declared{};
  std::string of(ArrayId id) const;
};

struct Finding {
  FindingKind kind = FindingKind::OutOfBounds;
  std::uint32_t block_linear = 0;
  Dim3 block;
  FindingSite at;     // the thread the finding is about
  FindingSite other;  // a race: the other thread; a barrier: a thread that waits
  ArrayId array = ArrayId::A;
  std::string array_name;          // its buffer's or region's name
  std::int64_t row = 0, col = -1;  // as written; global arrays: row is the flat index
  bool same_warp = false;          // a race between lanes of one warp
  std::uint64_t order = 0;         // discovery order inside its block
  std::string text;                // one line, for people
};

struct CheckReport {
  std::vector<Finding> findings;  // at most CheckOptions::cap per kind, by block then discovery
  std::array<std::uint64_t, kFindingKinds> counts{};
  bool stopped = false;  // CheckMode::Stop ended the run at a finding
  std::uint64_t total() const;
  bool clean() const { return total() == 0; }
  void merge(CheckReport&& other, std::uint32_t cap);  // keeps the first `cap` per kind
};

// "no findings", or "3 findings: 2 race, 1 out-of-bounds" (with "(first N shown)" when capped).
std::string report_summary(const CheckReport& report, std::uint32_t cap);
nlohmann::json report_to_json(const CheckReport& report);

// Thrown inside the run by CheckMode::Stop at the first finding; record_launch returns the report.
struct CheckStop {};

// One worker's shadow of its current block's shared memory, and its findings.
class BlockChecker {
 public:
  BlockChecker(const CheckOptions& options, bool reporting, const MemoryNames* names);
  void start_block(std::uint32_t block_linear, Dim3 block, Dim3 block_dim, std::uint32_t shared_words);
  // A new barrier interval: the whole block passed a barrier.
  void next_interval() { ++interval_; }

  // Shared word `word` of the block, touched by thread `thread` (linear in its block).
  void shared_access(std::uint32_t thread, std::uint32_t word, bool store, ArrayId array, std::int64_t row,
                     std::int64_t col, std::uint32_t line);
  void out_of_bounds(std::uint32_t thread, ArrayId array, std::int64_t row, std::int64_t col, std::uint32_t line,
                     bool store, const std::string& extent);
  void barrier_exit(std::uint32_t finished, std::uint32_t waiting, std::uint32_t waiting_line);
  void barrier_mismatch(std::uint32_t thread, std::uint32_t line, std::uint32_t other, std::uint32_t other_line);

  CheckReport take() { return std::move(report_); }

 private:
  struct Shadow {
    std::uint64_t interval = 0;  // the barrier interval the fields below describe (0: none)
    std::uint64_t written_in = 0;  // the block (start_block's count) that last wrote the word
    // Thread + 1 of this interval's last writer, its first reader and another reader.
    std::uint16_t writer = 0, reader = 0, reader2 = 0;
    std::uint32_t writer_line = 0, reader_line = 0, reader2_line = 0;
    bool reported = false;  // a hazard on this word was reported in this interval
  };
  Dim3 thread_coord(std::uint32_t thread) const;
  void race(std::uint32_t thread, bool store, std::uint32_t line, std::uint32_t other, bool other_store,
            std::uint32_t other_line, ArrayId array, std::int64_t row, std::int64_t col);
  void add(Finding f);

  std::string subscript(ArrayId array, std::int64_t row, std::int64_t col) const;

  CheckOptions options_;
  bool reporting_;
  const MemoryNames* names_;
  std::vector<Shadow> shadow_;
  std::uint64_t interval_ = 0, blocks_started_ = 0, order_ = 0;
  std::uint32_t block_linear_ = 0;
  Dim3 block_, block_dim_;
  bool barrier_reported_ = false;  // one barrier finding per block
  CheckReport report_;
};

}  // namespace ts::emu
