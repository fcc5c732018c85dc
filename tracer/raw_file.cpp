// raw_file.cpp — write and read the tracer's raw launch file (raw_file.h).
// Little-endian host order throughout: the file is made and read on one
// machine (the traced process and the tilescope that started it).
#include "tracer/raw_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

namespace ts::tracer {
namespace {

class Writer {
 public:
  explicit Writer(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "wb")) {
    if (!f_) throw RawFileError("cannot write " + path + ": " + std::strerror(errno));
  }
  ~Writer() {
    if (f_) std::fclose(f_);
  }
  void bytes(const void* p, std::size_t n) {
    if (n && std::fwrite(p, 1, n, f_) != n) throw RawFileError("cannot write " + path_ + ": " + std::strerror(errno));
  }
  template <class T>
  void pod(const T& v) {
    bytes(&v, sizeof v);
  }
  void str(const std::string& s) {
    pod(static_cast<std::uint64_t>(s.size()));
    bytes(s.data(), s.size());
  }
  void close() {
    const int rc = std::fclose(f_);
    f_ = nullptr;
    if (rc != 0) throw RawFileError("cannot write " + path_ + ": " + std::strerror(errno));
  }

 private:
  std::string path_;
  std::FILE* f_;
};

class Reader {
 public:
  Reader(std::vector<char> data, const std::string& path) : data_(std::move(data)), path_(path) {}
  void bytes(void* p, std::size_t n) {
    if (n > data_.size() - pos_) throw RawFileError(path_ + " is cut short (a tracer that did not finish?)");
    if (n == 0) return;  // an empty list's data() may be null: memcpy must not see it
    std::memcpy(p, data_.data() + pos_, n);
    pos_ += n;
  }
  template <class T>
  T pod() {
    T v;
    bytes(&v, sizeof v);
    return v;
  }
  // A count of items of `item_bytes` each, no more than the rest of the file holds.
  std::uint64_t count(std::size_t item_bytes) {
    const auto n = pod<std::uint64_t>();
    if (item_bytes && n > (data_.size() - pos_) / item_bytes)
      throw RawFileError(path_ + " claims " + std::to_string(n) + " items, more than it holds");
    return n;
  }
  std::string str() {
    std::string s(count(1), '\0');
    bytes(s.data(), s.size());
    return s;
  }
  bool at_end() const { return pos_ == data_.size(); }

 private:
  std::vector<char> data_;
  std::size_t pos_ = 0;
  std::string path_;
};

void put_dim(Writer& w, const Dim3& d) {
  w.pod(d.x);
  w.pod(d.y);
  w.pod(d.z);
}
Dim3 get_dim(Reader& r) {
  Dim3 d;
  d.x = r.pod<std::uint32_t>();
  d.y = r.pod<std::uint32_t>();
  d.z = r.pod<std::uint32_t>();
  return d;
}

}  // namespace

void write_raw_launch(const RawLaunch& L, const std::string& path) {
  Writer w(path);
  w.bytes(kRawMagic, sizeof kRawMagic);
  w.pod(kRawVersion);
  w.pod(static_cast<std::uint8_t>(L.traced));
  w.pod(static_cast<std::uint64_t>(L.launches.size()));
  for (const std::string& s : L.launches) w.str(s);
  w.pod(L.launch_index);
  w.str(L.kernel);
  w.str(L.device_name);
  put_dim(w, L.grid);
  put_dim(w, L.block);
  w.pod(L.static_shared_bytes);
  w.pod(L.records_needed);
  w.pod(L.capacity);
  w.pod(L.function_pc);
  w.pod(L.function_size);
  w.pod(static_cast<std::uint64_t>(L.cubin.size()));
  w.bytes(L.cubin.data(), L.cubin.size());
  w.pod(static_cast<std::uint64_t>(L.allocations.size()));
  for (const RawAllocation& a : L.allocations) {
    w.pod(a.address);
    w.pod(a.bytes);
    w.str(a.name);
  }
  w.pod(static_cast<std::uint64_t>(L.shared_symbols.size()));
  for (const RawSharedSymbol& s : L.shared_symbols) {
    w.str(s.name);
    w.pod(s.offset);
    w.pod(s.bytes);
  }
  w.pod(static_cast<std::uint64_t>(L.snapshots.size()));
  for (const RawSnapshot& s : L.snapshots) {
    w.pod(s.allocation);
    w.pod(static_cast<std::uint8_t>(s.after));
    w.pod(static_cast<std::uint64_t>(s.bytes.size()));
    w.bytes(s.bytes.data(), s.bytes.size());
  }
  w.pod(static_cast<std::uint64_t>(L.records.size()));
  w.bytes(L.records.data(), L.records.size() * sizeof(RawRecord));
  w.close();
}

RawLaunch read_raw_launch(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RawFileError("cannot read " + path + ": " + std::strerror(errno));
  std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Reader r(std::move(data), path);
  char magic[sizeof kRawMagic];
  r.bytes(magic, sizeof magic);
  if (std::memcmp(magic, kRawMagic, sizeof magic) != 0) throw RawFileError(path + " is not a tilescope tracer file");
  if (const auto v = r.pod<std::uint32_t>(); v != kRawVersion)
    throw RawFileError(path + " is a tracer file of version " + std::to_string(v) + ", this tilescope reads " +
                       std::to_string(kRawVersion) + " (the tracer library and tilescope come from different builds)");
  RawLaunch L;
  L.traced = r.pod<std::uint8_t>() != 0;
  L.launches.resize(r.count(8));
  for (std::string& s : L.launches) s = r.str();
  L.launch_index = r.pod<std::uint32_t>();
  L.kernel = r.str();
  L.device_name = r.str();
  L.grid = get_dim(r);
  L.block = get_dim(r);
  L.static_shared_bytes = r.pod<std::uint32_t>();
  L.records_needed = r.pod<std::uint64_t>();
  L.capacity = r.pod<std::uint64_t>();
  L.function_pc = r.pod<std::uint64_t>();
  L.function_size = r.pod<std::uint64_t>();
  L.cubin.resize(r.count(1));
  r.bytes(L.cubin.data(), L.cubin.size());
  L.allocations.resize(r.count(24));
  for (RawAllocation& a : L.allocations) {
    a.address = r.pod<std::uint64_t>();
    a.bytes = r.pod<std::uint64_t>();
    a.name = r.str();
  }
  L.shared_symbols.resize(r.count(16));
  for (RawSharedSymbol& s : L.shared_symbols) {
    s.name = r.str();
    s.offset = r.pod<std::uint32_t>();
    s.bytes = r.pod<std::uint32_t>();
  }
  L.snapshots.resize(r.count(13));
  for (RawSnapshot& s : L.snapshots) {
    s.allocation = r.pod<std::uint32_t>();
    s.after = r.pod<std::uint8_t>() != 0;
    s.bytes.resize(r.count(1));
    r.bytes(s.bytes.data(), s.bytes.size());
  }
  L.records.resize(r.count(sizeof(RawRecord)));
  r.bytes(L.records.data(), L.records.size() * sizeof(RawRecord));
  if (!r.at_end()) throw RawFileError(path + " has bytes past its records");
  for (const RawSnapshot& s : L.snapshots)
    if (s.allocation >= L.allocations.size())
      throw RawFileError(path + ": a snapshot of allocation " + std::to_string(s.allocation) + " of " +
                         std::to_string(L.allocations.size()));
  return L;
}

}  // namespace ts::tracer
