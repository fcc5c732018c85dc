// trace_codec.cpp — encode and decode the streams of trace file version 2.
//
// The encoder and the decoder walk the events in the same order through the
// same functions (walk_fields, first_value_pass, shared_load_pass), which make
// the predictions; only what they do with a prediction differs. So a new Event
// field is one more entry in EventFields and nothing else.
#include "app/core/trace_codec.h"

#include <zstd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>
#include <new>
#include <tuple>
#include <utility>

#include "app/core/trace_file.h"

namespace ts {
namespace {

using Kind = TraceFileError::Kind;

// ---- the Event fields, each coded as a residual against its neighbour -------

struct IndexField {
  static std::uint32_t get(const Event& e) { return e.index; }
  static void set(Event& e, std::uint32_t v) { e.index = v; }
};
struct EpochField {
  static std::uint32_t get(const Event& e) { return e.epoch; }
  static void set(Event& e, std::uint32_t v) { e.epoch = v & 0x1FFFu; }
};
struct ArrayField {
  static std::uint32_t get(const Event& e) { return e.array; }
  static void set(Event& e, std::uint32_t v) { e.array = v & 0x7u; }
};
struct IterField {
  static std::uint32_t get(const Event& e) { return e.iter; }
  static void set(Event& e, std::uint32_t v) { e.iter = v & 0x3FFFu; }
};
struct FlagsField {
  static std::uint32_t get(const Event& e) { return e.flags; }
  static void set(Event& e, std::uint32_t v) { e.flags = v & 0x3u; }
};
// Every Event field but the value (coded by prediction below), one stream each.
using EventFields = std::tuple<IndexField, EpochField, ArrayField, IterField, FlagsField>;
constexpr std::size_t kFieldCount = std::tuple_size_v<EventFields>;
constexpr const char* kFieldNames[kFieldCount] = {"index", "epoch", "array", "iter", "flags"};

// Stream order in the file.
enum Stream : std::size_t { kA, kB, kC, kThreadEvents, kBlockTiming, kFirstField };
constexpr std::size_t kValueMisses = kFirstField + kFieldCount;
constexpr std::size_t kValueExceptions = kValueMisses + 1;
constexpr std::size_t kStreamCount = kValueExceptions + 1;

std::uint32_t zigzag(std::uint32_t diff) {
  return (diff << 1) ^ static_cast<std::uint32_t>(static_cast<std::int32_t>(diff) >> 31);
}
std::uint32_t unzigzag(std::uint32_t z) { return (z >> 1) ^ (0u - (z & 1u)); }

// ---- zstd streams -------------------------------------------------------------

// Level 3 with a 1 MiB window: the repeats that matter (one thread's events
// against the next's) are a few hundred bytes apart, and the decoder refuses
// frames that ask for a larger window, so a hostile frame cannot make it allocate.
constexpr int kLevel = 3;
constexpr int kWindowLog = 20;
constexpr std::size_t kBufferBytes = 1 << 16;

struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

class StreamWriter {
 public:
  StreamWriter() : cctx_(ZSTD_createCCtx()), buf_(kBufferBytes) {
    if (!cctx_) throw std::bad_alloc();
    ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_compressionLevel, kLevel);
    ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_windowLog, kWindowLog);
  }
  void put(std::uint8_t b) {
    if (n_ == buf_.size()) flush(ZSTD_e_continue);
    buf_[n_++] = b;
  }
  void put_varint(std::uint32_t v) {
    while (v >= 0x80) {
      put(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    put(static_cast<std::uint8_t>(v));
  }
  void put_bytes(const void* p, std::size_t n) {
    const auto* s = static_cast<const std::uint8_t*>(p);
    while (n) {
      if (n_ == buf_.size()) flush(ZSTD_e_continue);
      const std::size_t k = std::min(n, buf_.size() - n_);
      std::memcpy(buf_.data() + n_, s, k);
      n_ += k;
      s += k;
      n -= k;
    }
  }
  void put_bit(bool bit) {
    bits_ |= static_cast<std::uint8_t>(bit) << nbits_;
    if (++nbits_ == 8) {
      put(bits_);
      bits_ = 0;
      nbits_ = 0;
    }
  }
  std::vector<std::byte> finish() {
    if (nbits_) put(bits_);
    flush(ZSTD_e_end);
    out_.resize(used_);
    return std::move(out_);
  }

 private:
  void flush(ZSTD_EndDirective mode) {
    ZSTD_inBuffer in{buf_.data(), n_, 0};
    for (;;) {
      if (out_.size() - used_ < ZSTD_CStreamOutSize()) out_.resize(std::max(out_.size() * 2, used_ + ZSTD_CStreamOutSize()));
      ZSTD_outBuffer out{out_.data(), out_.size(), used_};
      const std::size_t r = ZSTD_compressStream2(cctx_.get(), &out, &in, mode);
      if (ZSTD_isError(r))
        throw TraceFileError(Kind::CannotWrite, std::string("cannot compress the trace: ") + ZSTD_getErrorName(r));
      used_ = out.pos;
      if (mode == ZSTD_e_end ? r == 0 : in.pos == in.size) break;
    }
    n_ = 0;
  }
  std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx_;
  std::vector<std::uint8_t> buf_;
  std::size_t n_ = 0;
  std::vector<std::byte> out_;
  std::size_t used_ = 0;
  std::uint8_t bits_ = 0;
  int nbits_ = 0;
};

class StreamReader {
 public:
  StreamReader() = default;
  StreamReader(std::span<const std::byte> src, std::string name)
      : dctx_(ZSTD_createDCtx()), in_{src.data(), src.size(), 0}, buf_(kBufferBytes), name_(std::move(name)) {
    if (!dctx_) throw std::bad_alloc();
    ZSTD_DCtx_setParameter(dctx_.get(), ZSTD_d_windowLogMax, kWindowLog);
  }
  std::uint8_t get() {
    if (pos_ == len_) refill();
    return buf_[pos_++];
  }
  std::uint32_t get_varint() {
    std::uint32_t v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      const std::uint8_t b = get();
      v |= static_cast<std::uint32_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    fail(Kind::Corrupt, "a number longer than 5 bytes");
  }
  void get_bytes(void* dst, std::size_t n) {
    auto* d = static_cast<std::uint8_t*>(dst);
    while (n) {
      if (pos_ == len_) refill();
      const std::size_t k = std::min(n, len_ - pos_);
      std::memcpy(d, buf_.data() + pos_, k);
      pos_ += k;
      d += k;
      n -= k;
    }
  }
  bool get_bit() {
    if (nbits_ == 0) {
      bits_ = get();
      nbits_ = 8;
    }
    const bool bit = bits_ & 1;
    bits_ >>= 1;
    --nbits_;
    return bit;
  }
  // Everything was read: nothing may follow.
  void expect_end() {
    if (pos_ != len_) fail(Kind::Corrupt, "data left over");
    if (!frame_done_) {  // the frame may still hold data or lack its end
      ZSTD_outBuffer out{buf_.data(), buf_.size(), 0};
      const std::size_t r = ZSTD_decompressStream(dctx_.get(), &out, &in_);
      if (ZSTD_isError(r)) fail(Kind::Corrupt, ZSTD_getErrorName(r));
      if (out.pos != 0) fail(Kind::Corrupt, "data left over");
      if (r != 0) fail(Kind::Truncated, "ends early");
    }
    if (in_.pos != in_.size) fail(Kind::Corrupt, "data left over");
  }

 private:
  void refill() {
    for (;;) {
      ZSTD_outBuffer out{buf_.data(), buf_.size(), 0};
      const std::size_t before = in_.pos;
      const std::size_t r = ZSTD_decompressStream(dctx_.get(), &out, &in_);
      if (ZSTD_isError(r)) fail(Kind::Corrupt, ZSTD_getErrorName(r));
      frame_done_ = r == 0;  // the frame ended and all its data is in out
      if (out.pos) {
        len_ = out.pos;
        pos_ = 0;
        return;
      }
      if (in_.pos == in_.size || in_.pos == before) fail(Kind::Truncated, "ends early");
    }
  }
  [[noreturn]] void fail(Kind kind, const std::string& what) const {
    throw TraceFileError(kind, std::string(kind == Kind::Truncated ? "truncated" : "corrupt") + ": the " + name_ +
                                   " stream: " + what);
  }
  std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx_;
  ZSTD_inBuffer in_{};
  std::vector<std::uint8_t> buf_;
  std::size_t pos_ = 0, len_ = 0;
  std::string name_;
  std::uint8_t bits_ = 0;
  int nbits_ = 0;
  bool frame_done_ = false;
};

// ---- the walks that encoder and decoder share ----------------------------------

// The neighbour whose fields predict event j of thread t: the previous thread's
// event j (the lane next to it in the same instruction), else the thread's own
// previous event; none for a thread's first event with no such neighbour.
constexpr std::uint64_t kNone = ~0ull;

// Calls code.template field<F, I>(event position, neighbour position) for every
// field of every event, in file order.
template <class Code>
void walk_fields(const std::vector<std::uint64_t>& off, Code&& code) {
  const std::uint64_t threads = off.size() - 1;
  for (std::uint64_t t = 0; t < threads; ++t) {
    const std::uint64_t begin = off[t], count = off[t + 1] - off[t];
    const std::uint64_t prev_count = t > 0 ? off[t] - off[t - 1] : 0;
    for (std::uint64_t j = 0; j < count; ++j) {
      const std::uint64_t nb = j < prev_count ? off[t - 1] + j : (j > 0 ? begin + j - 1 : kNone);
      code(begin + j, nb);
    }
  }
}

struct Inputs {
  std::span<const float> a, b, c;
  float at(const Event& e) const {
    const std::span<const float>* m = e.array == 0 ? &a : e.array == 1 ? &b : e.array == 2 ? &c : nullptr;
    return m && e.index < m->size() ? (*m)[e.index] : 0.0f;
  }
};

bool is_shared(const Event& e) { return e.array == static_cast<unsigned>(ArrayId::As) || e.array == static_cast<unsigned>(ArrayId::Bs); }
bool is_store(const Event& e) { return (e.flags & kFlagStore) != 0; }

// The global loads a thread has made since its last shared store, oldest
// first: a tile load stores into shared memory what it loaded, in order.
class LoadQueue {
 public:
  void push(float v) {
    if (size_ == kCapacity) pop();
    q_[(head_ + size_++) % kCapacity] = v;
    last_ = v;
  }
  float pop() {
    if (size_ == 0) return last_;
    const float v = q_[head_];
    head_ = (head_ + 1) % kCapacity;
    --size_;
    return v;
  }

 private:
  static constexpr std::size_t kCapacity = 16;
  std::array<float, kCapacity> q_{};
  std::size_t head_ = 0, size_ = 0;
  float last_ = 0;
};

// First pass, thread by thread in program order: every value but shared loads'.
// A global access predicts the input's element (C as the kernel wrote it), a
// shared store the value its thread loaded for it (0 for padding).
template <class E, class Code>
void first_value_pass(E* ev, const std::vector<std::uint64_t>& off, const Inputs& in, Code&& code) {
  for (std::uint64_t t = 0; t + 1 < off.size(); ++t) {
    LoadQueue loads;
    for (std::uint64_t p = off[t]; p < off[t + 1]; ++p) {
      E& e = ev[p];
      if (is_shared(e)) {
        if (is_store(e)) code(e, (e.flags & kFlagPadding) ? 0.0f : loads.pop());
        continue;
      }
      code(e, in.at(e));
      if (!is_store(e)) loads.push(e.value);
    }
  }
}

// Second pass, block by block: a shared load predicts the value last stored at
// its word by the block in an earlier barrier interval (a lower epoch).
class SharedShadow {
 public:
  SharedShadow() : words_{std::vector<float>(kWords), std::vector<float>(kWords)}, first_(kEpochs + 1) {}

  template <class E, class Code>
  void block(E* ev, std::uint64_t lo, std::uint64_t hi, Code&& code) {
    std::fill(first_.begin(), first_.end(), 0);
    std::uint64_t shared = 0;
    for (std::uint64_t p = lo; p < hi; ++p)
      if (is_shared(ev[p])) ++first_[ev[p].epoch + 1], ++shared;
    if (shared == 0) return;
    for (std::size_t i = 1; i < first_.size(); ++i) first_[i] += first_[i - 1];
    order_.resize(shared);
    std::vector<std::uint64_t>& fill = first_;  // bucket cursors, restored below
    for (std::uint64_t p = lo; p < hi; ++p)
      if (is_shared(ev[p])) order_[fill[ev[p].epoch]++] = p;
    // fill[e] now is the end of bucket e, which is the start of bucket e + 1.
    std::uint64_t begin = 0;
    for (std::size_t e = 0; e < kEpochs; ++e) {
      const std::uint64_t end = fill[e];
      for (std::uint64_t i = begin; i < end; ++i) {
        E& x = ev[order_[i]];
        if (!is_store(x)) code(x, word(x) ? *word(x) : 0.0f);
      }
      for (std::uint64_t i = begin; i < end; ++i) {
        const Event& x = ev[order_[i]];
        if (is_store(x) && word(x)) *word(x) = x.value;
      }
      begin = end;
    }
    for (const std::uint64_t p : order_)
      if (float* w = word(ev[p])) *w = 0.0f;
  }

 private:
  // Shared memory holds at most 228 KB per block on any GPU so far: 57 K words.
  static constexpr std::size_t kWords = 1 << 16;
  static constexpr std::size_t kEpochs = kMaxEpoch + 1;
  float* word(const Event& e) {
    return e.index < kWords ? &words_[e.array - static_cast<unsigned>(ArrayId::As)][e.index] : nullptr;
  }
  std::array<std::vector<float>, 2> words_;
  std::vector<std::uint64_t> first_;
  std::vector<std::uint64_t> order_;
};

template <class E, class Code>
void shared_load_pass(E* ev, const std::vector<std::uint64_t>& off, std::uint64_t threads_per_block, Code&& code) {
  SharedShadow shadow;
  const std::uint64_t threads = off.size() - 1;
  for (std::uint64_t t0 = 0; t0 < threads; t0 += threads_per_block)
    shadow.block(ev, off[t0], off[std::min(t0 + threads_per_block, threads)], code);
}

template <class E, class Code>
void walk_values(E* ev, const Trace& shape, const Inputs& in, Code&& code) {
  first_value_pass(ev, shape.thread_offsets, in, code);
  // Decoding refuses a launch of more than 1024 threads a block later; until
  // then any grouping is as good as another, as long as both sides agree.
  const std::uint64_t tpb = std::clamp<std::uint64_t>(shape.launch.block.count(), 1, 1024);
  shared_load_pass(ev, shape.thread_offsets, tpb, code);
}

std::uint32_t float_bits(float f) { return std::bit_cast<std::uint32_t>(f); }

[[noreturn]] void corrupt(const std::string& what) { throw TraceFileError(Kind::Corrupt, "corrupt: " + what); }

}  // namespace

std::vector<std::string> v2_stream_names() {
  std::vector<std::string> names = {"A", "B", "C", "thread events", "block timing"};
  for (const char* f : kFieldNames) names.emplace_back(f);
  names.emplace_back("value misses");
  names.emplace_back("value exceptions");
  return names;
}

std::vector<std::byte> encode_v2_body(const Trace& t) {
  std::array<StreamWriter, kStreamCount> w;
  w[kA].put_bytes(t.a.data(), t.a.size() * sizeof(float));
  w[kB].put_bytes(t.b.data(), t.b.size() * sizeof(float));
  w[kC].put_bytes(t.c.data(), t.c.size() * sizeof(float));
  for (std::uint64_t i = 0; i < t.thread_count(); ++i)
    w[kThreadEvents].put_varint(static_cast<std::uint32_t>(t.thread_offsets[i + 1] - t.thread_offsets[i]));
  w[kBlockTiming].put_bytes(t.block_timing.data(), t.block_timing.size() * sizeof(BlockTiming));

  const Event* ev = t.events.data();
  if (!t.thread_offsets.empty()) {
    walk_fields(t.thread_offsets, [&](std::uint64_t p, std::uint64_t nb) {
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((w[kFirstField + I].put_varint(zigzag(std::tuple_element_t<I, EventFields>::get(ev[p]) -
                                               (nb == kNone ? 0 : std::tuple_element_t<I, EventFields>::get(ev[nb]))))),
         ...);
      }(std::make_index_sequence<kFieldCount>{});
    });
    const Inputs in{t.a, t.b, t.c};
    walk_values(ev, t, in, [&](const Event& e, float predicted) {
      const bool miss = float_bits(e.value) != float_bits(predicted);
      w[kValueMisses].put_bit(miss);
      if (miss) w[kValueExceptions].put_bytes(&e.value, sizeof e.value);
    });
  }

