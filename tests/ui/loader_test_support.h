// loader_test_support.h — recording parameters and a small recording for the
// tests of the app's background loader. Needs nothing of the GUI, so that the
// loader's threaded test builds without one (CI's ThreadSanitizer stage).
#pragma once

#include <cstdint>
#include <memory>

#include "app/ui/trace_loader.h"

namespace ts::ui::test {

inline RecordParams cpu_params(KernelKind kind, int tile, int size, InputKind inputs, std::uint64_t seed) {
  RecordParams p;
  p.kernel = kind;
  p.tile = tile;
  p.m = p.n = p.k = size;
  p.device = DeviceChoice::Cpu;
  p.inputs = inputs;
  p.seed = seed;
  return p;
}

// Seed 003's example: 6 x 6 small integers, TILE 2.
inline std::shared_ptr<const LoadedTrace> small_example() {
  return LoadedTrace::record(cpu_params(KernelKind::Tiled, 2, 6, InputKind::SmallIntegers, 3));
}

}  // namespace ts::ui::test
