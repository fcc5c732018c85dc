// trace_file.cpp — save and load .tstrace files, and refuse broken ones.
#include "app/core/trace_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <system_error>
#include <vector>

#include "trace/launch_json.h"
#include "app/core/safe_file.h"
#include "app/core/trace_codec.h"
#include "app/core/trace_validation.h"

namespace ts {
namespace {

using Kind = TraceFileError::Kind;

constexpr char kMagic[8] = {'T', 'S', 'C', 'T', 'R', 'A', 'C', 'E'};
constexpr std::uint32_t kEndMagic = 0x444E4554;  // "TEND"
constexpr std::uint64_t kMaxJsonBytes = 8 << 20;  // a traced kernel's SASS listing included
constexpr std::uint64_t kMaxCount = std::numeric_limits<std::uint32_t>::max();

struct FileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t json_bytes;
  std::uint64_t a_count, b_count, c_count;
  std::uint64_t thread_count;
  std::uint64_t timing_count;
  std::uint64_t event_count;
};
static_assert(sizeof(FileHeader) == 64);

struct Footer {
  std::uint32_t crc;
  std::uint32_t end_magic;
};

std::uint64_t pad16(std::uint64_t x) { return (16 - x % 16) % 16; }

// ---- events as version 1 stores them ---------------------------------------
// 12 bytes: index, value, then two little-endian 16-bit words:
//   epoch (bits 0-12) | array (bits 13-15),  iter (bits 0-13) | flags (bits 14-15).
// Version 1 has no access width and no async flag: every access is a 4-byte,
// synchronous one. Each field is packed explicitly: the in-memory Event has
// its own layout.
struct EventV1 {
  std::uint32_t index;
  float value;
  std::uint16_t epoch_array;
  std::uint16_t iter_flags;
};
static_assert(sizeof(EventV1) == 12);

// Byte offsets of each section, from the header's counts (all bounded first).
struct Layout {
  std::uint64_t json, json_pad, floats, offsets, timing, events_pad, events, total;
};

Layout layout_of(const FileHeader& h) {
  Layout l{};
  l.json = h.json_bytes;
  l.json_pad = pad16(sizeof(FileHeader) + l.json);
  l.floats = (h.a_count + h.b_count + h.c_count) * sizeof(float);
  l.offsets = (h.thread_count + 1) * sizeof(std::uint64_t);
  l.timing = h.timing_count * sizeof(BlockTiming);
  const std::uint64_t before_events = sizeof(FileHeader) + l.json + l.json_pad + l.floats + l.offsets + l.timing;
  l.events_pad = pad16(before_events);
  l.events = h.event_count * sizeof(EventV1);
  l.total = before_events + l.events_pad + l.events + sizeof(Footer);
  return l;
}

// ---- reading from a file or from memory, with a running CRC -----------------

class Source {
 public:
  virtual ~Source() = default;
  void read(void* dst, std::uint64_t n) {
    raw_read(dst, n);
    if (n) crc_ = crc32_z(crc_, static_cast<const Bytef*>(dst), n);  // a null buffer would reset the CRC
  }
  void skip_padding(std::uint64_t n) {
    std::byte pad[16];
    read(pad, n);
  }
  // Reads n bytes into the checksum only.
  void skip(std::uint64_t n) {
    std::byte buf[1 << 16];
    for (std::uint64_t step; n > 0; n -= step) {
      step = std::min<std::uint64_t>(n, sizeof buf);
      read(buf, step);
    }
  }
  std::uint32_t crc() const { return static_cast<std::uint32_t>(crc_); }
  void read_raw(void* dst, std::uint64_t n) { raw_read(dst, n); }

 protected:
  virtual void raw_read(void* dst, std::uint64_t n) = 0;

 private:
  uLong crc_ = crc32_z(0, nullptr, 0);
};

class FileSource final : public Source {
 public:
  explicit FileSource(std::FILE* f) : f_(f) {}

