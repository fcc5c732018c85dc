// trace.cpp — coordinates and names for the trace model.
#include "trace/trace.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <new>

namespace ts {

namespace {
constexpr std::size_t kHugePage = 2u << 20;
}

EventBuffer::EventBuffer(std::size_t n) : size_(n) {
  if (n == 0) return;
  const std::size_t bytes = n * sizeof(Event);
  if (bytes < kHugePage) {
    data_ = std::unique_ptr<Event[], Release>(new Event[n], Release{0});
    return;
  }
  const std::size_t mapped = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  madvise(p, mapped, MADV_HUGEPAGE);  // a hint: without it (or without THP) 4 KB pages still work
  data_ = std::unique_ptr<Event[], Release>(static_cast<Event*>(p), Release{mapped});
}

void EventBuffer::Release::operator()(Event* p) const {
  if (bytes == 0) delete[] p;
  else munmap(p, bytes);
}

bool LaunchInfo::block_traced(std::uint32_t block_linear) const {
  return traced_blocks.empty() || std::binary_search(traced_blocks.begin(), traced_blocks.end(), block_linear);
}

ThreadCoord Trace::thread_coord(std::uint64_t thread) const {
  const std::uint64_t per_block = launch.block.count();
  ThreadCoord c;
  c.block_linear = static_cast<std::uint32_t>(thread / per_block);
  c.thread_in_block = static_cast<std::uint32_t>(thread % per_block);
  c.block.x = c.block_linear % launch.grid.x;
  c.block.y = (c.block_linear / launch.grid.x) % launch.grid.y;
  c.block.z = c.block_linear / (launch.grid.x * launch.grid.y);
  c.thread.x = c.thread_in_block % launch.block.x;
  c.thread.y = (c.thread_in_block / launch.block.x) % launch.block.y;
  c.thread.z = c.thread_in_block / (launch.block.x * launch.block.y);
  c.warp = c.thread_in_block / 32;
  return c;
}

std::uint64_t Trace::thread_id(const Dim3& block, const Dim3& thread) const {
  const std::uint64_t block_linear = (std::uint64_t{block.z} * launch.grid.y + block.y) * launch.grid.x + block.x;
  const std::uint64_t in_block = (std::uint64_t{thread.z} * launch.block.y + thread.y) * launch.block.x + thread.x;
  return block_linear * launch.block.count() + in_block;
}

ElementCoord Trace::element(ArrayId array, std::uint32_t index) const {
  const MatrixCoord c = launch.coord(static_cast<std::uint32_t>(array), index);
  return {c.row, c.col};
}

std::uint64_t Trace::address(ArrayId array, std::uint32_t index) const {
  return launch.address(static_cast<std::uint32_t>(array), index);
}

const std::vector<float>& Trace::values(BufferRole role) const {
  static const std::vector<float> kNone;
  switch (role) {
    case BufferRole::A: return a;
    case BufferRole::B: return b;
    case BufferRole::C: return c;
    case BufferRole::Other: break;
  }
  return kNone;
}

float Trace::value_at(BufferRole role, std::uint32_t row, std::uint32_t col) const {
  const Buffer* buf = launch.buffer_with_role(role);
  const std::vector<float>& v = values(role);
  if (!buf || row >= buf->rows || col >= buf->cols) return 0.0f;
  const std::uint64_t i = buf->index_of(row, col);
  return i < v.size() ? v[i] : 0.0f;
}

DenseMatrix::DenseMatrix(const Trace& t, BufferRole role) {
  const Buffer* buf = t.launch.buffer_with_role(role);
  if (!buf) return;
  rows_ = buf->rows;
  cols_ = buf->cols;
  const std::vector<float>& v = t.values(role);
  const std::size_t n = std::size_t{rows_} * cols_;
  if (buf->order == MatrixOrder::RowMajor && buf->ld == buf->cols && v.size() >= n) {
    values_ = std::span<const float>(v.data(), n);
    return;
  }
  copy_.assign(n, 0.0f);
  for (std::uint32_t r = 0; r < rows_; ++r)
    for (std::uint32_t c = 0; c < cols_; ++c) {
      const std::uint64_t i = buf->index_of(r, c);
      if (i < v.size()) copy_[std::size_t{r} * cols_ + c] = v[i];
    }
  values_ = copy_;
}

void Trace::mark_spaces(std::uint64_t first_thread, std::uint64_t end_thread) {
  if (thread_offsets.empty()) return;
  end_thread = std::min<std::uint64_t>(end_thread, thread_offsets.size() - 1);
  if (first_thread >= end_thread) return;
  const std::uint64_t first = thread_offsets[first_thread], end = thread_offsets[end_thread];
  for (std::uint64_t i = first; i < end && i < events.size(); ++i) {
    Event& e = events[i];
    e.flags = static_cast<std::uint8_t>(launch.is_region(e.array) ? e.flags | kFlagShared : e.flags & ~kFlagShared);
  }
}

std::string LaunchInfo::memory_name(std::uint32_t id) const {
  if (const Buffer* b = buffer_at(id)) return b->name;
  if (const Region* r = region_at(id)) return r->name;
  return "?";
}

std::optional<std::uint32_t> LaunchInfo::find_memory(std::string_view name) const {
  for (std::uint32_t id = 0; id < memory_count(); ++id)
    if (memory_name(id) == name) return id;
  return std::nullopt;
}

const Buffer* LaunchInfo::buffer_with_role(BufferRole role) const {
  for (const Buffer& b : buffers)
    if (b.role == role) return &b;
  return nullptr;
}

std::uint32_t LaunchInfo::role_id(BufferRole role) const {
  for (std::size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].role == role) return static_cast<std::uint32_t>(i);
  return kNoMemory;
}

