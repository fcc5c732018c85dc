// assemble.cpp — raw records to a Trace's events (assemble.h says what is
// decided and why; memory_tables.cpp lays out the tables).
#include "tracer/assemble.h"

#include <cxxabi.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "tracer/memory_tables.h"

namespace ts::tracer {
namespace {

constexpr std::size_t kListed = 8;  // outside addresses listed in the report
constexpr std::size_t kMaxListedLaunches = 256;  // launches named in the trace's TracerInfo

void note_outside(std::vector<std::uint64_t>& list, std::uint64_t address) {
  if (list.size() < kListed && std::find(list.begin(), list.end(), address) == list.end()) list.push_back(address);
}

Width width_of(std::uint32_t bytes) { return bytes == 16 ? Width::B16 : bytes == 8 ? Width::B8 : Width::B4; }

// The copy of an allocation taken before (or after) the launch, if the tracer made one.
const std::vector<std::uint8_t>* snapshot(const RawLaunch& raw, std::uint32_t allocation, bool after) {
  for (const RawSnapshot& s : raw.snapshots)
    if (s.allocation == allocation && s.after == after) return &s.bytes;
  return nullptr;
}

std::vector<float> operand_values(const RawLaunch& raw, std::uint32_t allocation, std::uint64_t elements,
                                  bool after, const char* what) {
  const auto* bytes = snapshot(raw, allocation, after);
  if (!bytes || bytes->size() < elements * 4)
    throw AssembleError(AssembleError::Kind::Operands,
                        std::string("the tracer made no copy of ") + what + " (allocation " +
                            std::to_string(allocation) + ") " + (after ? "after" : "before") +
                            " the launch: its values are not known");
  std::vector<float> v(elements);
  if (elements) std::memcpy(v.data(), bytes->data(), elements * 4);
  return v;
}

// The events of one thread's records, appended to `out`.
class ThreadAssembler {
 public:
  ThreadAssembler(const RawLaunch& raw, const MemoryTables& tables, AssembleReport& report,
                  std::vector<std::uint64_t>* pcs)
      : raw_(raw), t_(tables), report_(report), pcs_(pcs) {
    for (std::uint32_t id = 0; id < tables.buffers.size(); ++id) {
      const std::uint32_t alloc = tables.allocation_of_buffer(id);
      before_.push_back(snapshot(raw, alloc, false));
      after_.push_back(snapshot(raw, alloc, true));
    }
  }

