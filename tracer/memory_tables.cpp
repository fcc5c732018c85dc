// memory_tables.cpp — A, B, C and the other buffers, the shared regions, and
// address lookups for the assembler (memory_tables.h, assemble.h).
#include "tracer/memory_tables.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace ts::tracer {
namespace {

struct AllocSpan {
  std::uint64_t begin, end;
  std::uint32_t index;
};

// The allocation holding address, by binary search over spans sorted by begin.
std::optional<std::uint32_t> allocation_at(const std::vector<AllocSpan>& spans, std::uint64_t address) {
  auto it = std::upper_bound(spans.begin(), spans.end(), address,
                             [](std::uint64_t a, const AllocSpan& s) { return a < s.begin; });
  if (it == spans.begin()) return std::nullopt;
  --it;
  if (address >= it->end) return std::nullopt;
  return it->index;
}

std::string unique_name(std::string name, std::set<std::string>& taken) {
  if (name.empty()) name = "memory";
  std::string candidate = name;
  for (int i = 1; taken.count(candidate); ++i) candidate = name.substr(0, 58) + "_" + std::to_string(i);
  taken.insert(candidate);
  return candidate;
}

[[noreturn]] void operands_error(const RawLaunch& raw, const std::string& what) {
  throw AssembleError(AssembleError::Kind::Operands, what + "\n" + describe_launches(raw));
}

// Whether a record touches shared memory, and where (window bytes).
bool shared_bytes_of(const RawRecord& r, std::uint64_t& offset, std::uint32_t& bytes) {
  if (r.kind == kRecordShared || r.kind == kRecordMatrixShared) {
    offset = r.address;
    bytes = r.kind == kRecordMatrixShared ? 16 : r.bytes;
    return true;
  }
  if (r.kind == kRecordCpAsync) {
    offset = r.aux;
    bytes = r.bytes;
    return true;
  }
  return false;
}

}  // namespace

