// trace_test_support.h — small recordings for the core's tests.
#pragma once

#include <random>

#include "kernels/recorder.h"

namespace ts::test {

inline RecordParams record_params(DeviceChoice device, KernelKind kind, int tile, int m, int n, int k,
                                  InputKind inputs = InputKind::Random, std::uint64_t seed = 0) {
  RecordParams p;
  p.kernel = kind;
  p.tile = tile;
  p.m = m;
  p.n = n;
  p.k = k;
  p.device = device;
  p.inputs = inputs;
  p.seed = seed ? seed : (std::random_device{}() | 1);  // 0: a fresh seed
  return p;
}

inline Trace record_on(DeviceChoice device, KernelKind kind, int tile, int m, int n, int k,
                       InputKind inputs = InputKind::Random, std::uint64_t seed = 0) {
  return record(record_params(device, kind, tile, m, n, k, inputs, seed));
}

inline Trace small_trace(KernelKind kind = KernelKind::Tiled, int tile = 4, int m = 12, int n = 10, int k = 9) {
  return record_on(DeviceChoice::Cpu, kind, tile, m, n, k);
}

}  // namespace ts::test
