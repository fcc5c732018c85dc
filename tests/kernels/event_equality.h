// event_equality.h — two recordings of one launch compared event for event:
// every field equal, and C's values within a tolerance (the GPU fuses
// multiply-adds, the CPU rounds twice: sums may differ in the last bits), and
// so the values of the memory ids named `computed` (a shared tile of C's sums
// staged before it is written out).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "trace/trace.h"

namespace ts::test {

// Fatal failures end this function only: call it inside ASSERT_NO_FATAL_FAILURE.
// Returns through c_value_diffs how many C values differed at all.
inline void expect_same_events(const Trace& g, const Trace& e, float c_tolerance, std::uint64_t* c_value_diffs = nullptr,
                               std::initializer_list<std::uint32_t> computed = {}) {
  ASSERT_EQ(g.events.size(), e.events.size());
  std::uint64_t diffs = 0;
  for (std::size_t i = 0; i < g.events.size(); ++i) {
    const Event& x = g.events[i];
    const Event& y = e.events[i];
    ASSERT_EQ(x.array, y.array) << "event " << i;
    ASSERT_EQ(x.index, y.index) << "event " << i;
    ASSERT_EQ(x.flags, y.flags) << "event " << i;
    ASSERT_EQ(x.width, y.width) << "event " << i;
    ASSERT_EQ(x.async, y.async) << "event " << i;
    ASSERT_EQ(x.epoch, y.epoch) << "event " << i;
    ASSERT_EQ(x.iter, y.iter) << "event " << i;
    const bool sum = x.array_id() == ArrayId::C || std::find(computed.begin(), computed.end(), x.array) != computed.end();
    if (sum) {
      ASSERT_NEAR(x.value, y.value, c_tolerance * (1.0f + std::fabs(y.value))) << "event " << i;
      diffs += x.value != y.value;
    } else {
      ASSERT_EQ(x.value, y.value) << "event " << i;
    }
  }
  if (c_value_diffs) *c_value_diffs = diffs;
}

}  // namespace ts::test