MemoryTables::MemoryTables(const RawLaunch& raw, const AssembleOptions& o, AssembleReport& report) {
  if (o.m < 1 || o.n < 1 || o.k < 1) operands_error(raw, "--m, --n and --k must each be at least 1");
  const std::uint64_t mk = std::uint64_t(o.m) * o.k * 4, kn = std::uint64_t(o.k) * o.n * 4,
                      mn = std::uint64_t(o.m) * o.n * 4;

  // The allocations the launch touched, and those it stored to.
  std::vector<AllocSpan> spans;
  for (std::uint32_t i = 0; i < raw.allocations.size(); ++i)
    spans.push_back({raw.allocations[i].address, raw.allocations[i].address + raw.allocations[i].bytes, i});
  std::sort(spans.begin(), spans.end(), [](const AllocSpan& a, const AllocSpan& b) { return a.begin < b.begin; });
  std::vector<bool> touched(raw.allocations.size()), stored(raw.allocations.size());
  for (const RawRecord& r : raw.records) {
    if (r.kind != kRecordGlobal && !(r.kind == kRecordCpAsync && r.address != 0)) continue;
    if (auto a = allocation_at(spans, r.address)) {
      touched[*a] = true;
      if (r.kind == kRecordGlobal && r.access != kAccessLoad) stored[*a] = true;
    }
  }

  // A, B, C: named, else by size (assemble.h).
  auto check_named = [&](const std::optional<std::uint32_t>& named, std::uint64_t bytes, const char* what) {
    if (!named) return;
    if (*named >= raw.allocations.size())
      operands_error(raw, std::string(what) + " names allocation " + std::to_string(*named) + ", but the program made " +
                              std::to_string(raw.allocations.size()));
    if (raw.allocations[*named].bytes < bytes)
      operands_error(raw, std::string(what) + ": allocation " + std::to_string(*named) + " holds " +
                              std::to_string(raw.allocations[*named].bytes) + " bytes, fewer than the " +
                              std::to_string(bytes) + " it needs");
  };
  check_named(o.a_allocation, mk, "A");
  check_named(o.b_allocation, kn, "B");
  check_named(o.c_allocation, mn, "C");
  std::set<std::uint32_t> used;
  for (const auto& named : {o.a_allocation, o.b_allocation, o.c_allocation})
    if (named) used.insert(*named);
  auto candidates = [&](std::uint64_t bytes) {
    std::vector<std::uint32_t> c;
    for (std::uint32_t i = 0; i < raw.allocations.size(); ++i)
      if (raw.allocations[i].bytes == bytes && !used.count(i)) c.push_back(i);
    return c;
  };
  auto take = [&](std::uint32_t i) {
    used.insert(i);
    return i;
  };
  const auto size_text = [](const char* what, int r, int c, std::uint64_t bytes) {
    return std::string(what) + " (" + std::to_string(r) + " x " + std::to_string(c) + " floats, " +
           std::to_string(bytes) + " bytes)";
  };
  std::optional<std::uint32_t> a = o.a_allocation, b = o.b_allocation, c = o.c_allocation;
  if (!c) {
    const auto cs = candidates(mn);
    auto it = std::find_if(cs.begin(), cs.end(), [&](std::uint32_t i) { return stored[i]; });
    if (it != cs.end()) c = take(*it);
    else if (!cs.empty()) c = take(cs.back());
    else operands_error(raw, "no allocation is " + size_text("C", o.m, o.n, mn));
  }
  if (!a) {
    const auto cs = candidates(mk);
    if (cs.empty()) operands_error(raw, "no allocation is " + size_text("A", o.m, o.k, mk));
    a = take(cs.front());
  }
  if (!b) {
    const auto cs = candidates(kn);
    if (cs.empty()) operands_error(raw, "no allocation is " + size_text("B", o.k, o.n, kn));
    b = take(cs.front());
  }
  allocation_of[0] = *a;
  allocation_of[1] = *b;
  allocation_of[2] = *c;
  report.a_allocation = *a;
  report.b_allocation = *b;
  report.c_allocation = *c;

  // The buffers: A, B, C, then every other allocation touched.
  std::set<std::string> names{"A", "B", "C"};
  const bool row = o.order == MatrixOrder::RowMajor;
  auto operand = [&](const char* name, BufferRole role, int rows, int cols, std::uint32_t alloc) {
    Buffer buf;
    buf.name = name;
    buf.role = role;
    buf.type = ElementType::F32;
    buf.rows = static_cast<std::uint32_t>(rows);
    buf.cols = static_cast<std::uint32_t>(cols);
    buf.ld = row ? buf.cols : buf.rows;
    buf.order = o.order;
    buf.base = raw.allocations[alloc].address;
    buffers.push_back(buf);
    buffer_allocation_.push_back(alloc);
  };
  operand("A", BufferRole::A, o.m, o.k, *a);
  operand("B", BufferRole::B, o.k, o.n, *b);
  operand("C", BufferRole::C, o.m, o.n, *c);
  for (std::uint32_t i = 0; i < raw.allocations.size(); ++i) {
    if (!touched[i] || i == *a || i == *b || i == *c) continue;
    const RawAllocation& al = raw.allocations[i];
    Buffer buf;
    const std::string given = al.name.empty() ? std::string() : short_symbol_name(al.name, 56);
    buf.name = unique_name(given.empty() ? "alloc" + std::to_string(i) : given, names);
    buf.role = BufferRole::Other;
    buf.type = ElementType::Word;
    buf.rows = 1;
    buf.cols = buf.ld = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(al.bytes / 4, 1, 0xFFFFFFFFull));
    buf.base = al.address;
    buffers.push_back(buf);
    buffer_allocation_.push_back(i);
  }
  for (std::uint32_t id = 0; id < buffers.size(); ++id)
    global_spans_.push_back({buffers[id].base, buffers[id].base + buffers[id].elements() * 4, id});
  std::sort(global_spans_.begin(), global_spans_.end(), [](const Span& x, const Span& y) { return x.begin < y.begin; });

  // The regions: the static symbols at the base under which more accesses land in them.
  auto hits_at = [&](std::uint32_t base) {
    std::uint64_t hits = 0;
    for (const RawRecord& r : raw.records) {
      std::uint64_t off;
      std::uint32_t bytes;
      if (!shared_bytes_of(r, off, bytes)) continue;
      for (const RawSharedSymbol& s : raw.shared_symbols)
        if (off >= std::uint64_t{base} + s.offset && off + bytes <= std::uint64_t{base} + s.offset + s.bytes) ++hits;
    }
    return hits;
  };
  constexpr std::uint32_t kReservedShared = 1024;  // sm_80 and later reserve the window's first KiB
  if (!raw.shared_symbols.empty() && hits_at(kReservedShared) > hits_at(0)) shared_base = kReservedShared;
  report.shared_base = shared_base;
  std::uint64_t static_end = 0;
  for (const RawSharedSymbol& s : raw.shared_symbols) {
    const std::uint32_t words = s.bytes / 4;
    if (words == 0) continue;  // a byte-sized variable: its accesses count as outside
    Region g;
    g.name = unique_name(short_symbol_name(s.name), names);
    g.offset = shared_base + s.offset;
    g.type = ElementType::F32;
    std::uint32_t side = 1;
    while ((side + 1) * (side + 1) <= words) ++side;
    if (side * side == words) g.rows = g.cols = g.ld = side;
    else g.rows = 1, g.cols = g.ld = words;
    g.bytes = words * 4;
    static_end = std::max<std::uint64_t>(static_end, g.offset + g.bytes);
    regions.push_back(g);
  }
  // The rest of the window the launch touched: dynamic shared memory, as one raw region.
  std::uint64_t lo = ~0ull, hi = 0;
  for (const RawRecord& r : raw.records) {
    std::uint64_t off;
    std::uint32_t bytes;
    if (!shared_bytes_of(r, off, bytes) || off < static_end) continue;
    lo = std::min(lo, off);
    hi = std::max(hi, off + bytes);
  }
  if (hi > lo) {
    const std::uint64_t start = regions.empty() ? lo & ~3ull : (static_end + 3) & ~3ull;
    // Whole rows of 32 words, as a raw region is drawn (and validated).
    const std::uint64_t end = start + ((hi - start + 127) & ~127ull);
    if (end > 0xFFFFFFFFull)
      throw AssembleError(AssembleError::Kind::Malformed, "a shared access at window offset " + std::to_string(hi) +
                                                              ", past any shared window");
    regions.push_back(raw_region(unique_name(regions.empty() ? "smem" : "dynamic", names),
                                 static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(end - start)));
  }
  if (buffers.size() + regions.size() > kMaxMemoryIds)
    throw AssembleError(AssembleError::Kind::TooLarge,
                        "the launch touched " + std::to_string(buffers.size()) + " allocations and " +
                            std::to_string(regions.size()) + " shared regions, more than a trace's " +
                            std::to_string(kMaxMemoryIds) + " memory ids");
  for (std::uint32_t r = 0; r < regions.size(); ++r)
    shared_spans_.push_back({regions[r].offset, std::uint64_t{regions[r].offset} + regions[r].bytes,
                             static_cast<std::uint32_t>(buffers.size() + r)});
  std::sort(shared_spans_.begin(), shared_spans_.end(), [](const Span& x, const Span& y) { return x.begin < y.begin; });
}