BufferRole LaunchInfo::role_of(std::uint32_t id) const {
  const Buffer* b = buffer_at(id);
  return b ? b->role : BufferRole::Other;
}

MatrixCoord LaunchInfo::coord(std::uint32_t id, std::uint32_t index) const {
  if (const Buffer* b = buffer_at(id)) return b->coord(index);
  if (const Region* r = region_at(id)) return r->coord(index);
  return {};
}

std::uint64_t LaunchInfo::address(std::uint32_t id, std::uint32_t index) const {
  if (const Buffer* b = buffer_at(id)) return b->address(index);
  if (const Region* r = region_at(id)) return r->window_offset(index);
  return 0;
}

ArrayLayout LaunchInfo::array(ArrayId id) const {
  const auto i = static_cast<std::uint32_t>(id);
  if (space_of(id) == Space::Global) {
    if (i >= buffers.size() || buffers[i].name.empty()) return {};
    const Buffer& b = buffers[i];
    return {true, b.base, b.rows, b.cols, b.ld};
  }
  // As and Bs: the first two regions, when the buffers are exactly A, B, C.
  const std::size_t r = i - static_cast<std::uint32_t>(ArrayId::As);
  if (buffers.size() != 3 || r >= regions.size()) return {};
  const Region& g = regions[r];
  return {true, g.offset, g.rows, g.cols, g.ld};
}

void LaunchInfo::set_array(ArrayId id, const ArrayLayout& l) {
  const auto i = static_cast<std::uint32_t>(id);
  if (space_of(id) == Space::Global) {
    if (buffers.size() <= i) buffers.resize(i + 1);
    Buffer& b = buffers[i];
    b.name = array_name(id);
    b.role = static_cast<BufferRole>(i);
    b.type = ElementType::F32;
    b.order = MatrixOrder::RowMajor;
    b.base = l.base;
    b.rows = l.rows;
    b.cols = l.cols;
    b.ld = l.ld;
    return;
  }
  for (ArrayId g : {ArrayId::A, ArrayId::B, ArrayId::C})
    if (buffers.size() <= static_cast<std::uint32_t>(g) || buffers[static_cast<std::uint32_t>(g)].name.empty())
      set_array(g, {});
  const std::size_t r = i - static_cast<std::uint32_t>(ArrayId::As);
  if (regions.size() <= r) regions.resize(r + 1);
  Region& g = regions[r];
  g.name = array_name(id);
  g.type = ElementType::F32;
  g.raw = false;
  g.offset = static_cast<std::uint32_t>(l.base);
  g.rows = l.rows;
  g.cols = l.cols;
  g.ld = l.ld;
  g.bytes = static_cast<std::uint32_t>(std::min<std::uint64_t>(l.elements() * sizeof(float), UINT32_MAX));
  if (!l.present) regions.resize(r);  // an absent array: none from it on
}

bool LaunchInfo::has_own_arrays_only() const {
  if (buffers.size() != 3 || regions.size() > 2) return false;
  for (std::uint32_t i = 0; i < 3; ++i) {
    const Buffer& b = buffers[i];
    if (b.name != array_name(ArrayId(i)) || b.role != BufferRole(i) || b.type != ElementType::F32 ||
        b.order != MatrixOrder::RowMajor)
      return false;
  }
  for (std::size_t r = 0; r < regions.size(); ++r) {
    const Region& g = regions[r];
    if (g.name != array_name(ArrayId(3 + r)) || g.raw || g.type != ElementType::F32) return false;
  }
  return true;
}

std::uint64_t Trace::memory_bytes() const {
  return events.size() * sizeof(Event) + thread_offsets.size() * sizeof(std::uint64_t) +
         block_timing.size() * sizeof(BlockTiming) + (a.size() + b.size() + c.size()) * sizeof(float) +
         lines.size() * sizeof(std::uint16_t);
}

bool lines_fit(const Trace& trace, const Trace& with_lines) {
  return with_lines.lines.size() == with_lines.events.size() && trace.thread_offsets == with_lines.thread_offsets;
}

const char* array_name(ArrayId a) {
  switch (a) {
    case ArrayId::A: return "A";
    case ArrayId::B: return "B";
    case ArrayId::C: return "C";
    case ArrayId::As: return "As";
    case ArrayId::Bs: return "Bs";
  }
  return "?";
}

const char* space_name(Space s) { return s == Space::Global ? "global" : "shared"; }
const char* op_name(Op o) { return o == Op::Load ? "load" : "store"; }

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace ts
