// trace.cpp — coordinates and names for the trace model.
#include "app/core/trace.h"

#include <sys/mman.h>

#include <algorithm>
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
  const auto& l = launch.arrays[static_cast<int>(array)];
  if (l.ld == 0) return {};
  return {index / l.ld, index % l.ld};
}

std::uint64_t Trace::address(ArrayId array, std::uint32_t index) const {
  return launch.arrays[static_cast<int>(array)].base + std::uint64_t{index} * sizeof(float);
}

std::uint64_t Trace::memory_bytes() const {
  return events.size() * sizeof(Event) + thread_offsets.size() * sizeof(std::uint64_t) +
         block_timing.size() * sizeof(BlockTiming) + (a.size() + b.size() + c.size()) * sizeof(float) +
         lines.size() * sizeof(std::uint16_t);
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
