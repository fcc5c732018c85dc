// trace_codec.cpp — encode and decode the streams of trace file version 2.
//
// The encoder and the decoder walk the events in the same order through the
// same function (walk_segment), which makes every prediction; only what they do
// with a prediction differs (FieldEncoder/FieldDecoder, ValueEncoder/
// ValueDecoder). So a new Event field is one more entry in EventFields.
//
// Fields: an event's fields are predicted from its neighbour (the previous
// thread's event at the same position in the same block, else the thread's
// previous event); the index continues the neighbours' stride. A "field runs"
// stream holds runs of events predicted in full and, for each other event, a
// mask of the fields that differ; each field's stream holds its residuals.
// Values: runs of predicted values, and the exceptions.
// The blocks are cut into segments with streams of their own, which the
// encoder and the decoder run in parallel.
#include "app/core/trace_codec.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <memory>
#include <exception>
#include <mutex>
#include <new>
#include <thread>
#include <tuple>
#include <utility>

#include "app/core/trace_file.h"
#include "app/core/trace_validation.h"
#include "app/core/zstd_stream.h"

namespace ts {
namespace {

using Kind = TraceFileError::Kind;

// ---- the Event fields, each coded as a residual against its neighbour -------

// An Event as its four little-endian words (event.h's layout: word 2 holds
// epoch and iter, word 3 the memory id, flags, width and async mark, a byte
// each). The codec reads and writes fields in words.
struct Raw {
  std::uint32_t w[4];
};
static_assert(sizeof(Raw) == sizeof(Event));
Raw raw(const Event& e) {
  Raw r;
  std::memcpy(&r, &e, sizeof r);
  return r;
}
void store(Event& e, const Raw& r) { std::memcpy(&e, &r, sizeof r); }

// A field: Bits bits at Shift in word Word. With kStride it continues its
// neighbours' difference (addresses step by a fixed amount from lane to lane);
// without, it repeats the neighbour's.
template <int Word, int Shift, int Bits, bool Stride>
struct Field {
  static constexpr bool kStride = Stride;
  static constexpr std::uint32_t kMask = Bits == 32 ? ~0u : (1u << Bits) - 1;
  static std::uint32_t get(const Raw& r) { return (r.w[Word] >> Shift) & kMask; }
  static void set(Raw& r, std::uint32_t v) { r.w[Word] = (r.w[Word] & ~(kMask << Shift)) | ((v & kMask) << Shift); }
};
// Each field's stream holds residuals (the field minus its prediction), so a
// field may widen without changing what earlier files decode to: version 2's
// 12-bit epochs and iterations, 3-bit memory ids and 2-bit flags decode the
// same through these 16- and 8-bit fields. A decoded event's kFlagShared is
// set from the launch's tables once its block is decoded.
using IndexField = Field<0, 0, 32, true>;
using EpochField = Field<2, 0, 16, false>;
using ArrayField = Field<3, 0, 8, false>;
using IterField = Field<2, 16, 16, false>;
using FlagsField = Field<3, 8, 8, false>;
using AsyncField = Field<3, 24, 8, false>;
using WidthField = Field<3, 16, 8, false>;

// Every Event field but the value (coded by prediction below), one stream each.
// A new field: one struct above and one entry here and in kFieldNames.
using EventFields = std::tuple<IndexField, EpochField, ArrayField, IterField, FlagsField, AsyncField, WidthField>;
constexpr std::size_t kFieldCount = std::tuple_size_v<EventFields>;
constexpr const char* kFieldNames[kFieldCount] = {"index", "epoch", "array", "iter", "flags", "async", "width"};

// Streams of the whole trace, then each segment's, in file order.
enum GlobalStream : std::size_t { kA, kB, kC, kThreadEvents, kBlockTiming, kGlobalStreams };
enum SegmentStream : std::size_t { kFieldRuns, kFirstField };
constexpr std::size_t kValueRuns = kFirstField + kFieldCount;
constexpr std::size_t kValueExceptions = kValueRuns + 1;
constexpr std::size_t kSegmentStreams = kValueExceptions + 1;
constexpr std::uint32_t kMaxSegments = 64;
// After the segments' streams, optionally: each event's source line (u16,
// Trace::lines), for traces the emulator recorded. Files without it load as before.
// Events per segment the encoder aims at; more segments than cores cost little.
constexpr std::uint64_t kSegmentEvents = 1 << 21;
// At best the encoder stores ~100 events per byte (a whole tiled trace is
// little more than its inputs); a file claiming far more is refused before its
// events are allocated.
constexpr std::uint64_t kMaxEventsPerFileByte = 4096;

// Calls fn(std::integral_constant<std::size_t, I>) for every field I.
template <class Fn, std::size_t... I>
void for_each_field(Fn&& fn, std::index_sequence<I...>) {
  (fn(std::integral_constant<std::size_t, I>{}), ...);
}
template <class Fn>
void for_each_field(Fn&& fn) {
  for_each_field(fn, std::make_index_sequence<kFieldCount>{});
}

std::uint32_t zigzag(std::uint32_t diff) {
  return (diff << 1) ^ static_cast<std::uint32_t>(static_cast<std::int32_t>(diff) >> 31);
}
std::uint32_t unzigzag(std::uint32_t z) { return (z >> 1) ^ (0u - (z & 1u)); }


// ---- predictions ------------------------------------------------------------

constexpr std::uint64_t kNone = ~0ull;

// Where one segment's events lie: threads [t0, t1), blocks of tpb threads.
struct Span {
  const std::vector<std::uint64_t>* off;
  std::uint64_t tpb, t0, t1;
};

// The neighbour of event j of thread t in a block starting at thread tb: the
// previous thread's event j (the next lane of the same instruction), else the
// thread's own previous event, else none.
struct Pos {
  std::uint64_t t, j;
};
inline bool neighbour(const std::vector<std::uint64_t>& off, std::uint64_t tb, Pos& p) {
  if (p.t > tb && p.j < off[p.t] - off[p.t - 1]) {
    --p.t;
    return true;
  }
  if (p.j > 0) {
    --p.j;
    return true;
  }
  return false;
}

template <class E>
Raw predict_fields(const E* ev, std::uint64_t nb, std::uint64_t nb2) {
  if (nb == kNone) return Raw{};
  Raw pred = raw(ev[nb]);  // the fields without a stride repeat the neighbour's (the value is not a field)
  if (nb2 == kNone) return pred;
  const Raw second = raw(ev[nb2]);
  for_each_field([&](auto i) {
    using F = std::tuple_element_t<decltype(i)::value, EventFields>;
    if constexpr (F::kStride) F::set(pred, 2 * F::get(pred) - F::get(second));
  });
  return pred;
}

// What the codec knows of the launch's memory, by memory id: whether it is a
// shared region (and which), and for the buffers whose role is A, B or C the
// contents a global access predicts (C as the kernel wrote it).
struct Inputs {
  std::array<std::span<const float>, kMaxMemoryIds> values{};
  std::array<std::uint8_t, kMaxMemoryIds> shared{};
  std::array<std::uint16_t, kMaxMemoryIds> region{};  // for a shared id: its region's index
  std::size_t regions = 0;

