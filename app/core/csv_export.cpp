// csv_export.cpp — fast CSV: std::to_chars into a buffer, one fwrite per chunk.
#include "app/core/csv_export.h"

#include <charconv>
#include <cstring>
#include <string>
#include <vector>

namespace ts {
namespace {

class Writer {
 public:
  explicit Writer(std::FILE* f) : f_(f) { buf_.reserve(kChunk + 256); }
  template <class T>
  void num(T v) {
    char tmp[64];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  void str(const char* s) { buf_.append(s); }
  void ch(char c) { buf_.push_back(c); }
  void end_row() {
    buf_.push_back('\n');
    if (buf_.size() >= kChunk) flush();
  }
  bool flush() {
    if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) ok_ = false;
    buf_.clear();
    return ok_;
  }

 private:
  static constexpr std::size_t kChunk = 1 << 20;
  std::FILE* f_;
  std::string buf_;
  bool ok_ = true;
};

}  // namespace

bool export_csv(const Trace& t, std::FILE* out) {
  Writer w(out);
  // The columns are documented in csv_export.h.
  w.str("block_x,block_y,thread_x,thread_y,warp,seq,iter,epoch,op,space,array,row,col,addr,value,padding,width,access,"
        "async,fragment");
  w.end_row();
  // The array column names the event's buffer or region, as the launch's tables do.
  std::vector<std::string> names(t.launch.memory_count());
  for (std::uint32_t id = 0; id < names.size(); ++id) names[id] = t.launch.memory_name(id);
  for (std::uint64_t th = 0; th < t.thread_count(); ++th) {
    const ThreadCoord c = t.thread_coord(th);
    const auto events = t.thread_events(th);
    std::size_t access = 0;
    for (std::size_t seq = 0; seq < events.size(); ++seq) {
      const Event& e = events[seq];
      if (first_of_access(e, seq ? &events[seq - 1] : nullptr)) access = seq;
      const ElementCoord el = t.element(e.array_id(), e.index);
      w.num(c.block.x), w.ch(','), w.num(c.block.y), w.ch(','), w.num(c.thread.x), w.ch(',');
      w.num(c.thread.y), w.ch(','), w.num(c.warp), w.ch(','), w.num(seq), w.ch(',');
      w.num(e.iter), w.ch(','), w.num(e.epoch), w.ch(',');
      w.str(op_name(e.op())), w.ch(','), w.str(space_name(e.space())), w.ch(',');
      w.str(e.array < names.size() ? names[e.array].c_str() : "?"), w.ch(',');
      w.num(el.row), w.ch(','), w.num(el.col), w.ch(','), w.num(t.address(e.array_id(), e.index)), w.ch(',');
      w.num(e.value), w.ch(','), w.ch(e.is_padding() ? '1' : '0'), w.ch(',');
      w.num(e.width_bytes()), w.ch(','), w.num(access), w.ch(','), w.ch(e.is_async() ? '1' : '0'), w.ch(',');
      if (e.is_fragment()) {  // an A fragment is the 16-byte ldmatrix access (mma.h), B's are 4-byte loads
        w.ch(e.access_width() == Width::B16 ? 'a' : 'b');
        w.num(fragment_slot(events.data(), seq));
      }
      w.end_row();
    }
  }
  return w.flush();
}

}  // namespace ts
