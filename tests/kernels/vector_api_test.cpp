// The kernel API's vector accesses (load4/store4, load2/store2) on the
// emulator: values move as the plain build moves them, each access is one
// event per float with its width, a staged element is a copy and a computed
// one padding, and a misaligned or out-of-range access is refused.
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
// A goes to As transposed through a register (as the vectorized rung does),
// comes back to C, and Bs gets a vector fill of zeros.
void transpose_through_shared(const KernelArgs& p) {
  TS_SHARED(float, As, kK, kM);
  TS_SHARED(float, Bs, 4, 8);
  InMatrix A{p.a, ArrayId::A};
  OutMatrix C{p.c, ArrayId::C};
  const int row = threadIdx.x / 2, col = (threadIdx.x % 2) * 4;
  const float4 a = load4(A[row * kK + col]);
  As[col + 0][row] = a.x;
  As[col + 1][row] = a.y;
  As[col + 2][row] = a.z;
  As[col + 3][row] = a.w;
  store4(Bs[row][col], make_float4(0.0f, 0.0f, 0.0f, 0.0f));
  __syncthreads();
  const float x = As[col + 0][row];
  const float y = As[col + 1][row];
  const float2 lo = make_float2(x, y);
  store2(C[row * kN + col], lo);
  store2(C[row * kN + col + 2], load2(A[row * kK + col + 2]));
}

void misaligned_load(const KernelArgs& p) {
  InMatrix A{p.a, ArrayId::A};
  OutMatrix C{p.c, ArrayId::C};
  C[0] = load4(A[2]).x;  // a float4 at float 2: not 16-byte aligned
}

void vector_past_the_end(const KernelArgs& p) {
  InMatrix A{p.a, ArrayId::A};
  OutMatrix C{p.c, ArrayId::C};
  C[0] = load2(A[kM * kK]).x;
}

Trace launch() { return test::eight_thread_launch({true, 0, kK, kM, kM}, {true, 0, 4, 8, 8}, 0); }

TEST(VectorApi, ValuesEventsAndWidths) {
  Trace t = launch();
  record_launch_with(&transpose_through_shared, t, 1);
  for (int i = 0; i < kM * kN; ++i) EXPECT_EQ(t.c[i], t.a[i]) << "C[" << i << "]";
  // Per thread: 4 (A) + 4 (As) + 4 (Bs) + 2 (As) + 2 (C) + 2 (A) + 2 (C).
  ASSERT_EQ(t.events.size(), 8u * 20);
  const auto ev = t.thread_events(3);  // row 1, column 4
  EXPECT_EQ(ev[0].array_id(), ArrayId::A);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(ev[i].index, 1u * kK + 4 + i);
    EXPECT_EQ(ev[i].width_bytes(), 16u);
    EXPECT_EQ(first_of_access(ev[i], i ? &ev[i - 1] : nullptr), i == 0);
  }
  for (int i = 4; i < 8; ++i) {  // the staged elements: copies of A, scalar stores
    EXPECT_EQ(ev[i].array_id(), ArrayId::As);
    EXPECT_EQ(ev[i].op(), Op::Store);
    EXPECT_FALSE(ev[i].is_padding()) << "event " << i;
    EXPECT_EQ(ev[i].width_bytes(), 4u);
  }
  for (int i = 8; i < 12; ++i) {  // the zero fill: padding, one 16-byte access
    EXPECT_EQ(ev[i].array_id(), ArrayId::Bs);
    EXPECT_TRUE(ev[i].is_padding()) << "event " << i;
    EXPECT_EQ(ev[i].width_bytes(), 16u);
  }
  EXPECT_EQ(ev[14].array_id(), ArrayId::C);
  EXPECT_EQ(ev[14].width_bytes(), 8u);
  EXPECT_EQ(ev[14].index, 1u * kN + 4);
  EXPECT_EQ(ev[19].index, 1u * kN + 7);
}

void expect_fault(KernelEntry kernel, const std::string& needle) { test::expect_emulator_fault(kernel, launch(), needle); }

TEST(VectorApi, MisalignedAccessIsRefused) { expect_fault(&misaligned_load, "misaligned 16-byte access to A element 2"); }
TEST(VectorApi, AccessPastTheEndIsRefused) { expect_fault(&vector_past_the_end, "outside A"); }

}  // namespace
}  // namespace ts::emu
