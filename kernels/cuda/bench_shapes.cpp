// bench_shapes.cpp — the benchmark's named size sweeps.
#include "kernels/cuda/bench_runner.h"

namespace ts::gpu {

std::vector<GemmShape> sweep_shapes(std::string_view sweep) {
  std::vector<GemmShape> square, nonsquare;
  for (int e = 128; e <= 8192; e *= 2) square.push_back({e, e, e});
  nonsquare = {
      {1024, 4096, 4096},  // few rows: fewer blocks than a big square
      {4096, 1024, 4096},  // few columns
      {4096, 4096, 1024},  // short k: each block's loop is short
      {8192, 8192, 1024},  // wide and short k: the largest C
      {8192, 1024, 8192},  // tall A, narrow B
      {3000, 5000, 2000},  // no side a multiple of 128: ragged edge blocks
  };
  if (sweep == "square") return square;
  if (sweep == "nonsquare") return nonsquare;
  if (sweep == "all") {
    square.insert(square.end(), nonsquare.begin(), nonsquare.end());
    return square;
  }
  return {};
}

}  // namespace ts::gpu
