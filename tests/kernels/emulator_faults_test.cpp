// The emulator refuses kernels that a GPU would not run safely: an access
// outside a matrix or past a tile's edge, and a barrier that only some threads
// of a block reach. Each case is a small kernel compiled in the emulator's mode.
// clang-format off
#include "kernels/emu/mode_emulator.h"
// clang-format on

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "kernels/emu/emulator.h"

namespace ts::emu {
namespace {

void reads_past_a(const KernelArgs& p) {
  InMatrix A{p.a, ArrayId::A};
  const float x = A[p.m * p.k];  // one past the last element
  OutMatrix C{p.c, ArrayId::C};
  C[0] = x;
}

void reads_past_a_tile_edge(const KernelArgs& p) {
  TS_SHARED(float, As, 4, 4);
  As[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  OutMatrix C{p.c, ArrayId::C};
  C[0] = As[threadIdx.y][4];  // column 4 of a 4-wide tile
}

void barrier_in_divergent_code(const KernelArgs& p) {
  if (threadIdx.x == 0) return;
  __syncthreads();
  OutMatrix C{p.c, ArrayId::C};
  C[0] = 0.0f;
  (void)p;
}

// A loop that never ends, as a typo makes one: `k += 0`. Each thread reads A
// at the line after kEndlessLine.
constexpr int kEndlessLine = __LINE__ + 6;
void endless_loop(const KernelArgs& p) {
  InMatrix A{p.a, ArrayId::A};
  OutMatrix C{p.c, ArrayId::C};
  float acc = 0.0f;
  for (int k = 0; k < p.k; k += 0) {
    acc += A[threadIdx.y * p.k + k];
  }
  C[threadIdx.y * p.n + threadIdx.x] = acc;
}

// The same with a barrier in the loop: the block's threads meet at it forever.
void endless_loop_with_barrier(const KernelArgs& p) {
  TS_SHARED(float, As, 4, 4);
  for (int k = 0; k < p.k; k += 0) {
    As[threadIdx.y][threadIdx.x] = 1.0f;
    __syncthreads();
  }
  OutMatrix C{p.c, ArrayId::C};
  C[0] = As[0][0];
}

void well_behaved(const KernelArgs& p) {
  TS_SHARED(float, As, 4, 4);
  InMatrix A{p.a, ArrayId::A};
  As[threadIdx.y][threadIdx.x] = A[threadIdx.y * p.k + threadIdx.x];
  __syncthreads();
  OutMatrix C{p.c, ArrayId::C};
  C[threadIdx.y * p.n + threadIdx.x] = As[threadIdx.x][threadIdx.y];  // the transpose
}

Trace four_by_four() {
  Trace t;
  LaunchInfo& L = t.launch;
  L.kernel = "test";
  L.tile = 4;
  L.m = L.n = L.k = 4;
  L.grid = {1, 1, 1};
  L.block = {4, 4, 1};
  L.iteration_rule = {2, 4, 4, 4, 1, 0, 0};
  auto set = [&](ArrayId id, std::uint32_t base) { L.set_array(id, {true, base, 4, 4, 4}); };
  set(ArrayId::A, 0x1000);
  set(ArrayId::B, 0x2000);
  set(ArrayId::C, 0x3000);
  set(ArrayId::As, 0);
  for (int i = 0; i < 16; ++i) {
    t.a.push_back(float(i));
    t.b.push_back(0.0f);
  }
  t.c.assign(16, NAN);
  return t;
}

void expect_fault(KernelEntry kernel, const std::string& needle) {
  Trace t = four_by_four();
  try {
    record_launch_with(kernel, t, 1);
    FAIL() << "the emulator ran a kernel it should have refused";
  } catch (const EmulatorError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("block (0,0)"), std::string::npos) << e.what();
  }
}

TEST(EmulatorFaults, AccessOutsideAMatrix) { expect_fault(&reads_past_a, "outside A"); }
TEST(EmulatorFaults, AccessPastATileEdge) { expect_fault(&reads_past_a_tile_edge, "past a tile edge"); }
TEST(EmulatorFaults, BarrierInDivergentCode) { expect_fault(&barrier_in_divergent_code, "__syncthreads"); }

// A launch that never ends is stopped at its deadline (plus the time to the
// next look at the clock), and the message says where the threads were.
void expect_stopped(KernelEntry kernel, const std::string& line) {
  Trace t = four_by_four();
  LaunchOptions options;
  options.workers = 1;
  options.timeout_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  try {
    record_launch_with(kernel, t, options);
    FAIL() << "an endless loop ended";
  } catch (const TimedOutError& e) {
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(took, 0.5 + 1.0);
    const std::string what = e.what();
    EXPECT_NE(what.find("still running after 0.5 s"), std::string::npos) << what;
    EXPECT_NE(what.find("block (0,0) thread ("), std::string::npos) << what;
    EXPECT_NE(what.find("at line " + line), std::string::npos) << what;
    EXPECT_NE(what.find("16 threads of its block had not finished"), std::string::npos) << what;
  }
}

TEST(EmulatorFaults, AnEndlessLoopIsStoppedAtTheDeadline) { expect_stopped(&endless_loop, std::to_string(kEndlessLine)); }

// With a barrier in it, an endless loop passes more barriers than an event
// counts long before any deadline: stopped there, at once.
TEST(EmulatorFaults, AnEndlessLoopOfBarriersStopsAtTheBarrierLimit) {
  Trace t = four_by_four();
  LaunchOptions options;
  options.workers = 1;
  options.timeout_seconds = 60;
  try {
    record_launch_with(&endless_loop_with_barrier, t, options);
    FAIL() << "an endless loop ended";
  } catch (const TooLargeError& e) {
    EXPECT_NE(std::string(e.what()).find("passes more than 4095 barriers"), std::string::npos) << e.what();
  }
}

TEST(EmulatorFaults, AWellBehavedKernelRuns) {
  Trace t = four_by_four();
  record_launch_with(&well_behaved, t, 1);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(t.c[r * 4 + c], t.a[c * 4 + r]);
  EXPECT_EQ(t.events.size(), 16u * 4);  // load A, store As, load As, store C
}

}  // namespace
}  // namespace ts::emu
