// zstd_stream.h — a zstd-compressed byte stream written and read piecewise,
// for the streams of trace file version 2 (trace_codec.cpp).
//
// The reader decompresses 64 KB at a time, refuses frames that ask for a
// window over 1 MiB (so a hostile frame cannot make it allocate), and throws
// TraceFileError naming its stream when the data ends early, is corrupt, or
// has bytes left over.
#pragma once

#include <zstd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "app/core/trace_file.h"

namespace ts::zstd {

using Kind = TraceFileError::Kind;

// Level 3 with a 1 MiB window: the repeats that matter (one thread's runs
// against the next's) are close together, and the decoder refuses frames that
// ask for a larger window, so a hostile frame cannot make it allocate.
constexpr int kLevel = 3;
constexpr int kWindowLog = 20;
constexpr std::size_t kBufferBytes = 1 << 16;

struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

class Writer {
 public:
  Writer() : cctx_(ZSTD_createCCtx()), buf_(kBufferBytes) {
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
      if (out_.size() - used_ < ZSTD_CStreamOutSize())
        out_.resize(std::max(out_.size() * 2, used_ + ZSTD_CStreamOutSize()));
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

class Reader {
 public:
  Reader() = default;
  Reader(std::span<const std::byte> src, std::string name)
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

}  // namespace ts::zstd
