// small_sort.h — the distinct values of one warp's accesses, sorted, without a
// heap allocation for the usual 32 lanes (128 words of 16-byte accesses) (this runs once per warp request, a
// million times for a trace of N = 256).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ts {

class SmallSorted {
 public:
  // Keeps value / unit for each input value, sorted and deduplicated;
  // repeats() is then how many inputs shared their value with another.
  SmallSorted(std::span<const std::uint64_t> values, std::uint64_t unit) {
    std::uint64_t* out = values.size() <= inline_.size() ? inline_.data() : (heap_.resize(values.size()), heap_.data());
    for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i] / unit;
    // Lanes usually come in address order: insertion sort is linear then.
    if (values.size() > inline_.size()) std::sort(out, out + values.size());
    for (std::size_t i = 1; i < values.size() && values.size() <= inline_.size(); ++i) {
      const std::uint64_t v = out[i];
      std::size_t j = i;
      for (; j > 0 && out[j - 1] > v; --j) out[j] = out[j - 1];
      out[j] = v;
    }
    std::size_t n = 0;
    for (std::size_t i = 0; i < values.size();) {
      std::size_t run = 1;
      while (i + run < values.size() && out[i + run] == out[i]) ++run;
      if (run > 1) repeats_ += static_cast<std::uint32_t>(run);
      out[n++] = out[i];
      i += run;
    }
    values_ = {out, n};
  }
  SmallSorted(const SmallSorted&) = delete;
  SmallSorted& operator=(const SmallSorted&) = delete;

  std::span<const std::uint64_t> values() const { return values_; }
  std::uint32_t distinct() const { return static_cast<std::uint32_t>(values_.size()); }
  std::uint32_t repeats() const { return repeats_; }

 private:
  std::array<std::uint64_t, 128> inline_;  // a warp's 16-byte accesses, as words
  std::vector<std::uint64_t> heap_;
  std::span<const std::uint64_t> values_;
  std::uint32_t repeats_ = 0;
};

}  // namespace ts

namespace ts {

// The 4-byte words of accesses of access_bytes each, starting at byte_addresses,
// as byte addresses: what a vector access touches, for the counts above.
class AccessWords {
 public:
  AccessWords(std::span<const std::uint64_t> byte_addresses, std::uint32_t access_bytes) {
    const std::uint32_t per = access_bytes > 4 ? access_bytes / 4 : 1;
    if (per == 1) {
      words_ = byte_addresses;
      return;
    }
    const std::size_t n = byte_addresses.size() * per;
    std::uint64_t* out = n <= inline_.size() ? inline_.data() : (heap_.resize(n), heap_.data());
    for (std::size_t i = 0; i < byte_addresses.size(); ++i)
      for (std::uint32_t w = 0; w < per; ++w) out[i * per + w] = byte_addresses[i] + 4u * w;
    words_ = {out, n};
  }
  AccessWords(const AccessWords&) = delete;
  AccessWords& operator=(const AccessWords&) = delete;
  std::span<const std::uint64_t> bytes() const { return words_; }

 private:
  std::array<std::uint64_t, 128> inline_;
  std::vector<std::uint64_t> heap_;
  std::span<const std::uint64_t> words_;
};

}  // namespace ts