  explicit Inputs(const Trace& t) {
    const LaunchInfo& L = t.launch;
    for (std::uint32_t id = 0; id < L.memory_count() && id < kMaxMemoryIds; ++id) {
      if (const Buffer* b = L.buffer_at(id)) {
        if (b->role == BufferRole::A) values[id] = t.a;
        else if (b->role == BufferRole::B) values[id] = t.b;
        else if (b->role == BufferRole::C) values[id] = t.c;
      } else {
        shared[id] = 1;
        region[id] = static_cast<std::uint16_t>(id - L.buffers.size());
      }
    }
    regions = L.regions.size();
  }
  float at(const Event& e) const {
    const std::span<const float>& m = values[e.array];
    return e.index < m.size() ? m[e.index] : 0.0f;
  }
  bool is_shared(const Event& e) const { return shared[e.array] != 0; }
};

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

// A shared load predicts the value last stored at its word by the block in an
// earlier barrier interval (a lower epoch). The block's shared events are
// visited epoch by epoch (each thread's are in epoch order), loads first.
class SharedShadow {
 public:
  explicit SharedShadow(const Inputs& in) : in_(in), words_(in.regions) {}

  template <class E, class Values>
  void block(E* ev, const std::vector<std::uint64_t>& off, std::uint64_t t0, std::uint64_t t1, Values& values) {
    cursor_.assign(off.begin() + t0, off.begin() + t1);
    std::uint32_t epoch = 0;
    std::size_t applied = 0;  // pending_[0, applied): stores of earlier epochs, in the shadow
    for (;;) {
      std::uint32_t next = kNoEpoch;
      for (std::uint64_t i = 0; i < t1 - t0; ++i) {
        std::uint64_t p = cursor_[i];
        const std::uint64_t end = off[t0 + i + 1];
        for (; p < end; ++p) {
          E& x = ev[p];
          if (!in_.is_shared(x)) continue;
          if (x.epoch > epoch) break;
          if (is_store(x)) pending_.push_back(p);
          else values.code(x, word(x) ? *word(x) : 0.0f);
        }
        cursor_[i] = p;
        if (p < end) next = std::min<std::uint32_t>(next, ev[p].epoch);
      }
      for (std::size_t i = applied; i < pending_.size(); ++i)
        if (float* w = word(ev[pending_[i]])) *w = ev[pending_[i]].value;
      applied = pending_.size();
      if (next == kNoEpoch) break;
      epoch = next;
    }
    for (const std::uint64_t p : pending_)
      if (float* w = word(ev[p])) *w = 0.0f;
    pending_.clear();
  }

