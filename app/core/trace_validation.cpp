// trace_validation.cpp — check a trace's claims (see trace_validation.h for
// the invariants), with overflow-checked arithmetic throughout.
#include "app/core/trace_validation.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "trace/checked_math.h"
#include "app/core/trace_file.h"

namespace ts {
namespace {

constexpr std::uint64_t kMaxIndexable = std::numeric_limits<std::uint32_t>::max();  // an event's index

[[noreturn]] void invalid(const std::string& what) {
  throw TraceFileError(TraceFileError::Kind::Invalid, "invalid trace: " + what);
}

std::string num(std::uint64_t x) { return std::to_string(x); }

// a * b, or a refusal naming what the product counts.
std::uint64_t mul(std::uint64_t a, std::uint64_t b, const char* what) {
  const auto r = checked_mul(a, b);
  if (!r) invalid(std::string(what) + " overflows 64 bits (" + num(a) + " x " + num(b) + ")");
  return *r;
}

std::uint64_t add(std::uint64_t a, std::uint64_t b, const char* what) {
  const auto r = checked_add(a, b);
  if (!r) invalid(std::string(what) + " overflows 64 bits");
  return *r;
}

void check_string(const std::string& s, const char* field, std::size_t max_bytes, bool identifier) {
  if (s.size() > max_bytes) invalid(std::string(field) + " of " + num(s.size()) + " bytes (at most " + num(max_bytes) + ")");
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    const bool ok = identifier ? (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                     c == '_' || c == '-'
                               : c >= 0x20 && c < 0x7F;
    if (!ok) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      invalid(std::string(field) + " holds the byte " + hex + (identifier ? " (letters, digits, _ and - only)" : " (printable ASCII only)"));
    }
  }
}

// The threads a launch shape runs (L2), or a refusal.
std::uint64_t launch_threads(const LaunchInfo& L) {
  return mul(L.grid.count(), L.block.count(), "grid x block threads");
}

}  // namespace

