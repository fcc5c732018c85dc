// The event's packed fields and the iteration rule, on the CPU.
#include <gtest/gtest.h>

#include "trace/event.h"

namespace ts {
namespace {

TEST(Event, FieldsHoldTheirLimits) {
  Event e{};
  e.epoch = kMaxEpoch;
  e.iter = kMaxIteration;
  e.array = static_cast<std::uint16_t>(ArrayId::Bs);
  e.flags = kFlagStore | kFlagPadding;
  e.width = static_cast<std::uint16_t>(Width::B16);
  e.async = 1;
  EXPECT_EQ(e.epoch, kMaxEpoch);
  EXPECT_EQ(e.iter, kMaxIteration);
  EXPECT_EQ(e.array_id(), ArrayId::Bs);
  EXPECT_TRUE(e.is_padding());
  EXPECT_EQ(e.op(), Op::Store);
  EXPECT_EQ(e.width_bytes(), 16u);
  EXPECT_TRUE(e.is_async());
}

TEST(IterationRule, TiledKernelsGoByBarriers) {
  const IterationRule r{2, 8, 64, 32, 8, 0, 0};
  EXPECT_EQ(iteration_of(r, ArrayId::A, 63, 0), 0);
  EXPECT_EQ(iteration_of(r, ArrayId::As, 5, 5), 2);
  EXPECT_EQ(iteration_of(r, ArrayId::C, 0, 16), 8);  // the final store
}

TEST(IterationRule, NaiveKernelsGoByTheElementsK) {
  const IterationRule r{0, 4, 64, 32, 16, 0, 0};
  EXPECT_EQ(iteration_of(r, ArrayId::A, 3 * 64 + 9, 0), 2);  // A[3][9]
  EXPECT_EQ(iteration_of(r, ArrayId::B, 17 * 32 + 5, 0), 4);  // B[17][5]
  EXPECT_EQ(iteration_of(r, ArrayId::C, 0, 0), 16);
}

TEST(IterationRule, PipelinesStampLoadsByKAndSharedAccessesAfterTheirPrologue) {
  // One barrier per iteration, one in the prologue; loads run a tile ahead.
  IterationRule r{1, 8, 64, 32, 8, 0, 0};
  r.barriers_before = 1;
  r.global_by_k = 1;
  EXPECT_EQ(iteration_of(r, ArrayId::A, 2 * 64 + 17, 0), 2);  // A[2][17], whatever the epoch
  EXPECT_EQ(iteration_of(r, ArrayId::B, 40 * 32, 3), 5);      // B[40][0]
  EXPECT_EQ(iteration_of(r, ArrayId::As, 0, 0), 0);           // the prologue's copies
  EXPECT_EQ(iteration_of(r, ArrayId::As, 0, 1), 0);
  EXPECT_EQ(iteration_of(r, ArrayId::Bs, 0, 4), 3);
  EXPECT_EQ(iteration_of(r, ArrayId::C, 0, 9), 8);
  // C is stored after the k-loop, also where no barrier follows the loop's last reads.
  EXPECT_EQ(iteration_of(r, ArrayId::C, 5, 8), 8);
  EXPECT_EQ(iteration_of(r, ArrayId::C, 5, 0), 8);
}

}  // namespace
}  // namespace ts