 private:
  // Shared memory holds at most 228 KB per block on any GPU so far: 57 K words.
  static constexpr std::size_t kWords = 1 << 16;
  static constexpr std::uint32_t kNoEpoch = 0x10000;  // past any epoch an event holds (16 bits)
  float* word(const Event& e) {
    if (e.index >= kWords || !in_.is_shared(e)) return nullptr;
    std::vector<float>& w = words_[in_.region[e.array]];
    if (w.empty()) w.assign(kWords, 0.0f);  // a region's shadow, once it is used
    return &w[e.index];
  }
  const Inputs& in_;
  std::vector<std::vector<float>> words_;  // per region
  std::vector<std::uint64_t> cursor_, pending_;
};

// The one walk of a segment's events, in file order, block by block: fields
// and the values of every access but shared loads, thread by thread; then the
// block's shared loads. A global access predicts the input's element (C as the
// kernel wrote it), a shared store the value its thread loaded for it (0 for
// padding). after_block(first thread, end thread): each block, once walked.
template <class E, class Fields, class Values, class AfterBlock>
void walk_segment(E* ev, const Span& s, const Inputs& in, Fields& fields, Values& values, AfterBlock&& after_block) {
  const std::vector<std::uint64_t>& off = *s.off;
  SharedShadow shadow(in);
  for (std::uint64_t tb = s.t0; tb < s.t1; tb += s.tpb) {
    const std::uint64_t te = std::min(tb + s.tpb, s.t1);
    for (std::uint64_t t = tb; t < te; ++t) {
      LoadQueue loads;
      const std::uint64_t n = off[t + 1] - off[t];
      // Where the two threads before this one in the block have an event j
      // too, those are the neighbours (the common case, without the search).
      const std::uint64_t both = t >= tb + 2 ? std::min({n, off[t] - off[t - 1], off[t - 1] - off[t - 2]}) : 0;
      for (std::uint64_t j = 0; j < n; ++j) {
        std::uint64_t nb = kNone, nb2 = kNone;
        if (j < both) {
          nb = off[t - 1] + j;
          nb2 = off[t - 2] + j;
        } else if (Pos p1{t, j}; neighbour(off, tb, p1)) {
          nb = off[p1.t] + p1.j;
          if (neighbour(off, tb, p1)) nb2 = off[p1.t] + p1.j;
        }
        E& e = ev[off[t] + j];
        fields.code(e, predict_fields(ev, nb, nb2));
        if (in.is_shared(e)) {
          if (is_store(e)) values.code(e, (e.flags & kFlagPadding) ? 0.0f : loads.pop());
          continue;
        }
        values.code(e, in.at(e));
        if (!is_store(e)) loads.push(e.value);
      }
    }
    shadow.block(ev, off, tb, te, values);
    after_block(tb, te);
  }
}

// ---- what the encoder and the decoder do with a prediction --------------------

struct FieldEncoder {
  zstd::Writer* w;  // the segment's streams
  std::uint32_t run = 0;
  void code(const Event& event, const Raw& pred) {
    const Raw e = raw(event);
    std::uint32_t mask = 0;
    for_each_field([&](auto i) {
      using F = std::tuple_element_t<decltype(i)::value, EventFields>;
      mask |= std::uint32_t{F::get(e) != F::get(pred)} << decltype(i)::value;
    });
    if (mask == 0) {
      ++run;
      return;
    }
    w[kFieldRuns].put_varint(run);
    w[kFieldRuns].put_varint(mask);
    run = 0;
    for_each_field([&](auto i) {
      using F = std::tuple_element_t<decltype(i)::value, EventFields>;
      if (mask >> decltype(i)::value & 1)
        w[kFirstField + decltype(i)::value].put_varint(zigzag(F::get(e) - F::get(pred)));
    });
  }
  void finish() { w[kFieldRuns].put_varint(run); }
};

struct FieldDecoder {
  zstd::Reader* r;
  std::uint32_t run = 0;
  void start() { run = r[kFieldRuns].get_varint(); }
  void code(Event& out, const Raw& pred) {
    Raw e = pred;
    if (run > 0) {
      --run;
    } else {
      const std::uint32_t mask = r[kFieldRuns].get_varint();
      for_each_field([&](auto i) {
        using F = std::tuple_element_t<decltype(i)::value, EventFields>;
        if (mask >> decltype(i)::value & 1)
          F::set(e, F::get(pred) + unzigzag(r[kFirstField + decltype(i)::value].get_varint()));
      });
      run = r[kFieldRuns].get_varint();
    }
    store(out, e);
  }
};

std::uint32_t float_bits(float f) { return std::bit_cast<std::uint32_t>(f); }

struct ValueEncoder {
  zstd::Writer* w;
  std::uint32_t hits = 0;
  void code(const Event& e, float pred) {
    if (float_bits(e.value) == float_bits(pred)) {
      ++hits;
      return;
    }
    w[kValueRuns].put_varint(hits);
    w[kValueExceptions].put_bytes(&e.value, sizeof e.value);
    hits = 0;
  }
  void finish() { w[kValueRuns].put_varint(hits); }
};

struct ValueDecoder {
  zstd::Reader* r;
  std::uint32_t hits = 0;
  void start() { hits = r[kValueRuns].get_varint(); }
  void code(Event& e, float pred) {
    if (hits > 0) {
      --hits;
      e.value = pred;
      return;
    }
    r[kValueExceptions].get_bytes(&e.value, sizeof e.value);
    hits = r[kValueRuns].get_varint();
  }
};

// ---- segments ------------------------------------------------------------------

std::uint64_t threads_per_block(const Trace& t) {
  // A launch of more than 1024 threads a block is refused after decoding; until
  // then any grouping is as good as another, as long as both sides agree.
  return std::clamp<std::uint64_t>(t.launch.block.count(), 1, 1024);
}

Span segment_span(const Trace& t, std::uint32_t s, std::uint32_t segments) {
  const std::uint64_t tpb = threads_per_block(t), threads = t.thread_offsets.size() - 1;
  const std::uint64_t blocks = (threads + tpb - 1) / tpb;
  const std::uint64_t b0 = blocks * s / segments, b1 = blocks * (s + 1) / segments;
  return {&t.thread_offsets, tpb, std::min(b0 * tpb, threads), std::min(b1 * tpb, threads)};
}

// Runs job(s) for every segment on up to one thread per core; the first
// exception is rethrown once all have stopped.
template <class Job>
void for_each_segment(std::uint32_t segments, Job&& job) {
  const unsigned workers = std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, segments);
  std::atomic<std::uint32_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (std::uint32_t s; (s = next++) < segments;) {
      try {
        job(s);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        next = segments;
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < workers; ++i) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

std::string stream_name(std::size_t i, std::uint32_t segments = 0) {  // segments: 0 when not known
  static constexpr const char* kGlobal[kGlobalStreams] = {"A", "B", "C", "thread events", "block timing"};
  if (i < kGlobalStreams) return kGlobal[i];
  if (segments != 0 && i == kGlobalStreams + kSegmentStreams * std::size_t{segments}) return "source lines";
  const std::size_t s = (i - kGlobalStreams) / kSegmentStreams, k = (i - kGlobalStreams) % kSegmentStreams;
  const std::string what = k == kFieldRuns          ? "field runs"
                           : k < kValueRuns         ? kFieldNames[k - kFirstField]
                           : k == kValueRuns        ? "value runs"
                                                    : "value exceptions";
  return "segment " + std::to_string(s) + " " + what;
}

[[noreturn]] void corrupt(const std::string& what) { throw TraceFileError(Kind::Corrupt, "corrupt: " + what); }

template <class T>
void read_growing(zstd::Reader& r, std::vector<T>& v, std::uint64_t count) {
  constexpr std::uint64_t kChunk = (1 << 20) / sizeof(T);
  v.clear();
  while (v.size() < count) {
    const std::uint64_t at = v.size(), n = std::min(kChunk, count - at);
    v.resize(at + n);
    r.get_bytes(v.data() + at, n * sizeof(T));
  }
}

struct Directory {
  std::uint32_t segments = 0;
  std::vector<std::span<const std::byte>> streams;
};

Directory read_directory(std::span<const std::byte> body) {
  if (body.size() < 8) throw TraceFileError(Kind::Truncated, "truncated: the stream directory is missing");
  std::uint32_t head[2];
  std::memcpy(head, body.data(), 8);
  Directory d;
  d.segments = head[1];
  if (d.segments < 1 || d.segments > kMaxSegments) corrupt(std::to_string(d.segments) + " segments");
  const std::uint64_t base = kGlobalStreams + kSegmentStreams * std::uint64_t{d.segments};
  if (head[0] != base && head[0] != base + 1)  // + 1: the source lines
    corrupt(std::to_string(head[0]) + " streams for " + std::to_string(d.segments) + " segments");
  const std::uint64_t at0 = 8 + 8 * std::uint64_t{head[0]};
  if (body.size() < at0) throw TraceFileError(Kind::Truncated, "truncated: the stream directory is cut");
  std::uint64_t at = at0;
  for (std::uint32_t i = 0; i < head[0]; ++i) {
    std::uint64_t size;
    std::memcpy(&size, body.data() + 8 + 8 * i, 8);
    if (size > body.size() - at)
      throw TraceFileError(Kind::Truncated, "truncated: the " + stream_name(i, d.segments) + " stream is cut");
    d.streams.push_back(body.subspan(at, size));
    at += size;
  }
  if (at != body.size()) corrupt(std::to_string(body.size() - at) + " unexpected bytes after the streams");
  return d;
}

}  // namespace

std::vector<std::string> v2_stream_names(std::size_t streams) {
  std::vector<std::string> names;
  const auto segments = static_cast<std::uint32_t>(streams > kGlobalStreams ? (streams - kGlobalStreams) / kSegmentStreams : 0);
  for (std::size_t i = 0; i < streams; ++i) names.push_back(stream_name(i, segments));
  return names;
}

std::vector<std::uint64_t> v2_stream_sizes(std::span<const std::byte> body) {
  std::vector<std::uint64_t> sizes;
  for (const auto& s : read_directory(body).streams) sizes.push_back(s.size());
  return sizes;
}

std::vector<std::byte> encode_v2_body(const Trace& t) {
  std::vector<std::vector<std::byte>> streams(kGlobalStreams);
  {
    std::array<zstd::Writer, kGlobalStreams> w;
    w[kA].put_bytes(t.a.data(), t.a.size() * sizeof(float));
    w[kB].put_bytes(t.b.data(), t.b.size() * sizeof(float));
    w[kC].put_bytes(t.c.data(), t.c.size() * sizeof(float));
    for (std::uint64_t i = 0; i < t.thread_count(); ++i)
      w[kThreadEvents].put_varint(static_cast<std::uint32_t>(t.thread_offsets[i + 1] - t.thread_offsets[i]));
    w[kBlockTiming].put_bytes(t.block_timing.data(), t.block_timing.size() * sizeof(BlockTiming));
    for (std::size_t s = 0; s < kGlobalStreams; ++s) streams[s] = w[s].finish();
  }
  const std::uint64_t threads = t.thread_count(), tpb = threads_per_block(t);
  const std::uint64_t blocks = std::max<std::uint64_t>(1, (threads + tpb - 1) / tpb);
  const auto segments = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(t.events.size() / kSegmentEvents, 1, std::min<std::uint64_t>(kMaxSegments, blocks)));
  streams.resize(kGlobalStreams + kSegmentStreams * segments);
  if (!t.lines.empty() && t.lines.size() == t.events.size()) {
    zstd::Writer w;
    w.put_bytes(t.lines.data(), t.lines.size() * sizeof(std::uint16_t));
    streams.push_back(w.finish());
  }
  if (threads > 0) {
    const Inputs in(t);
    for_each_segment(segments, [&](std::uint32_t s) {
      std::array<zstd::Writer, kSegmentStreams> w;
      FieldEncoder fields{w.data()};
      ValueEncoder values{w.data()};
      walk_segment(t.events.data(), segment_span(t, s, segments), in, fields, values, [](std::uint64_t, std::uint64_t) {});
      fields.finish();
      values.finish();
      for (std::size_t k = 0; k < kSegmentStreams; ++k)
        streams[kGlobalStreams + s * kSegmentStreams + k] = w[k].finish();
    });
  } else {
    for (std::size_t i = kGlobalStreams; i < kGlobalStreams + kSegmentStreams * segments; ++i) {
      zstd::Writer w;
      if ((i - kGlobalStreams) % kSegmentStreams == kFieldRuns || (i - kGlobalStreams) % kSegmentStreams == kValueRuns)
        w.put_varint(0);
      streams[i] = w.finish();
    }
  }