void validate_launch(const LaunchInfo& L) {
  // L5 first: later messages quote nothing from the file but numbers.
  check_string(L.kernel, "kernel name", kMaxKernelName, true);
  if (L.kernel.empty()) invalid("empty kernel name");
  if (L.recorder != "gpu" && L.recorder != "emulator") invalid("recorder is neither gpu nor emulator");
  check_string(L.device_name, "device name", kMaxDeviceName, false);
  check_string(L.date, "date", kMaxDate, false);

  // L1
  if (L.m < 1 || L.n < 1 || L.k < 1)
    invalid("matrix sizes below 1 (M=" + std::to_string(L.m) + " N=" + std::to_string(L.n) + " K=" + std::to_string(L.k) + ")");
  const std::uint64_t m = L.m, n = L.n, k = L.k;
  if (m * k > kMaxIndexable || k * n > kMaxIndexable || m * n > kMaxIndexable)
    invalid("a matrix of 2^32 elements or more (M=" + num(m) + " N=" + num(n) + " K=" + num(k) + ")");
  if (L.tile < 1 || L.tile > 1024) invalid("TILE " + std::to_string(L.tile));

  // The tiling is drawn, not trusted for memory: bounded so that nothing drawn from it runs away.
  const Tiling& tl = L.tiling;
  for (const std::uint32_t v : {tl.block_m, tl.block_n, tl.block_k, tl.thread_m, tl.thread_n, tl.warp_m, tl.warp_n})
    if (v > 4096) invalid("a tiling extent of " + num(v) + " (at most 4096)");
  if (tl.stages > 64) invalid(num(tl.stages) + " pipeline stages (at most 64)");

  // L2: CUDA's limits keep grid.count() below 2^63; the product with the block is checked.
  const Dim3 g = L.grid, b = L.block;
  if (g.x == 0 || g.y == 0 || g.z == 0 || g.x > 0x7FFFFFFFu || g.y > 65535 || g.z > 65535)
    invalid("grid " + num(g.x) + " x " + num(g.y) + " x " + num(g.z) + " is outside CUDA's limits");
  if (b.x == 0 || b.y == 0 || b.z == 0 || b.x > 1024 || b.y > 1024 || b.z > 64 || b.count() > 1024)
    invalid("block " + num(b.x) + " x " + num(b.y) + " x " + num(b.z) + " is outside CUDA's limits");
  const std::uint64_t threads = launch_threads(L);
  if (threads > kMaxIndexable) invalid(num(threads) + " threads (at most 2^32 - 1)");

  // L3
  const IterationRule& r = L.iteration_rule;
  if (r.tile == 0 || r.k != k || r.n != n) invalid("iteration rule disagrees with K and N");
  const std::uint64_t iterations = (k + r.tile - 1) / r.tile;
  if (r.iterations != iterations)
    invalid("iteration count " + num(r.iterations) + " (K=" + num(k) + " in steps of " + num(r.tile) + " makes " +
            num(iterations) + ")");
  if (iterations > kMaxIteration || std::uint64_t{r.barriers_per_iteration} * iterations > kMaxEpoch)
    invalid(num(iterations) + " iterations of " + num(r.barriers_per_iteration) + " barriers exceed the event's fields");

  // L4: the memory tables.
  if (L.memory_count() > kMaxMemoryIds)
    invalid(num(L.memory_count()) + " buffers and regions (an event names at most " + num(kMaxMemoryIds) + ")");
  const std::uint64_t natural[3][2] = {{m, k}, {k, n}, {m, n}};
  bool has_role[3] = {false, false, false};
  for (const Buffer& b : L.buffers) {
    check_string(b.name, "a buffer's name", kMaxMemoryName, true);
    const std::string name = "buffer " + (b.name.empty() ? std::string("(unnamed)") : b.name);
    if (b.name.empty()) invalid("a buffer without a name");
    if (b.role > BufferRole::Other || b.type > ElementType::Word || b.order > MatrixOrder::ColMajor)
      invalid(name + ": unknown role, type or order");
    const std::uint32_t inner = b.order == MatrixOrder::RowMajor ? b.cols : b.rows;
    if (b.rows == 0 || b.cols == 0 || b.ld == 0 || inner > b.ld)
      invalid(name + ": " + num(b.rows) + " x " + num(b.cols) + " with leading dimension " + num(b.ld));
    const std::uint64_t elements = mul(b.order == MatrixOrder::RowMajor ? b.rows : b.cols, b.ld, "a buffer's rows x ld");
    if (elements > kMaxIndexable + 1) invalid(name + ": " + num(elements) + " elements (an event's index is 32 bits)");
    const std::uint64_t bytes = mul(elements, element_bytes(b.type), "a buffer's bytes");
    if (!checked_add(b.base, bytes)) invalid(name + " ends past 2^64");
    if (b.role != BufferRole::Other) {
      const auto r = static_cast<int>(b.role);
      if (has_role[r]) invalid("two buffers have the role " + std::string(role_name(b.role)));
      has_role[r] = true;
      if (b.rows != natural[r][0] || b.cols != natural[r][1] || b.type != ElementType::F32)
        invalid(name + ": the " + std::string(role_name(b.role)) + " of the product is " + num(natural[r][0]) + " x " +
                num(natural[r][1]) + " floats, not " + num(b.rows) + " x " + num(b.cols));
    }
  }
  for (int r = 0; r < 3; ++r)
    if (!has_role[r]) invalid(std::string("no buffer has the role ") + std::string(role_name(BufferRole(r))));
  for (const Region& g : L.regions) {
    check_string(g.name, "a region's name", kMaxMemoryName, true);
    if (g.name.empty()) invalid("a shared region without a name");
    const std::string name = "shared region " + g.name;
    if (g.type > ElementType::Word) invalid(name + ": unknown type");
    if (g.rows == 0 || g.ld == 0 || g.cols > g.ld) invalid("layout of " + name);
    const std::uint64_t end = add(g.offset, g.bytes, "a region's end");
    if (end > kMaxSharedBytes)
      invalid(name + " ends at byte " + num(end) + " (a block has at most " + num(kMaxSharedBytes) + ")");
    const std::uint64_t bytes = mul(mul(g.rows, g.ld, "a region's rows x ld"), element_bytes(g.type), "a region's bytes");
    if (bytes > g.bytes) invalid(name + ": " + num(g.rows) + " rows of " + num(g.ld) + " elements do not fit its " +
                                 num(g.bytes) + " bytes");
  }
}