  std::array<std::vector<std::byte>, kStreamCount> streams;
  std::uint64_t total = 8 + 8 * kStreamCount;
  for (std::size_t s = 0; s < kStreamCount; ++s) total += (streams[s] = w[s].finish()).size();
  std::vector<std::byte> body(total);
  const std::uint32_t directory[2] = {static_cast<std::uint32_t>(kStreamCount), 0};
  std::memcpy(body.data(), directory, sizeof directory);
  std::uint64_t at = 8 + 8 * kStreamCount;
  for (std::size_t s = 0; s < kStreamCount; ++s) {
    const std::uint64_t size = streams[s].size();
    std::memcpy(body.data() + 8 + 8 * s, &size, sizeof size);
    if (size) std::memcpy(body.data() + at, streams[s].data(), size);
    at += size;
  }
  return body;
}

std::vector<std::uint64_t> v2_stream_sizes(std::span<const std::byte> body) {
  std::uint32_t n = 0;
  if (body.size() >= 8) std::memcpy(&n, body.data(), 4);
  if (n != kStreamCount || body.size() < 8 + 8 * std::uint64_t{n}) corrupt("no stream directory");
  std::vector<std::uint64_t> sizes(n);
  std::memcpy(sizes.data(), body.data() + 8, 8 * n);
  return sizes;
}

