// sanitizer.cpp — the shadow of a block's shared memory, and the findings.
#include "kernels/emu/sanitizer.h"

#include <algorithm>

#include "trace/trace.h"
#include "trace/model/memory_counts.h"

namespace ts::emu {
namespace {

std::string coord(const Dim3& d) { return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + ")"; }


std::string at_line(std::uint32_t line) { return line ? " at line " + std::to_string(line) : ""; }

const char* verb(bool store) { return store ? "writes" : "reads"; }

}  // namespace

const char* finding_kind_name(FindingKind k) {
  switch (k) {
    case FindingKind::OutOfBounds: return "out-of-bounds";
    case FindingKind::Race: return "race";
    case FindingKind::Uninitialized: return "uninitialized";
    case FindingKind::Barrier: return "barrier";
  }
  return "?";
}

std::uint64_t CheckReport::total() const {
  std::uint64_t n = 0;
  for (std::uint64_t c : counts) n += c;
  return n;
}

void CheckReport::merge(CheckReport&& other, std::uint32_t cap) {
  for (int k = 0; k < kFindingKinds; ++k) counts[k] += other.counts[k];
  stopped = stopped || other.stopped;
  for (Finding& f : other.findings) findings.push_back(std::move(f));
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return a.block_linear != b.block_linear ? a.block_linear < b.block_linear : a.order < b.order;
  });
  std::array<std::uint32_t, kFindingKinds> kept{};
  std::erase_if(findings, [&](const Finding& f) { return kept[static_cast<int>(f.kind)]++ >= cap; });
}

std::string report_summary(const CheckReport& r, std::uint32_t cap) {
  if (r.clean()) return "no findings";
  std::string s = std::to_string(r.total()) + (r.total() == 1 ? " finding:" : " findings:");
  bool first = true, capped = false;
  for (int k = 0; k < kFindingKinds; ++k) {
    if (r.counts[k] == 0) continue;
    s += std::string(first ? " " : ", ") + std::to_string(r.counts[k]) + " " +
         finding_kind_name(static_cast<FindingKind>(k));
    first = false;
    capped = capped || r.counts[k] > cap;
  }
  if (capped) s += " (at most " + std::to_string(cap) + " of each kind shown)";
  if (r.stopped) s += "; stopped at the first (--check=continue reports them all)";
  return s;
}

nlohmann::json report_to_json(const CheckReport& r) {
  nlohmann::json counts = nlohmann::json::object();
  for (int k = 0; k < kFindingKinds; ++k) counts[finding_kind_name(static_cast<FindingKind>(k))] = r.counts[k];
  nlohmann::json list = nlohmann::json::array();
  auto site = [](const FindingSite& s) {
    return nlohmann::json{{"thread", {s.thread.x, s.thread.y, s.thread.z}}, {"line", s.line}, {"store", s.store}};
  };
  for (const Finding& f : r.findings) {
    nlohmann::json j = {{"kind", finding_kind_name(f.kind)},
                        {"block", {f.block.x, f.block.y, f.block.z}},
                        {"at", site(f.at)},
                        {"text", f.text}};
    if (f.kind != FindingKind::Barrier) {
      j["array"] = f.array_name;
      j["row"] = f.row;
      j["col"] = f.col;
    }
    if (f.kind == FindingKind::Race || f.kind == FindingKind::Barrier) j["other"] = site(f.other);
    if (f.kind == FindingKind::Race) j["same_warp"] = f.same_warp;
    list.push_back(j);
  }
  return {{"total", r.total()}, {"counts", counts}, {"stopped", r.stopped}, {"findings", list}};
}

std::string MemoryNames::of(ArrayId id) const {
  const auto i = static_cast<std::size_t>(id);
  if (i < 3) return array_name(id);
  const char* name = i < declared.size() ? declared[i].load(std::memory_order_relaxed) : nullptr;
  return name ? name : "shared region " + std::to_string(i - 3);
}

BlockChecker::BlockChecker(const CheckOptions& options, bool reporting, const MemoryNames* names)
    : options_(options), reporting_(reporting), names_(names) {}

std::string BlockChecker::subscript(ArrayId array, std::int64_t row, std::int64_t col) const {
  std::string s = (names_ ? names_->of(array) : std::string(array_name(array))) + "[" + std::to_string(row) + "]";
  if (col >= 0 || static_cast<int>(array) >= 3) s += "[" + std::to_string(col) + "]";
  return s;
}

void BlockChecker::start_block(std::uint32_t block_linear, Dim3 block, Dim3 block_dim, std::uint32_t shared_words) {
  if (shadow_.size() < shared_words) shadow_.resize(shared_words);
  block_linear_ = block_linear;
  block_ = block;
  block_dim_ = block_dim;
  ++blocks_started_;
  ++interval_;
  order_ = 0;
  barrier_reported_ = false;
}

Dim3 BlockChecker::thread_coord(std::uint32_t t) const {
  return {t % block_dim_.x, (t / block_dim_.x) % block_dim_.y, t / (block_dim_.x * block_dim_.y)};
}

void BlockChecker::add(Finding f) {
  ++report_.counts[static_cast<int>(f.kind)];
  f.block_linear = block_linear_;
  f.block = block_;
  f.order = order_++;
  std::uint64_t kept = 0;
  for (const Finding& g : report_.findings) kept += g.kind == f.kind ? 1 : 0;
  if (kept < options_.cap) report_.findings.push_back(std::move(f));
  if (options_.mode == CheckMode::Stop) {
    report_.stopped = true;
    throw CheckStop{};
  }
}