void validate_sections(const LaunchInfo& L, const SectionCounts& s, std::uint64_t file_bytes,
                       std::uint64_t max_expansion) {
  // S1: the values of the buffers whose role is A, B and C (every element they span).
  const auto values = [&](BufferRole r) {
    const Buffer* b = L.buffer_with_role(r);
    return b ? b->elements() : 0;
  };
  if (s.a != values(BufferRole::A) || s.b != values(BufferRole::B) || s.c != values(BufferRole::C))
    invalid("matrix sizes disagree with M, N, K");
  const std::uint64_t threads = launch_threads(L);
  if (s.threads != threads)
    invalid(num(s.threads) + " threads stored; the launch shape runs " + num(threads));
  if (s.timing != 0 && s.timing != L.grid.count()) invalid("block timing count " + num(s.timing));
  // S2
  if (s.events > kMaxEvents) invalid(num(s.events) + " events (at most " + num(kMaxEvents) + ")");
  // S3
  const std::uint64_t blocks = L.focused() ? L.traced_blocks.size() : L.grid.count();
  const std::uint64_t block_steps = mul(blocks, std::uint64_t{L.iteration_rule.iterations} + 1, "blocks x steps");
  if (block_steps > s.events + blocks)
    invalid(num(blocks) + " blocks x " + num(L.iteration_rule.iterations) + " iterations with only " + num(s.events) +
            " events");
  // S4
  std::uint64_t bytes = mul(add(add(s.a, s.b, "floats"), s.c, "floats"), sizeof(float), "float bytes");
  bytes = add(bytes, mul(add(s.threads, 1, "offsets"), sizeof(std::uint64_t), "offset bytes"), "section bytes");
  bytes = add(bytes, mul(s.timing, sizeof(BlockTiming), "timing bytes"), "section bytes");
  // Events as the plainest format stores them (version 1: 12 bytes), which
  // bounds an allocation at 16/12 of an uncompressed file.
  bytes = add(bytes, mul(s.events, kFileEventBytes, "event bytes"), "section bytes");
  if (bytes > saturating_mul(file_bytes, max_expansion))
    invalid("sections of " + num(bytes) + " bytes in a file of " + num(file_bytes));
}

SectionCounts section_counts(const Trace& t) {
  return {t.a.size(), t.b.size(), t.c.size(), t.thread_count(), t.block_timing.size(), t.events.size()};
}

void EventChecks::add(const EventChecks& o) {
  malformed = std::min(malformed, o.malformed);
  if (o.backwards_thread < backwards_thread) {
    backwards_thread = o.backwards_thread;
    backwards_event = o.backwards_event;
  }
}

EventChecks check_events(const Trace& t, std::uint64_t first_thread, std::uint64_t last_thread) {
  EventChecks c;
  // Elements of each memory id; ids past the tables hold none.
  std::uint64_t limit[kMaxMemoryIds] = {};
  const LaunchInfo& L = t.launch;
  for (std::uint32_t id = 0; id < L.memory_count() && id < kMaxMemoryIds; ++id) {
    if (const Buffer* b = L.buffer_at(id)) limit[id] = b->elements();
    else if (const Region* g = L.region_at(id)) limit[id] = g->elements();
  }
  const std::uint32_t iterations = t.launch.iteration_rule.iterations;
  const auto& off = t.thread_offsets;
  const Event* e = t.events.data();
  for (std::uint64_t th = first_thread; th < last_thread; ++th)
    for (std::uint64_t i = off[th]; i < off[th + 1]; ++i) {
      // T2: each event within the launch.
      const Event& x = e[i];
      const bool padding_ok = !(x.flags & kFlagPadding) || L.is_region(x.array);  // a shared store's padding, a shared load's fragment mark
      if (x.index >= limit[x.array] || x.iter > iterations || !padding_ok) {
        c.malformed = i;  // reported before any T4 finding: the rest does not matter
        return c;
      }
      // T4: a thread passes barriers, never un-passes them (the replay finds an
      // iteration's events by epoch).
      if (i > off[th] && x.epoch < e[i - 1].epoch && c.backwards_thread == EventChecks::kNone) {
        c.backwards_thread = th;
        c.backwards_event = i;
      }
    }
  return c;
}

void validate_trace(const Trace& t, std::uint64_t file_bytes, std::uint64_t max_expansion,
                    const EventChecks* checked) {
  validate_launch(t.launch);
  validate_sections(t.launch, section_counts(t), file_bytes, max_expansion);
  for (std::size_t i = 0; i < t.block_timing.size(); ++i) {
    const BlockTiming& bt = t.block_timing[i];
    if (bt.sm >= kMaxSm || bt.start_ns > bt.end_ns) invalid("timing of block " + num(i));
  }
  // T3
  if (!t.lines.empty() && t.lines.size() != t.events.size())
    invalid(num(t.lines.size()) + " source lines for " + num(t.events.size()) + " events");
  // T1
  const auto& off = t.thread_offsets;
  if (off.empty() || off.front() != 0 || off.back() != t.events.size()) invalid("thread offsets");
  for (std::size_t i = 1; i < off.size(); ++i)
    if (off[i] < off[i - 1]) invalid("thread offsets go backwards at thread " + num(i - 1));
  // T2, then T4
  const EventChecks c = checked ? *checked : check_events(t, 0, off.size() - 1);
  if (c.malformed != EventChecks::kNone) invalid("event " + num(c.malformed) + " is malformed");
  if (c.backwards_thread != EventChecks::kNone)
    invalid("thread " + num(c.backwards_thread) + "'s barrier count goes backwards at event " + num(c.backwards_event));
}

}  // namespace ts