  // Appends the events of records[first..last) (one thread's, in program order); returns its barriers.
  std::uint32_t run(const std::vector<std::uint32_t>& order, std::size_t first, std::size_t last,
                    std::vector<Event>& out) {
    std::uint32_t epoch = 0;
    for (std::size_t i = first; i < last; ++i) {
      const RawRecord& r = raw_.records[order[i]];
      switch (r.kind) {
        case kRecordGlobal: {
          if (r.access == kAccessAtomic) ++report_.atomics;
          const bool store = r.access != kAccessLoad;
          if (auto at = t_.global(r.address, r.bytes)) emit(out, *at, r, r.bytes, store, false, false, epoch);
          else ++report_.outside_global, note_outside(report_.outside_global_addresses, r.address);
          break;
        }
        case kRecordShared:
        case kRecordMatrixShared: {
          if (r.kind == kRecordMatrixShared) ++report_.matrix;
          const std::uint32_t bytes = r.kind == kRecordMatrixShared ? 16 : r.bytes;
          if (auto at = t_.shared(r.address, bytes)) emit(out, *at, r, bytes, r.access != kAccessLoad, true, false, epoch);
          else ++report_.outside_shared, note_outside(report_.outside_shared_offsets, r.address);
          break;
        }
        case kRecordCpAsync: {
          ++report_.cp_async;
          const bool zero_fill = r.address == 0;
          const std::size_t loads = out.size();
          if (!zero_fill) {
            if (auto at = t_.global(r.address, r.bytes)) emit(out, *at, r, r.bytes, false, false, true, epoch);
            else ++report_.outside_global, note_outside(report_.outside_global_addresses, r.address);
          }
          if (auto at = t_.shared(r.aux, r.bytes)) {
            const std::size_t from = out.size();
            emit(out, *at, r, r.bytes, true, true, true, epoch);
            for (std::size_t e = from; e < out.size(); ++e) {
              if (zero_fill) out[e].flags |= kFlagPadding, out[e].value = 0;
              else if (from - loads == out.size() - from) out[e].value = out[loads + (e - from)].value;  // what it copied
            }
          } else {
            ++report_.outside_shared, note_outside(report_.outside_shared_offsets, r.aux);
          }
          break;
        }
        case kRecordBarrier:
          ++report_.barriers;
          if (++epoch > kMaxEpoch)
            throw AssembleError(AssembleError::Kind::TooLarge,
                                "a thread passed more than " + std::to_string(kMaxEpoch) +
                                    " barriers, more than a trace's epochs hold: record a smaller size");
          break;
        case kRecordLocal: ++report_.local; break;
        case kRecordPipelineCommit: ++report_.commits; break;
        case kRecordPipelineWait: ++report_.waits; break;
        case kRecordBlockEnter:
        case kRecordBlockExit: ++report_.block_marks; break;
        default:
          throw AssembleError(AssembleError::Kind::Malformed,
                              "a record of unknown kind " + std::to_string(r.kind) + " (tracer and tilescope differ?)");
      }
    }
    return epoch;
  }

 private:
  // One event per 4-byte element of an access (assemble.h).
  void emit(std::vector<Event>& out, const Located& at, const RawRecord& r, std::uint32_t bytes, bool store,
            bool shared, bool async, std::uint32_t epoch) {
    const std::uint32_t elements = std::max<std::uint32_t>(bytes / 4, 1);
    Width w = width_of(bytes);
    if (at.index % floats_of(w) != 0) w = Width::B4;  // not aligned as a vector: scalar events
    for (std::uint32_t i = 0; i < elements; ++i) {
      Event e{};
      e.index = at.index + i;
      e.epoch = static_cast<std::uint16_t>(epoch);
      e.array = static_cast<std::uint8_t>(at.id);
      e.flags = static_cast<std::uint8_t>((store ? kFlagStore : 0) | (shared ? kFlagShared : 0));
      e.width = static_cast<std::uint8_t>(w);
      e.async = async ? 1 : 0;
      e.value = value_of(r, i, at, e.index, store, shared);
      out.push_back(e);
      if (pcs_) pcs_->push_back(r.pc);
    }
  }

  float value_of(const RawRecord& r, std::uint32_t i, const Located& at, std::uint32_t index, bool store,
                 bool shared) const {
    if ((r.flags & kRecordHasValue) && i < 4 && !(shared && !store && r.kind != kRecordCpAsync))
      return std::bit_cast<float>(r.value[i]);
    if (shared) return 0;  // a shared load: filled from the block's stores afterwards
    const auto* copy = store ? after_[at.id] : before_[at.id];
    if (!copy || std::uint64_t{index} * 4 + 4 > copy->size()) return 0;
    float v;
    std::memcpy(&v, copy->data() + std::uint64_t{index} * 4, 4);
    return v;
  }

