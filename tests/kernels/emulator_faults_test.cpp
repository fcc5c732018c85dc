// The emulator refuses kernels that a GPU would not run safely: an access
// outside a matrix or past a tile's edge, and a barrier that only some threads
// of a block reach. Each case is a small kernel compiled in the emulator's mode.
// clang-format off
#include "kernels/emu/mode_emulator.h"
// clang-format on

#include <gtest/gtest.h>

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

TEST(EmulatorFaults, AWellBehavedKernelRuns) {
  Trace t = four_by_four();
  record_launch_with(&well_behaved, t, 1);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(t.c[r * 4 + c], t.a[c * 4 + r]);
  EXPECT_EQ(t.events.size(), 16u * 4);  // load A, store As, load As, store C
}

}  // namespace
}  // namespace ts::emu