 private:
  void raw_read(void* dst, std::uint64_t n) override {
    if (n && std::fread(dst, 1, n, f_) != n) throw TraceFileError(Kind::Truncated, "the file ends early");
  }
  std::FILE* f_;
};

class MemorySource final : public Source {
 public:
  explicit MemorySource(std::span<const std::byte> b) : bytes_(b) {}

 private:
  void raw_read(void* dst, std::uint64_t n) override {
    if (n > bytes_.size() - pos_) throw TraceFileError(Kind::Truncated, "the file ends early");
    if (n) std::memcpy(dst, bytes_.data() + pos_, n);
    pos_ += n;
  }
  std::span<const std::byte> bytes_;
  std::uint64_t pos_ = 0;
};

constexpr std::uint32_t kV1MaxEpoch = (1u << 13) - 1, kV1MaxIter = (1u << 14) - 1;

EventV1 to_v1(const Event& e) {
  return {e.index, e.value, static_cast<std::uint16_t>(e.epoch | (e.array << 13)),
          static_cast<std::uint16_t>(e.iter | ((e.flags & (kFlagStore | kFlagPadding)) << 14))};
}

// False when the file's event holds a value an Event cannot.
bool from_v1(const EventV1& x, Event& e) {
  const std::uint32_t epoch = x.epoch_array & kV1MaxEpoch, iter = x.iter_flags & kV1MaxIter;
  if (epoch > kMaxEpoch || iter > kMaxIteration) return false;
  e.index = x.index;
  e.value = x.value;
  e.epoch = static_cast<std::uint16_t>(epoch);
  e.array = static_cast<std::uint8_t>(x.epoch_array >> 13);
  e.async = 0;
  e.iter = static_cast<std::uint16_t>(iter);
  e.flags = static_cast<std::uint8_t>(x.iter_flags >> 14);  // kFlagShared follows from the tables (mark_spaces)
  e.width = static_cast<std::uint8_t>(Width::B4);
  return true;
}

[[noreturn]] void invalid(const std::string& what) { throw TraceFileError(Kind::Invalid, "invalid trace: " + what); }

void check_header(const FileHeader& h, std::uint64_t file_bytes) {
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    throw TraceFileError(Kind::NotATrace, "not a tilescope trace (no TSCTRACE magic bytes)");
  if (h.version < 1 || h.version > kTraceFileVersion)
    throw TraceFileError(Kind::UnsupportedVersion, "trace file version " + std::to_string(h.version) +
                                                       "; this tilescope reads versions 1 to " +
                                                       std::to_string(kTraceFileVersion));
  if (h.json_bytes > kMaxJsonBytes) invalid("launch description of " + std::to_string(h.json_bytes) + " bytes");
  for (std::uint64_t c : {h.a_count, h.b_count, h.c_count, h.thread_count, h.timing_count, h.event_count})
    if (c > kMaxCount) invalid("a section count over 2^32");
  // Refused from the header alone, before a byte of a (perhaps sparse, 16 GiB) file is read.
  if (h.event_count > kMaxEvents) invalid(std::to_string(h.event_count) + " events (at most " + std::to_string(kMaxEvents) + ")");
  if (h.version >= 2) {  // compressed: the streams' sizes are checked as they are read
    const std::uint64_t least = sizeof(FileHeader) + h.json_bytes + sizeof(Footer);
    if (file_bytes < least)
      throw TraceFileError(Kind::Truncated, "truncated: " + std::to_string(file_bytes) + " bytes, the header and " +
                                                "launch description alone take " + std::to_string(least));
    return;
  }
  const Layout l = layout_of(h);
  if (file_bytes < l.total)
    throw TraceFileError(Kind::Truncated, "truncated: the header announces " + std::to_string(l.total) +
                                              " bytes, the file has " + std::to_string(file_bytes));
  if (file_bytes > l.total)
    throw TraceFileError(Kind::Corrupt, "corrupt: " + std::to_string(file_bytes - l.total) +
                                            " unexpected bytes after the trace");
}

void parse_launch(const std::string& json, Trace& t) {
  try {
    t.launch = launch_from_json(nlohmann::json::parse(json));
  } catch (const nlohmann::json::exception& ex) {
    invalid(std::string("launch description: ") + ex.what());
  }
}

void check_footer(Source& src, std::uint32_t version) {
  const std::uint32_t crc = src.crc();
  Footer f;
  src.read_raw(&f, sizeof f);
  // Version 1 knows its size from the header; version 2 finds a cut by its end.
  if (version >= 2 && f.end_magic != kEndMagic)
    throw TraceFileError(Kind::Truncated, "truncated: the end marker is missing");
  if (f.end_magic != kEndMagic || f.crc != crc)
    throw TraceFileError(Kind::Corrupt, "corrupt: the checksum does not match the contents");
}

// A compressed file can claim far more than its own size; what it decodes to
// must also fit in a quarter of this machine's memory (the recorder's rule), so
// that a small hostile file is refused with the numbers instead of exhausting
// memory.
void check_fits_in_memory(const SectionCounts& c) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return;
  const std::uint64_t budget = static_cast<std::uint64_t>(pages) / 4 * static_cast<std::uint64_t>(page);
  // Each count is below 2^32 (check_header): the sum cannot overflow.
  const std::uint64_t bytes = (c.a + c.b + c.c) * sizeof(float) + (c.threads + 1) * sizeof(std::uint64_t) +
                              c.timing * sizeof(BlockTiming) + c.events * sizeof(Event);
  if (bytes > budget)
    throw TraceFileError(Kind::Invalid, "too large: the trace needs " + std::to_string(bytes >> 20) +
                                            " MiB in memory; this machine allows " + std::to_string(budget >> 20) +
                                            " MiB (a quarter of its memory)");
}