  const RawLaunch& raw_;
  const MemoryTables& t_;
  AssembleReport& report_;
  std::vector<std::uint64_t>* pcs_;  // each event's record PC, when lines are wanted
  std::vector<const std::vector<std::uint8_t>*> before_, after_;
};

// Each event's line (assemble.h, "Lines"), and the listing and file they refer to.
void assign_lines(const RawLaunch& raw, const std::vector<SassInstruction>& sass, const std::vector<std::uint64_t>& pcs,
                  Trace& trace, TracerInfo& info) {
  constexpr std::size_t kMaxListed = 16384;  // instructions kept in the launch description
  for (std::size_t i = 0; i < std::min(sass.size(), kMaxListed); ++i) info.sass.push_back(sass_line(sass[i]));
  std::vector<std::pair<std::string, std::size_t>> files;  // instructions per source file
  for (const SassInstruction& s : sass) {
    if (s.file.empty()) continue;
    auto it = std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.first == s.file; });
    if (it == files.end()) files.emplace_back(s.file, 1);
    else ++it->second;
  }
  const auto top = std::max_element(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  if (top != files.end()) info.source_file = top->first;
  trace.lines.assign(pcs.size(), 0);
  for (std::size_t e = 0; e < pcs.size(); ++e) {
    if (pcs[e] < raw.function_pc || pcs[e] - raw.function_pc >= std::max<std::uint64_t>(raw.function_size, 1)) continue;
    const auto i = instruction_at(sass, pcs[e] - raw.function_pc);
    if (!i) continue;
    const SassInstruction& s = sass[*i];
    const std::uint64_t line = info.source_file.empty() ? *i + 1 : (s.file == info.source_file ? s.line : 0);
    trace.lines[e] = static_cast<std::uint16_t>(std::min<std::uint64_t>(line, 65535));
  }
}

// Each shared load takes the last value stored to its word in an earlier epoch of its block.
void fill_shared_loads(Trace& trace) {
  const LaunchInfo& L = trace.launch;
  const std::uint64_t per_block = L.threads_per_block();
  struct Store {
    std::uint16_t epoch;
    float value;
  };
  for (std::uint64_t block = 0; block < L.grid.count(); ++block) {
    const std::uint64_t first = trace.thread_offsets[block * per_block];
    const std::uint64_t last = trace.thread_offsets[(block + 1) * per_block];
    std::unordered_map<std::uint64_t, std::vector<Store>> stores;  // window byte offset -> its stores
    for (std::uint64_t i = first; i < last; ++i) {
      const Event& e = trace.events[i];
      if ((e.flags & kFlagShared) && (e.flags & kFlagStore))
        stores[L.address(e.array, e.index)].push_back({e.epoch, e.value});
    }
    if (stores.empty()) continue;
    for (auto& [word, list] : stores)
      std::stable_sort(list.begin(), list.end(), [](const Store& a, const Store& b) { return a.epoch < b.epoch; });
    for (std::uint64_t i = first; i < last; ++i) {
      Event& e = trace.events[i];
      if (!(e.flags & kFlagShared) || (e.flags & kFlagStore)) continue;
      auto it = stores.find(L.address(e.array, e.index));
      if (it == stores.end()) continue;
      auto past = std::lower_bound(it->second.begin(), it->second.end(), e.epoch,
                                   [](const Store& s, std::uint16_t ep) { return s.epoch < ep; });
      if (past != it->second.begin()) e.value = std::prev(past)->value;
    }
  }
}

// The iteration rule from the barriers (assemble.h).
IterationRule derive_rule(const AssembleOptions& o, std::uint32_t barriers) {
  IterationRule rule{};
  rule.k = static_cast<std::uint32_t>(o.k);
  rule.n = static_cast<std::uint32_t>(o.n);
  const std::uint32_t K = rule.k;
  if (o.k_tile) {
    rule.tile = o.k_tile;
    rule.iterations = (K + rule.tile - 1) / rule.tile;
    rule.barriers_per_iteration = rule.iterations ? barriers / rule.iterations : 0;
  } else if (barriers == 0) {
    rule.tile = K;
    rule.iterations = 1;
  } else {
    rule.barriers_per_iteration = barriers % 2 == 0 ? 2 : 1;
    const std::uint32_t wanted = std::max<std::uint32_t>(1, barriers / rule.barriers_per_iteration);
    rule.tile = std::max<std::uint32_t>(1, (K + wanted - 1) / wanted);
    rule.iterations = (K + rule.tile - 1) / rule.tile;
  }
  if (rule.iterations > kMaxIteration || std::uint64_t{rule.barriers_per_iteration} * rule.iterations > kMaxEpoch)
    throw AssembleError(AssembleError::Kind::TooLarge,
                        std::to_string(rule.iterations) + " iterations of " +
                            std::to_string(rule.barriers_per_iteration) +
                            " barriers are more than a trace holds: give a larger --k-tile or record a smaller K");
  return rule;
}

std::string demangled_name(const std::string& symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : symbol;
}

std::string count_of(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// What the launch's global accesses touched, read once for name_partials and
// tracer_limits: per buffer whether it was loaded and stored, which elements of
// A and B were read and of C stored, and how many stores went to other buffers.
struct GlobalTouches {
  std::vector<bool> loaded, stored;          // by buffer id
  std::vector<std::vector<bool>> elements;   // A's and B's read, C's stored
  std::uint64_t other_stores = 0;            // to buffers of role other

  explicit GlobalTouches(const Trace& t) {
    const LaunchInfo& L = t.launch;
    loaded.assign(L.buffers.size(), false);
    stored.assign(L.buffers.size(), false);
    const std::uint32_t ids[3] = {L.role_id(BufferRole::A), L.role_id(BufferRole::B), L.role_id(BufferRole::C)};
    elements.resize(3);
    for (int i = 0; i < 3; ++i) elements[i].assign(L.buffers[ids[i]].elements(), false);
    for (const Event& e : t.events.span()) {
      if (e.space() != Space::Global || e.array >= L.buffers.size()) continue;
      const bool store = e.op() == Op::Store;
      (store ? stored : loaded)[e.array] = true;
      for (int i = 0; i < 3; ++i)
        if (e.array == ids[i] && store == (i == 2) && e.index < elements[i].size()) elements[i][e.index] = true;
      if (store && e.array != ids[2] && L.role_of(e.array) == BufferRole::Other) ++other_stores;
    }
  }
};

// A launch that reads A and B, stores nothing to C but stores to other buffers
// (split-k: its partial sums, which another launch reduces into C): those
// buffers, unless the program named them, are named "partials" (then
// partials2, ...), so that the views say what they hold. Returns how many it named.
int name_partials(Trace& t, const GlobalTouches& g) {
  LaunchInfo& L = t.launch;
  // Only a launch that reads A and B and stores none of C; only buffers the program did not name.
  if (g.stored[L.role_id(BufferRole::C)] || !g.loaded[L.role_id(BufferRole::A)] || !g.loaded[L.role_id(BufferRole::B)])
    return 0;
  int n = 0;
  for (std::uint32_t id = 0; id < L.buffers.size(); ++id)
    if (g.stored[id] && L.buffers[id].role == BufferRole::Other && L.buffers[id].name.starts_with("alloc"))
      L.buffers[id].name = ++n == 1 ? std::string("partials") : "partials" + std::to_string(n);
  return n;
}

// What the tracer could not see in this launch, from what it did see: a
// sentence each, for the launch description and the app's notice strip.
// named_partials: how many buffers name_partials named.
std::vector<std::string> tracer_limits(const Trace& t, const GlobalTouches& g, int named_partials,
                                       const AssembleReport& r) {
  const LaunchInfo& L = t.launch;
  std::vector<std::string> v;
  // Elements of A and B no load (nor cp.async) read, elements of C nothing stored.
  const std::vector<std::vector<bool>>& touched = g.elements;
  const std::uint64_t other_stores = g.other_stores;
  const char* names[3] = {"A", "B", "C"};
  const auto unread_a = std::count(touched[0].begin(), touched[0].end(), false);
  const auto unread_b = std::count(touched[1].begin(), touched[1].end(), false);
  const bool reads_neither = unread_a == static_cast<std::ptrdiff_t>(touched[0].size()) &&
                             unread_b == static_cast<std::ptrdiff_t>(touched[1].size());
  if (reads_neither)
    v.push_back("this launch reads neither A nor B: another launch's reduction or epilogue (split-k), or TMA copies, "
                "which the Compute Sanitizer API does not report");
  for (int i = 0; i < 2 && !reads_neither; ++i)
    if (const auto unread = std::count(touched[i].begin(), touched[i].end(), false); unread > 0)
      v.push_back(count_of(unread, "element", "elements") + " of " + names[i] + " (of " +
                  std::to_string(touched[i].size()) +
                  ") were never seen read: copies by the Tensor Memory Accelerator (TMA), which the Compute "
                  "Sanitizer API does not report, or a kernel that does not read them all");
  if (const auto unwritten = std::count(touched[2].begin(), touched[2].end(), false); unwritten > 0)
    v.push_back(count_of(unwritten, "element", "elements") + " of C (of " + std::to_string(touched[2].size()) +
                ") were not stored by this launch" +
                (other_stores ? ": it stored " + count_of(other_stores, "value", "values") + " to other buffers" +
                                    (named_partials > 0 ? " (named partials)" : "") +
                                    ", partial sums that another launch reduces into C (split-k)"
                              : std::string()));
  if (r.commits || r.waits)
    v.push_back("it pipelines its copies (" + count_of(r.commits, "cp.async commit", "cp.async commits") + ", " +
                count_of(r.waits, "wait", "waits") +
                "): iterations are barrier intervals, so a copy shows in the interval that issued it, not the one "
                "that reads it");
  if (r.matrix)
    v.push_back(count_of(r.matrix, "ldmatrix", "ldmatrix operations") +
                ": each recorded as the 16-byte row its thread supplies");
  if (std::any_of(L.regions.begin(), L.regions.end(), [](const Region& g) { return g.raw; }))
    v.push_back("the cubin names no __shared__ variables (a release build): shared memory is drawn as raw 4-byte "
                "words by window offset");
  if (r.local) v.push_back(count_of(r.local, "local-memory access", "local-memory accesses") + " (spills) are not traced");
  if (r.outside_global || r.outside_shared)
    v.push_back(count_of(r.outside_global + r.outside_shared, "access", "accesses") +
                " fell in no allocation or shared region and are not in the trace");
  v.push_back("a shared load's value is the last one stored to its word before it (the tracer sees addresses, not "
              "the values loaded from shared memory)");
  return v;
}

}  // namespace

std::string short_symbol_name(const std::string& symbol, std::size_t limit) {
  const std::string text = demangled_name(symbol);
  // Drop template arguments and parameter lists (nested), then keep the last component.
  std::string flat;
  int depth = 0;
  for (char ch : text) {
    if (ch == '<' || ch == '(') ++depth;
    else if ((ch == '>' || ch == ')') && depth > 0) --depth;
    else if (depth == 0) flat += ch;
  }
  if (auto colon = flat.rfind("::"); colon != std::string::npos) flat = flat.substr(colon + 2);
  if (auto space = flat.rfind(' '); space != std::string::npos) flat = flat.substr(space + 1);
  std::string out;
  for (char ch : flat)
    if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-') out += ch;
  // A generic wrapper (CUTLASS's Kernel2<Op>, a library's device_kernel<Op>) is named by its first template argument.
  const bool generic = out == "kernel" || out == "device_kernel" ||
                       (out.starts_with("Kernel") && out.find_first_not_of("0123456789", 6) == std::string::npos);
  if (const auto open = text.find('<'); generic && open != std::string::npos) {
    std::size_t end = open + 1;
    for (int depth = 0; end < text.size(); ++end) {
      if (text[end] == '<' || text[end] == '(') ++depth;
      else if ((text[end] == '>' || text[end] == ')') && depth-- == 0) break;
      else if (text[end] == ',' && depth == 0) break;
    }
    const std::string inner = short_symbol_name(text.substr(open + 1, end - open - 1), limit);
    if (inner != "kernel") out = inner;
  }
  if (out.empty()) out = "kernel";
  // Too long: its head and its tail, which is where a library's kernels of one family differ
  // ("..._execute_kernel__5x_cublas", "..._execute_split_k_kernel__5x_cublas").
  if (out.size() > limit && limit >= 32) {
    const std::size_t tail = limit / 2 - 1;
    out = out.substr(0, limit - tail - 1) + "-" + out.substr(out.size() - tail);
  }
  return out.substr(0, limit);
}

std::vector<std::string> AssembleReport::lines() const {
  std::vector<std::string> v;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%llu records -> %llu events; A, B, C are allocations %u, %u, %u",
                static_cast<unsigned long long>(records), static_cast<unsigned long long>(events), a_allocation,
                b_allocation, c_allocation);
  v.emplace_back(buf);
  std::snprintf(buf, sizeof buf,
                "barriers %llu (at most %u per thread), cp.async %llu, ldmatrix %llu, atomics %llu, pipeline commits "
                "%llu, waits %llu; static shared symbols at window offset %u",
                static_cast<unsigned long long>(barriers), max_barriers, static_cast<unsigned long long>(cp_async),
                static_cast<unsigned long long>(matrix), static_cast<unsigned long long>(atomics),
                static_cast<unsigned long long>(commits), static_cast<unsigned long long>(waits), shared_base);
  v.emplace_back(buf);
  if (local) v.push_back(std::to_string(local) + " local-memory accesses (spills) are not traced");
  auto list = [](const std::vector<std::uint64_t>& a) {
    std::string s;
    for (std::uint64_t x : a) {
      char h[24];
      std::snprintf(h, sizeof h, " 0x%llx", static_cast<unsigned long long>(x));
      s += h;
    }
    return s;
  };
  if (outside_global)
    v.push_back(std::to_string(outside_global) + " global accesses outside every allocation seen, e.g." +
                list(outside_global_addresses));
  if (outside_shared)
    v.push_back(std::to_string(outside_shared) + " shared accesses outside every region, at window offsets" +
                list(outside_shared_offsets));
  return v;
}

