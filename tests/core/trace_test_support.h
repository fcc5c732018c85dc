// trace_test_support.h — small recordings for the core's tests.
#pragma once

#include <random>

#include "kernels/recorder.h"

namespace ts::test {

inline Trace small_trace(KernelKind kind = KernelKind::Tiled, int tile = 4, int m = 12, int n = 10, int k = 9) {
  RecordParams p;
  p.kernel = kind;
  p.tile = tile;
  p.m = m;
  p.n = n;
  p.k = k;
  p.device = DeviceChoice::Cpu;
  p.seed = std::random_device{}() | 1;
  return record(p);
}

}  // namespace ts::test