// Versions 2 and 3: the compressed body is read whole (it is small), checked
// against the checksum, then decoded against the launch it describes.
Trace read_trace_v2(Source& src, const FileHeader& h, std::uint64_t file_bytes) {
  std::string json(h.json_bytes, '\0');
  src.read(json.data(), json.size());
  std::vector<std::byte> body(file_bytes - sizeof(FileHeader) - json.size() - sizeof(Footer));
  src.read(body.data(), body.size());
  check_footer(src, h.version);
  Trace t;
  parse_launch(json, t);
  const SectionCounts counts{h.a_count, h.b_count, h.c_count, h.thread_count, h.timing_count, h.event_count};
  // The claims are checked before the decoder allocates anything; a
  // compressed body may hold up to kZstdMaxExpansion times its size.
  validate_launch(t.launch);
  validate_sections(t.launch, counts, file_bytes, kZstdMaxExpansion);
  check_fits_in_memory(counts);
  EventChecks checked;
  try {
    checked = decode_v2_body(body, counts, t);
  } catch (const std::bad_alloc&) {
    invalid("more events than this machine can hold (" + std::to_string(h.event_count) + ")");
  }
  validate_trace(t, file_bytes, kZstdMaxExpansion, &checked);
  return t;
}

Trace read_trace(Source& src, std::uint64_t file_bytes) {
  FileHeader h;
  if (file_bytes < sizeof(FileHeader)) {
    if (file_bytes >= sizeof kMagic) {
      src.read(&h, sizeof kMagic);
      if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
        throw TraceFileError(Kind::NotATrace, "not a tilescope trace (no TSCTRACE magic bytes)");
    }
    throw TraceFileError(Kind::Truncated, "truncated: " + std::to_string(file_bytes) + " bytes, shorter than the header");
  }
  src.read(&h, sizeof h);
  check_header(h, file_bytes);
  if (h.version >= 2) return read_trace_v2(src, h, file_bytes);
  const Layout l = layout_of(h);

  std::string json(l.json, '\0');
  src.read(json.data(), l.json);
  src.skip_padding(l.json_pad);
  // The launch's claims are checked before any section is allocated, so that
  // memory follows what the file holds. A refusal here is reported as
  // corruption when the rest of the file fails its checksum (streamed, not
  // allocated): a flipped bit is not an attack.
  Trace t;
  try {
    parse_launch(json, t);
    validate_launch(t.launch);
    validate_sections(t.launch, {h.a_count, h.b_count, h.c_count, h.thread_count, h.timing_count, h.event_count},
                      file_bytes);
  } catch (const TraceFileError&) {
    src.skip(l.total - sizeof(Footer) - (sizeof(FileHeader) + l.json + l.json_pad));
    check_footer(src, 1);
    throw;
  }
  t.a.resize(h.a_count);
  t.b.resize(h.b_count);
  t.c.resize(h.c_count);
  src.read(t.a.data(), h.a_count * sizeof(float));
  src.read(t.b.data(), h.b_count * sizeof(float));
  src.read(t.c.data(), h.c_count * sizeof(float));
  t.thread_offsets.resize(h.thread_count + 1);
  src.read(t.thread_offsets.data(), l.offsets);
  t.block_timing.resize(h.timing_count);
  src.read(t.block_timing.data(), l.timing);
  src.skip_padding(l.events_pad);
  t.events = EventBuffer(h.event_count);
  std::vector<EventV1> chunk;
  bool fits = true;
  for (std::uint64_t i = 0, n = h.event_count; i < n;) {
    const std::uint64_t count = std::min<std::uint64_t>(n - i, 1 << 16);
    chunk.resize(count);
    src.read(chunk.data(), count * sizeof(EventV1));
    for (std::uint64_t j = 0; j < count; ++j) fits = from_v1(chunk[j], t.events[i + j]) && fits;
    i += count;
  }
  check_footer(src, 1);
  if (!fits) invalid("an event counts more barriers or iterations than this tilescope holds");
  t.mark_spaces();
  validate_trace(t, file_bytes);
  return t;
}

