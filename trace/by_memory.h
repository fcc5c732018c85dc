// by_memory.h — a value per memory id (an event's buffer or region), for
// counts and totals kept per buffer and region. It holds as many entries as
// the highest id counted so far: tilescope's own kernels use five ids, any
// other kernel its tables' (at most kMaxMemoryIds); an id never counted reads
// as a default value.
#pragma once

#include <cstddef>
#include <vector>

namespace ts {

template <class T>
class ByMemory {
 public:
  // The entry of `id`, made (default) when the id is new.
  T& operator[](std::size_t id) {
    if (id >= values_.size()) values_.resize(id + 1);
    return values_[id];
  }
  // The entry of `id`, or a default value for an id never counted.
  const T& operator[](std::size_t id) const { return id < values_.size() ? values_[id] : empty(); }
  std::size_t size() const { return values_.size(); }
  auto begin() const { return values_.begin(); }
  auto end() const { return values_.end(); }
  void clear() { values_.clear(); }

 private:
  static const T& empty() {
    static const T value{};
    return value;
  }
  std::vector<T> values_;
};

}  // namespace ts