void BlockChecker::shared_access(std::uint32_t thread, std::uint32_t word, bool store, ArrayId array,
                                 std::int64_t row, std::int64_t col, std::uint32_t line) {
  if (!reporting_ || word >= shadow_.size()) return;
  Shadow& s = shadow_[word];
  if (s.interval != interval_) {  // first touch in this barrier interval
    s.interval = interval_;
    s.writer = s.reader = s.reader2 = 0;
    s.reported = false;
  }
  const auto me = static_cast<std::uint16_t>(thread + 1);
  if (!store && s.written_in != blocks_started_ && !s.reported) {
    s.reported = true;  // once per word per interval
    Finding f;
    f.kind = FindingKind::Uninitialized;
    f.at = {thread_coord(thread), line, false};
    f.array = array;
  f.array_name = names_ ? names_->of(array) : std::string(array_name(array));
    f.array_name = names_ ? names_->of(array) : std::string(array_name(array));
    f.row = row;
    f.col = col;
    f.text = "uninitialized: thread " + coord(f.at.thread) + " of block " + coord(block_) + " reads " +
             subscript(array, row, col) + at_line(line) + ", which no thread of the block has written";
    add(std::move(f));
  }
  if (!s.reported) {  // one hazard per word per interval
    const std::uint16_t other_reader = s.reader != me ? s.reader : s.reader2;
    if (s.writer != 0 && s.writer != me) {
      s.reported = true;
      race(thread, store, line, s.writer - 1u, true, s.writer_line, array, row, col);
    } else if (store && other_reader != 0) {
      s.reported = true;
      race(thread, true, line, other_reader - 1u, false, other_reader == s.reader ? s.reader_line : s.reader2_line,
           array, row, col);
    }
  }
  if (store) {
    s.writer = me;
    s.writer_line = line;
    s.written_in = blocks_started_;
  } else if (s.reader == 0) {
    s.reader = me;
    s.reader_line = line;
  } else if (s.reader != me && s.reader2 == 0) {
    s.reader2 = me;  // a second reader: a later write by the first one still races with it
    s.reader2_line = line;
  }
}

void BlockChecker::race(std::uint32_t thread, bool store, std::uint32_t line, std::uint32_t other, bool other_store,
                        std::uint32_t other_line, ArrayId array, std::int64_t row, std::int64_t col) {
  Finding f;
  f.kind = FindingKind::Race;
  f.at = {thread_coord(thread), line, store};
  f.other = {thread_coord(other), other_line, other_store};
  f.array = array;
  f.array_name = names_ ? names_->of(array) : std::string(array_name(array));
  f.row = row;
  f.col = col;
  f.same_warp = thread / kWarpSize == other / kWarpSize;
  f.text = "race: thread " + coord(f.at.thread) + " of block " + coord(block_) + " " + verb(store) + " " +
           subscript(array, row, col) + at_line(line) + " and thread " + coord(f.other.thread) + " " +
           verb(other_store) + " it" + at_line(other_line) + " with no __syncthreads() between" +
           (f.same_warp ? " (the same warp: its threads are not in lockstep since Volta)" : "");
  add(std::move(f));
}

void BlockChecker::out_of_bounds(std::uint32_t thread, ArrayId array, std::int64_t row, std::int64_t col,
                                 std::uint32_t line, bool store, const std::string& extent) {
  if (!reporting_) return;
  Finding f;
  f.kind = FindingKind::OutOfBounds;
  f.at = {thread_coord(thread), line, store};
  f.array = array;
  f.array_name = names_ ? names_->of(array) : std::string(array_name(array));
  f.row = row;
  f.col = col;
  f.text = "out of bounds: thread " + coord(f.at.thread) + " of block " + coord(block_) + " " + verb(store) + " " +
           subscript(array, row, col) + at_line(line) + " (" + extent + "); not performed";
  add(std::move(f));
}

void BlockChecker::barrier_exit(std::uint32_t finished, std::uint32_t waiting, std::uint32_t waiting_line) {
  if (!reporting_ || barrier_reported_) return;
  barrier_reported_ = true;
  Finding f;
  f.kind = FindingKind::Barrier;
  f.at = {thread_coord(finished), 0, false};
  f.other = {thread_coord(waiting), waiting_line, false};
  f.text = "barrier: thread " + coord(f.at.thread) + " of block " + coord(block_) + " finished while thread " +
           coord(f.other.thread) + " waits at __syncthreads()" + at_line(waiting_line) +
           ": a barrier inside divergent code (the waiting threads go on)";
  add(std::move(f));
}

void BlockChecker::barrier_mismatch(std::uint32_t thread, std::uint32_t line, std::uint32_t other,
                                    std::uint32_t other_line) {
  if (!reporting_ || barrier_reported_) return;
  barrier_reported_ = true;
  Finding f;
  f.kind = FindingKind::Barrier;
  f.at = {thread_coord(thread), line, false};
  f.other = {thread_coord(other), other_line, false};
  f.text = "barrier: thread " + coord(f.at.thread) + " of block " + coord(block_) + " waits at __syncthreads()" +
           at_line(line) + " while thread " + coord(f.other.thread) + " waits at another" + at_line(other_line) +
           ": a barrier inside divergent code";
  add(std::move(f));
}

}  // namespace ts::emu