class Sink {
 public:
  explicit Sink(std::FILE* f) : f_(f) {}
  void write(const void* p, std::uint64_t n) {
    if (n == 0) return;  // crc32_z of a null buffer would reset the CRC
    if (ok_ && std::fwrite(p, 1, n, f_) != n) {
      ok_ = false;
      error_ = errno ? errno : EIO;
    }
    crc_ = crc32_z(crc_, static_cast<const Bytef*>(p), n);
  }
  void pad(std::uint64_t n) {
    const std::byte zeros[16]{};
    write(zeros, n);
  }
  bool ok() const { return ok_; }
  int error() const { return error_; }  // the errno of the first failed write
  std::uint32_t crc() const { return static_cast<std::uint32_t>(crc_); }

 private:
  std::FILE* f_;
  bool ok_ = true;
  int error_ = 0;
  uLong crc_ = crc32_z(0, nullptr, 0);
};

// Version 1: every section as it is in memory, events 16-byte aligned.
void write_v1_sections(Sink& out, const Trace& t, const Layout& l) {
  out.pad(l.json_pad);
  out.write(t.a.data(), t.a.size() * sizeof(float));
  out.write(t.b.data(), t.b.size() * sizeof(float));
  out.write(t.c.data(), t.c.size() * sizeof(float));
  const std::uint64_t zero = 0;
  if (t.thread_offsets.empty()) out.write(&zero, sizeof zero);
  else out.write(t.thread_offsets.data(), l.offsets);
  out.write(t.block_timing.data(), l.timing);
  out.pad(l.events_pad);
  std::vector<EventV1> chunk;
  for (std::uint64_t i = 0, n = t.events.size(); i < n;) {
    const std::uint64_t count = std::min<std::uint64_t>(n - i, 1 << 16);
    chunk.resize(count);
    for (std::uint64_t j = 0; j < count; ++j) chunk[j] = to_v1(t.events[i + j]);
    out.write(chunk.data(), count * sizeof(EventV1));
    i += count;
  }
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

}  // namespace

