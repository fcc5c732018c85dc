// The kernel API's cp.async copies on the emulator: the data lands at the
// wait that covers its group, each copy is an async global load and an async
// shared store of its width (a zero fill: padding, no load), and a read of a
// word whose copy has not been waited for is a reported error.
// clang-format off
#include "kernels/emu/mode_emulator.h"
// clang-format on

#include <gtest/gtest.h>

#include <cmath>

#include "kernels/emu/emulator.h"
#include "tests/kernels/emulator_test_support.h"

namespace ts::emu {
namespace {

constexpr int kM = 4, kK = 8, kN = 8;

// 8 threads; thread t owns row t / 2 and the float4 at column (t % 2) * 4.
void copy_wait_read(const KernelArgs& p) {
  TS_SHARED(float, As, kM, kK);
  TS_SHARED(float, Bs, kM, kK);
  InMatrix A{p.a, ArrayId::A};
  OutMatrix C{p.c, ArrayId::C};
  const int row = threadIdx.x / 2, col = (threadIdx.x % 2) * 4;
  cp_async16(As[row][col], A[row * kK + col]);
  cp_async_commit();
  cp_async16_zero(Bs[row][col]);
  cp_async_commit();
  cp_async_wait<1>();  // the first group has landed, the zero fill may not have
  __syncthreads();
  for (int i = 0; i < 4; ++i) C[row * kN + col + i] = As[row][(col + 4 + i) % kK];  // a neighbour's copy
  cp_async_wait<0>();
}

void reads_the_newest_group_too_early(const KernelArgs& p) {
  TS_SHARED(float, As, kM, kK);
  TS_SHARED(float, Bs, kM, kK);
  InMatrix A{p.a, ArrayId::A};
  OutMatrix C{p.c, ArrayId::C};
  const int row = threadIdx.x / 2, col = (threadIdx.x % 2) * 4;
  cp_async16(As[row][col], A[row * kK + col]);
  cp_async_commit();
  cp_async4(Bs[row][col], A[row * kK + col]);
  cp_async_commit();
  cp_async_wait<1>();
  __syncthreads();
  C[row * kN + col] = Bs[row][col];  // Bs's group is still in flight
}

void reads_before_any_wait(const KernelArgs& p) {
  TS_SHARED(float, As, kM, kK);
  InMatrix A{p.a, ArrayId::A};
  OutMatrix C{p.c, ArrayId::C};
  const int row = threadIdx.x / 2, col = (threadIdx.x % 2) * 4;
  cp_async16(As[row][col], A[row * kK + col]);
  cp_async_commit();
  C[row * kN + col] = load4(As[row][col]).x;
}

Trace launch() { return test::eight_thread_launch({true, 0, kM, kK, kK}, {true, 0, kM, kK, kK}, 1); }

TEST(AsyncCopyApi, DataLandsAtTheWaitAndEveryCopyIsRecorded) {
  Trace t = launch();
  record_launch_with(&copy_wait_read, t, 1);
  for (int r = 0; r < kM; ++r)
    for (int c = 0; c < kN; ++c) EXPECT_EQ(t.c[r * kN + c], t.a[r * kK + (c + 4) % kK]) << r << "," << c;
  // Per thread: 4 A loads + 4 As stores (the copy), 4 Bs stores (the fill), 4 As loads, 4 C stores.
  ASSERT_EQ(t.events.size(), 8u * 20);
  const auto ev = t.thread_events(5);  // row 2, column 4
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(ev[i].array_id(), ArrayId::A);
    EXPECT_EQ(ev[i].index, 2u * kK + 4 + i);
    EXPECT_TRUE(ev[i].is_async());
    EXPECT_EQ(ev[i].width_bytes(), 16u);
    EXPECT_EQ(ev[4 + i].array_id(), ArrayId::As);
    EXPECT_EQ(ev[4 + i].op(), Op::Store);
    EXPECT_TRUE(ev[4 + i].is_async());
    EXPECT_FALSE(ev[4 + i].is_padding());
    EXPECT_EQ(ev[4 + i].value, ev[i].value);
    EXPECT_EQ(ev[8 + i].array_id(), ArrayId::Bs);
    EXPECT_TRUE(ev[8 + i].is_padding());  // the zero fill reads nothing
    EXPECT_EQ(ev[8 + i].value, 0.0f);
    EXPECT_FALSE(ev[12 + i].is_async());  // the ordinary shared loads after the wait
  }
}

void expect_fault(KernelEntry kernel, const std::string& needle) { test::expect_emulator_fault(kernel, launch(), needle); }

TEST(AsyncCopyApi, ReadingTheNewestGroupBeforeItsWaitIsAnError) {
  expect_fault(&reads_the_newest_group_too_early, "reads Bs element 0 before the cp.async copy to it was waited for");
}
TEST(AsyncCopyApi, ReadingBeforeAnyWaitIsAnError) {
  expect_fault(&reads_before_any_wait, "reads As element 0 before the cp.async copy");
}

}  // namespace
}  // namespace ts::emu