void decode_v2_body(std::span<const std::byte> body, const SectionCounts& counts, Trace& t) {
  if (body.size() < 8) throw TraceFileError(Kind::Truncated, "truncated: the stream directory is missing");
  std::uint32_t n = 0;
  std::memcpy(&n, body.data(), 4);
  if (n != kStreamCount)
    corrupt(std::to_string(n) + " streams; version 2 has " + std::to_string(kStreamCount));
  if (body.size() < 8 + 8 * kStreamCount) throw TraceFileError(Kind::Truncated, "truncated: the stream directory is cut");
  const std::vector<std::uint64_t> sizes = v2_stream_sizes(body);
  const std::vector<std::string> names = v2_stream_names();
  std::array<std::span<const std::byte>, kStreamCount> src;
  std::uint64_t at = 8 + 8 * kStreamCount;
  for (std::size_t s = 0; s < kStreamCount; ++s) {
    if (sizes[s] > body.size() - at)
      throw TraceFileError(Kind::Truncated, "truncated: the " + names[s] + " stream is cut");
    src[s] = body.subspan(at, sizes[s]);
    at += sizes[s];
  }
  if (at != body.size()) corrupt(std::to_string(body.size() - at) + " unexpected bytes after the streams");

  // Refuse what the streams cannot hold before allocating for it.
  auto bound = [&](std::size_t s, std::uint64_t bytes_at_least, const char* what) {
    if (bytes_at_least / kZstdMaxExpansion > src[s].size())
      throw TraceFileError(Kind::Truncated, "truncated: the " + names[s] + " stream of " +
                                                std::to_string(src[s].size()) + " bytes cannot hold " + what);
  };
  bound(kA, counts.a * 4, "A");
  bound(kB, counts.b * 4, "B");
  bound(kC, counts.c * 4, "C");
  bound(kThreadEvents, counts.threads, "the thread count");
  bound(kBlockTiming, counts.timing * sizeof(BlockTiming), "the block timings");
  for (std::size_t f = 0; f < kFieldCount; ++f) bound(kFirstField + f, counts.events, "the event count");
  bound(kValueMisses, counts.events / 8, "the event count");

  std::array<StreamReader, kStreamCount> r;
  for (std::size_t s = 0; s < kStreamCount; ++s) r[s] = StreamReader(src[s], names[s]);
  auto floats = [&](std::size_t s, std::vector<float>& v, std::uint64_t count) {
    v.resize(count);
    r[s].get_bytes(v.data(), count * sizeof(float));
    r[s].expect_end();
  };
  floats(kA, t.a, counts.a);
  floats(kB, t.b, counts.b);
  floats(kC, t.c, counts.c);
  t.thread_offsets.assign(counts.threads + 1, 0);
  for (std::uint64_t i = 0; i < counts.threads; ++i) {
    t.thread_offsets[i + 1] = t.thread_offsets[i] + r[kThreadEvents].get_varint();
    if (t.thread_offsets[i + 1] > counts.events) corrupt("the threads hold more events than the header says");
  }
  r[kThreadEvents].expect_end();
  if (t.thread_offsets.back() != counts.events) corrupt("the threads hold fewer events than the header says");
  t.block_timing.resize(counts.timing);
  r[kBlockTiming].get_bytes(t.block_timing.data(), counts.timing * sizeof(BlockTiming));
  r[kBlockTiming].expect_end();

  t.events = EventBuffer(counts.events);
  Event* ev = t.events.data();
  walk_fields(t.thread_offsets, [&](std::uint64_t p, std::uint64_t nb) {
    Event e{};
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((std::tuple_element_t<I, EventFields>::set(
           e, (nb == kNone ? 0 : std::tuple_element_t<I, EventFields>::get(ev[nb])) +
                  unzigzag(r[kFirstField + I].get_varint()))),
       ...);
    }(std::make_index_sequence<kFieldCount>{});
    ev[p] = e;
  });
  for (std::size_t f = 0; f < kFieldCount; ++f) r[kFirstField + f].expect_end();
  const Inputs in{t.a, t.b, t.c};
  walk_values(ev, t, in, [&](Event& e, float predicted) {
    if (r[kValueMisses].get_bit()) r[kValueExceptions].get_bytes(&e.value, sizeof e.value);
    else e.value = predicted;
  });
  r[kValueMisses].expect_end();
  r[kValueExceptions].expect_end();
}

}  // namespace ts