Trace assemble_trace(const RawLaunch& raw, const AssembleOptions& o, AssembleReport* report_out) {
  AssembleReport local_report;
  AssembleReport& report = report_out ? *report_out : local_report;
  report = {};
  if (!raw.traced)
    throw AssembleError(AssembleError::Kind::NotTraced,
                        "no launch matched the tracer's filter (--launch, --kernel-name)\n" + describe_launches(raw));
  if (raw.records_needed > raw.capacity)
    throw AssembleError(AssembleError::Kind::Overflow,
                        "the launch of " + short_symbol_name(raw.kernel) + " made " +
                            std::to_string(raw.records_needed) + " records, more than the tracer's capacity of " +
                            std::to_string(raw.capacity) +
                            " (the trace would be cut short): raise --max-records or record a smaller size");
  if (raw.records.size() != raw.records_needed)
    throw AssembleError(AssembleError::Kind::Malformed, "the tracer file holds " + std::to_string(raw.records.size()) +
                                                            " records of the " + std::to_string(raw.records_needed) +
                                                            " the launch made");
  report.records = raw.records.size();

  Trace trace;
  LaunchInfo& L = trace.launch;
  L.kernel = short_symbol_name(raw.kernel);
  L.m = o.m, L.n = o.n, L.k = o.k;
  L.grid = raw.grid;
  L.block = raw.block;
  L.recorder = "gpu";
  L.device_name = raw.device_name.empty() ? "GPU" : raw.device_name.substr(0, 256);
  L.date = utc_now_iso8601();
  const MemoryTables tables(raw, o, report);
  L.buffers = tables.buffers;
  L.regions = tables.regions;
  trace.a = operand_values(raw, tables.allocation_of[0], L.buffers[0].elements(), false, "A");
  trace.b = operand_values(raw, tables.allocation_of[1], L.buffers[1].elements(), false, "B");
  trace.c = operand_values(raw, tables.allocation_of[2], L.buffers[2].elements(), true, "C");

  // Records grouped by thread (a stable counting sort keeps each thread's program order).
  const std::uint64_t per_block = L.threads_per_block(), threads = L.thread_count();
  if (per_block > 1024) throw AssembleError(AssembleError::Kind::Malformed, "a block of more than 1024 threads");
  std::vector<std::uint64_t> start(threads + 1, 0);
  for (const RawRecord& r : raw.records) {
    if (r.block >= L.grid.count() || r.thread >= per_block)
      throw AssembleError(AssembleError::Kind::Malformed,
                          "a record of block " + std::to_string(r.block) + ", thread " + std::to_string(r.thread) +
                              ", outside the launch's " + std::to_string(L.grid.count()) + " blocks of " +
                              std::to_string(per_block) + " threads");
    ++start[r.block * per_block + r.thread + 1];
  }
  for (std::uint64_t t = 0; t < threads; ++t) start[t + 1] += start[t];
  std::vector<std::uint32_t> order(raw.records.size());
  {
    std::vector<std::uint64_t> next(start.begin(), start.end() - 1);
    for (std::uint32_t i = 0; i < raw.records.size(); ++i) {
      const RawRecord& r = raw.records[i];
      order[next[r.block * per_block + r.thread]++] = i;
    }
  }

  std::vector<Event> events;
  events.reserve(raw.records.size() * 2);
  trace.thread_offsets.assign(threads + 1, 0);
  std::vector<std::uint64_t> pcs;
  const bool want_lines = !o.sass.empty() && raw.function_pc != 0;
  if (want_lines) pcs.reserve(raw.records.size() * 2);
  ThreadAssembler assembler(raw, tables, report, want_lines ? &pcs : nullptr);
  for (std::uint64_t t = 0; t < threads; ++t) {
    const std::uint32_t barriers = assembler.run(order, start[t], start[t + 1], events);
    report.max_barriers = std::max(report.max_barriers, barriers);
    trace.thread_offsets[t + 1] = events.size();
  }
  L.iteration_rule = derive_rule(o, report.max_barriers);
  L.tile = static_cast<int>(std::clamp<std::uint32_t>(L.iteration_rule.tile, 1, 1024));
  for (Event& e : events) e.iter = iteration_of(L.iteration_rule, static_cast<ArrayId>(e.array), e.index, e.epoch);
  trace.events = EventBuffer(events.size());
  std::copy(events.begin(), events.end(), trace.events.data());
  fill_shared_loads(trace);
  report.events = events.size();

  const GlobalTouches touches(trace);
  const int named_partials = name_partials(trace, touches);

  TracerInfo info;
  info.source = "exec";
  info.symbol = demangled_name(raw.kernel).substr(0, 4096);
  const std::size_t listed = std::min<std::size_t>(raw.launches.size(), kMaxListedLaunches);
  for (std::size_t i = 0; i < listed; ++i) info.launches.push_back(short_symbol_name(raw.launches[i], 200));
  if (raw.launches.size() > listed)
    info.launches.push_back("... and " + std::to_string(raw.launches.size() - listed) + " more");
  info.launch_index = raw.launch_index;
  if (raw.launch_index >= listed) {  // far down a long program: name it last
    info.launches.push_back(short_symbol_name(raw.kernel, 200));
    info.launch_index = static_cast<std::uint32_t>(info.launches.size() - 1);
  }
  info.limits = tracer_limits(trace, touches, named_partials, report);
  if (want_lines) assign_lines(raw, o.sass, pcs, trace, info);
  L.tracer = std::move(info);
  return trace;
}

}  // namespace ts::tracer