namespace {
template <class Spans>
std::optional<Located> find_in(const Spans& spans, std::uint64_t address, std::uint32_t bytes) {
  auto it = std::upper_bound(spans.begin(), spans.end(), address,
                             [](std::uint64_t a, const auto& s) { return a < s.begin; });
  if (it == spans.begin()) return std::nullopt;
  --it;
  if (address + std::max<std::uint32_t>(bytes, 1) > it->end) return std::nullopt;
  return Located{it->id, static_cast<std::uint32_t>((address - it->begin) / 4)};
}
}  // namespace

std::optional<Located> MemoryTables::global(std::uint64_t address, std::uint32_t bytes) const {
  return find_in(global_spans_, address, bytes);
}

std::optional<Located> MemoryTables::shared(std::uint64_t offset, std::uint32_t bytes) const {
  return find_in(shared_spans_, offset, bytes);
}

std::string describe_launches(const RawLaunch& raw) {
  std::string s = "kernels launched:";
  if (raw.launches.empty()) s += " none";
  for (std::size_t i = 0; i < raw.launches.size(); ++i)
    s += "\n  " + std::to_string(i) + ": " + short_symbol_name(raw.launches[i], 200) +
         (raw.traced && i == raw.launch_index ? "  (traced)" : "");
  s += "\nallocations seen:";
  if (raw.allocations.empty()) s += " none";
  for (std::size_t i = 0; i < raw.allocations.size(); ++i) {
    char line[160];
    std::snprintf(line, sizeof line, "\n  %zu: 0x%llx, %llu bytes (%llu floats)%s%s", i,
                  static_cast<unsigned long long>(raw.allocations[i].address),
                  static_cast<unsigned long long>(raw.allocations[i].bytes),
                  static_cast<unsigned long long>(raw.allocations[i].bytes / 4),
                  raw.allocations[i].name.empty() ? "" : " ", raw.allocations[i].name.c_str());
    s += line;
  }
  return s;
}

}  // namespace ts::tracer
