// emulator_test_support.h — a hand-made launch for kernels written in the
// emulator's mode inside a test, and the check that the emulator refuses one.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "kernels/emu/emulator.h"

namespace ts::test {

// One block of 8 threads; A is 4 x 8, B 8 x 8, C 4 x 8; A holds i + 0.25 at i.
inline Trace eight_thread_launch(ArrayLayout as, ArrayLayout bs, std::uint32_t global_by_k) {
  constexpr int kM = 4, kK = 8, kN = 8;
  Trace t;
  LaunchInfo& L = t.launch;
  L.kernel = "test";
  L.tile = 4;
  L.m = kM, L.n = kN, L.k = kK;
  L.grid = {1, 1, 1};
  L.block = {8, 1, 1};
  L.iteration_rule = {1, static_cast<std::uint32_t>(kK), kK, kN, 1, 0, global_by_k};
  L.set_array(ArrayId(0), {true, 0x1000, kM, kK, kK});
  L.set_array(ArrayId(1), {true, 0x2000, kK, kN, kN});
  L.set_array(ArrayId(2), {true, 0x3000, kM, kN, kN});
  L.set_array(ArrayId(3), as);
  L.set_array(ArrayId(4), bs);
  for (int i = 0; i < kM * kK; ++i) t.a.push_back(float(i) + 0.25f);
  t.b.assign(kK * kN, 0.0f);
  t.c.assign(kM * kN, NAN);
  return t;
}

inline void expect_emulator_fault(emu::KernelEntry kernel, Trace t, const std::string& needle) {
  try {
    emu::record_launch_with(kernel, t, 1);
    ADD_FAILURE() << "the emulator ran a kernel it should have refused";
  } catch (const emu::EmulatorError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("thread ("), std::string::npos) << e.what();
  }
}

}  // namespace ts::test