  std::uint64_t total = 8 + 8 * streams.size();
  for (const auto& s : streams) total += s.size();
  std::vector<std::byte> body(total);
  const std::uint32_t head[2] = {static_cast<std::uint32_t>(streams.size()), segments};
  std::memcpy(body.data(), head, sizeof head);
  std::uint64_t at = 8 + 8 * streams.size();
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const std::uint64_t size = streams[i].size();
    std::memcpy(body.data() + 8 + 8 * i, &size, sizeof size);
    if (size) std::memcpy(body.data() + at, streams[i].data(), size);
    at += size;
  }
  return body;
}

EventChecks decode_v2_body(std::span<const std::byte> body, const SectionCounts& counts, Trace& t) {
  const Directory d = read_directory(body);
  // Refuse what the streams cannot hold before allocating for it.
  auto bound = [&](std::size_t s, std::uint64_t bytes_at_least, const char* what) {
    if (bytes_at_least / kZstdMaxExpansion > d.streams[s].size())
      throw TraceFileError(Kind::Truncated, "truncated: the " + stream_name(s, d.segments) + " stream of " +
                                                std::to_string(d.streams[s].size()) + " bytes cannot hold " + what);
  };
  bound(kA, counts.a * 4, "A");
  bound(kB, counts.b * 4, "B");
  bound(kC, counts.c * 4, "C");
  bound(kThreadEvents, counts.threads, "the thread count");
  bound(kBlockTiming, counts.timing * sizeof(BlockTiming), "the block timings");
  if (counts.events / kMaxEventsPerFileByte > body.size())
    throw TraceFileError(Kind::Truncated, "truncated: " + std::to_string(body.size()) + " bytes cannot hold " +
                                              std::to_string(counts.events) + " events");

  std::array<zstd::Reader, kGlobalStreams> r;
  for (std::size_t s = 0; s < kGlobalStreams; ++s) r[s] = zstd::Reader(d.streams[s], stream_name(s));
  // These grow as their streams deliver, so a count the data does not back
  // fails at the stream's end, not at an allocation.
  read_growing(r[kA], t.a, counts.a);
  read_growing(r[kB], t.b, counts.b);
  read_growing(r[kC], t.c, counts.c);
  t.thread_offsets.assign(1, 0);
  for (std::uint64_t i = 0; i < counts.threads; ++i) {
    t.thread_offsets.push_back(t.thread_offsets.back() + r[kThreadEvents].get_varint());
    if (t.thread_offsets.back() > counts.events) corrupt("the threads hold more events than the header says");
  }
  if (t.thread_offsets.back() != counts.events) corrupt("the threads hold fewer events than the header says");
  read_growing(r[kBlockTiming], t.block_timing, counts.timing);
  for (auto& reader : r) reader.expect_end();

  t.events = EventBuffer(counts.events);
  // The source lines, when the file has them, are one more job beside the
  // segments, the first one taken: decoded while the segments are.
  const std::size_t lines = kGlobalStreams + kSegmentStreams * std::size_t{d.segments};
  const bool has_lines = d.streams.size() > lines;
  t.lines.clear();
  if (has_lines) bound(lines, counts.events * sizeof(std::uint16_t), "a line per event");
  const Inputs in(t);
  std::vector<EventChecks> checks(d.segments);  // each segment's blocks checked while in cache
  for_each_segment(d.segments + (has_lines ? 1 : 0), [&](std::uint32_t job) {
    if (has_lines && job == 0) {
      // As many as the events, which are already allocated: a count the
      // stream does not back fails at its end.
      t.lines.resize(counts.events);
      zstd::Reader r(d.streams[lines], stream_name(lines, d.segments));
      r.get_bytes(t.lines.data(), t.lines.size() * sizeof(std::uint16_t));
      r.expect_end();
      return;
    }
    const std::uint32_t s = job - (has_lines ? 1 : 0);
    std::array<zstd::Reader, kSegmentStreams> sr;
    for (std::size_t k = 0; k < kSegmentStreams; ++k) {
      const std::size_t i = kGlobalStreams + s * kSegmentStreams + k;
      sr[k] = zstd::Reader(d.streams[i], stream_name(i));
    }
    FieldDecoder fields{sr.data()};
    ValueDecoder values{sr.data()};
    fields.start();
    values.start();
    walk_segment(t.events.data(), segment_span(t, s, d.segments), in, fields, values,
                 [&](std::uint64_t first, std::uint64_t end) {
                   t.mark_spaces(first, end);
                   checks[s].add(check_events(t, first, end));
                 });
    if (fields.run != 0 || values.hits != 0)
      corrupt("a run goes past the end of " + stream_name(kGlobalStreams + s * kSegmentStreams));
    for (auto& reader : sr) reader.expect_end();
  });
  EventChecks all;
  for (const EventChecks& c : checks) all.add(c);
  return all;
}

}  // namespace ts
