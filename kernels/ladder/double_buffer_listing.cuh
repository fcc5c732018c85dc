// double_buffer_listing.cuh — the plain build of kernels/double_buffer.h (the
// double-buffer rung as the app records it) at any configuration, its tiles in
// dynamic shared memory: the benchmark's double-buffer (double_buffer.cu) and
// the tuning program's candidates (ladder_tune.cu). Include it before any
// other plain-mode header of the translation unit: it asks mode_plain.cuh for
// dynamic shared memory.
#pragma once

// clang-format off
#define TS_PLAIN_DYNAMIC_SHARED 1
#include "kernels/cuda/mode_plain.cuh"
#include "kernels/double_buffer.h"
// clang-format on

#include "kernels/ladder/ladder_device.cuh"

namespace ts::ladder {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int STAGES_, int GROUP_M_>
struct ListingConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int STAGES = STAGES_, GROUP_M = GROUP_M_;
  static constexpr int kThreads = 32 * (BM / WM) * (BN / WN);
  static constexpr int kSharedBytes = STAGES * BK * (BM + 4 + BN) * 4;  // As (rows padded by 4), then Bs
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    double_buffer_listing(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                          int k) {
  plain::matmul_double_buffer<Cfg::BM, Cfg::BN, Cfg::BK, Cfg::WM, Cfg::WN, Cfg::TM, Cfg::TN, Cfg::STAGES, Cfg::GROUP_M>(
      a, b, c, m, n, k);
}

template <class Cfg>
void launch_double_buffer_listing(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const int rows = ceil_div(m, Cfg::BM), cols = ceil_div(n, Cfg::BN);
  const dim3 grid = Cfg::GROUP_M > 0 ? dim3(rows * cols) : dim3(cols, rows);
  launch_checked(double_buffer_listing<Cfg>, grid, Cfg::kThreads, Cfg::kSharedBytes, stream, a, b, c, m, n, k);
}

}  // namespace ts::ladder