void save_trace(const Trace& t, const std::filesystem::path& path, std::uint32_t version) {
  if (version < 1 || version > kTraceFileVersion)
    throw TraceFileError(Kind::UnsupportedVersion, "cannot write trace file version " + std::to_string(version));
  if (version < 3 && !t.launch.has_own_arrays_only())
    throw TraceFileError(Kind::CannotWrite, "cannot write " + path.string() + ": trace file version " +
                                                std::to_string(version) +
                                                " holds the arrays A, B, C, As and Bs only, and this trace's memory is " +
                                                "named otherwise (write version 3)");
  for (const Event& e : version < 3 ? t.events.span() : std::span<const Event>{})
    if (e.epoch > kMaxEpoch || e.iter > kMaxIteration)
      throw TraceFileError(Kind::CannotWrite, "cannot write " + path.string() + ": trace file version " +
                                                  std::to_string(version) + " counts 4095 barriers and iterations at most");
  for (const Event& e : version == 1 ? t.events.span() : std::span<const Event>{})  // version 2 codes every field
    if (e.width != static_cast<std::uint16_t>(Width::B4) || e.async)
      throw TraceFileError(Kind::CannotWrite, "cannot write " + path.string() + ": trace file version " +
                                                  std::to_string(version) +
                                                  " holds only 4-byte synchronous accesses, and this trace has vector or cp.async ones");
  const std::string json = launch_to_json(t.launch).dump();
  FileHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = version;
  h.json_bytes = static_cast<std::uint32_t>(json.size());
  h.a_count = t.a.size();
  h.b_count = t.b.size();
  h.c_count = t.c.size();
  h.thread_count = t.thread_count();
  h.timing_count = t.block_timing.size();
  h.event_count = t.events.size();
  const std::vector<std::byte> body = version >= 2 ? encode_v2_body(t) : std::vector<std::byte>{};

  try {
    AtomicFile file(path);  // a unique temporary, synced and renamed over path once complete
    Sink out(file.stream());
    out.write(&h, sizeof h);
    out.write(json.data(), json.size());
    if (version >= 2) out.write(body.data(), body.size());
    else write_v1_sections(out, t, layout_of(h));
    const Footer footer{out.crc(), kEndMagic};
    out.write(&footer, sizeof footer);
    if (!out.ok()) throw SafeFileError("cannot write " + path.string() + ": " + std::strerror(out.error()));
    file.commit();
  } catch (const SafeFileError& e) {
    throw TraceFileError(Kind::CannotWrite, e.what());
  }
}

Trace load_trace(const std::filesystem::path& path) {
  // Only a regular file is a trace: a FIFO would block the open and the reads,
  // a device or /proc file has no size to check against. O_NONBLOCK keeps the
  // open itself from waiting on a FIFO's writer; fstat then decides.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw TraceFileError(Kind::CannotOpen, "cannot open " + path.string() + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int err = errno;
    ::close(fd);
    const std::string why = S_ISDIR(st.st_mode)    ? "it is a directory"
                            : S_ISFIFO(st.st_mode) ? "it is a FIFO, not a regular file"
                            : st.st_mode           ? "it is not a regular file"
                                                   : std::strerror(err);
    throw TraceFileError(Kind::CannotOpen, "cannot open " + path.string() + ": " + why);
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  FilePtr f(::fdopen(fd, "rb"));
  if (!f) {
    const int err = errno;
    ::close(fd);
    throw TraceFileError(Kind::CannotOpen, "cannot open " + path.string() + ": " + std::strerror(err));
  }
  FileSource src(f.get());
  try {
    return read_trace(src, static_cast<std::uint64_t>(st.st_size));
  } catch (const TraceFileError& e) {
    throw TraceFileError(e.kind(), path.string() + ": " + e.what());
  }
}

Trace load_trace_from_memory(std::span<const std::byte> bytes) {
  MemorySource src(bytes);
  return read_trace(src, bytes.size());
}

}  // namespace ts
