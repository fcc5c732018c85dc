// kernel_cases.h — (kernel, TILE, M x N x K) cases for the parameterised
// kernel tests, and their gtest names (e.g. tiled_padded_t16_37x29x45).
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/recorder.h"
#include "tests/core/trace_test_support.h"

namespace ts::test {

struct KernelCase {
  KernelKind kind;
  int tile, m, n, k;

  RecordParams params(DeviceChoice device, std::uint64_t seed = 0) const {  // 0: a fresh seed
    return record_params(device, kind, tile, m, n, k, InputKind::Random, seed);
  }
};

struct Shape {
  int m, n, k;
};

// Every kernel at each tile and shape.
inline std::vector<KernelCase> kernel_cases(std::initializer_list<int> tiles, std::initializer_list<Shape> shapes) {
  std::vector<KernelCase> cases;
  for (KernelKind kind : kAllKernels)
    for (int tile : tiles)
      for (const Shape& s : shapes) cases.push_back({kind, tile, s.m, s.n, s.k});
  return cases;
}

// Every recorded rung of the ladder at each shape it takes (TILE 0: none).
inline std::vector<KernelCase> rung_cases(const std::vector<Shape>& shapes) {
  std::vector<KernelCase> cases;
  for (KernelKind kind : kRungKernels)
    for (const Shape& s : shapes)
      if (size_refusal(kind, s.m, s.n, s.k).empty()) cases.push_back({kind, 0, s.m, s.n, s.k});
  return cases;
}

// The shapes the rungs are checked at: square, non-square with ragged edges
// (multiples of 4, not of any tile), and one the scalar rungs alone take.
inline std::vector<Shape> rung_shapes() { return {{64, 64, 64}, {68, 132, 36}, {37, 29, 45}}; }

// Why a GPU test of this case cannot run here, or empty: no GPU, or one too
// old for the kernel's instructions (tf32-tensor-core's mma.sync needs sm_80).
// The GPU tests skip with it.
inline std::string gpu_unavailable(const KernelCase& c) {
  const gpu::DeviceStatus st = gpu::probe();
  if (!st.available) return st.reason;
  if (st.compute_capability < min_compute_capability(c.kind))
    return std::string(kernel_info(c.kind).name) + " needs compute capability " +
           std::to_string(min_compute_capability(c.kind)) + "; " + st.name + " has " +
           std::to_string(st.compute_capability);
  return {};
}

// e.g. tiled_padded_t16, blocktile_2d: gtest names allow no '-'.
inline std::string kernel_tile_name(KernelKind kind, int tile) {
  std::string name(kernel_info(kind).name);
  for (auto& ch : name)
    if (ch == '-') ch = '_';
  return takes_tile(kind) ? name + "_t" + std::to_string(tile) : name;
}

inline std::string kernel_case_name(const ::testing::TestParamInfo<KernelCase>& info) {
  const KernelCase& c = info.param;
  return kernel_tile_name(c.kind, c.tile) + "_" + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
         std::to_string(c.k);
}

}  // namespace ts::test
