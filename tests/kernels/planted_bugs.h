// planted_bugs.h — the tiled kernel (kernels/tiled.h) with one bug planted in
// each variant, in the project's kernel vocabulary: the emulator's checks
// (sanitizer_test.cpp) and compute-sanitizer on a GPU (planted_bugs_gpu.cu,
// scripts/gpu-checks.d/sanitizer.sh) must both find it. Test-only.
//
// The lines the checks report are marked `// [name]`; the tests look them up.
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

// No barrier between the last reads of a tile and the next tile's stores: a
// fast thread overwrites what a slow one still reads (a race).
template <int TILE>
TS_DEVICE inline void planted_missing_barrier(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  TS_SHARED(float, As, TILE, TILE);
  TS_SHARED(float, Bs, TILE, TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_col = t * TILE + tx, b_row = t * TILE + ty;
    if (row < M && a_col < K) As[ty][tx] = A[row * K + a_col];  // [race-store]
    else                      As[ty][tx] = 0.0f;
    if (b_row < K && col < N) Bs[ty][tx] = B[b_row * N + col];
    else                      Bs[ty][tx] = 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];  // [race-load]
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

// No bounds checks: at a size that is not a multiple of TILE, the last tiles
// read past the ends of A and B and write past C's.
template <int TILE>
TS_DEVICE inline void planted_no_bounds_check(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  TS_SHARED(float, As, TILE, TILE);
  TS_SHARED(float, Bs, TILE, TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    As[ty][tx] = A[row * K + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];  // [oob-load]
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
  (void)M;
}

// The last column of each A tile is never staged: the reads of it find
// nothing written (an uninitialised shared read).
template <int TILE>
TS_DEVICE inline void planted_unstaged_column(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  TS_SHARED(float, As, TILE, TILE);
  TS_SHARED(float, Bs, TILE, TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_col = t * TILE + tx, b_row = t * TILE + ty;
    if (tx < TILE - 1) As[ty][tx] = row < M && a_col < K ? float(A[row * K + a_col]) : 0.0f;
    if (b_row < K && col < N) Bs[ty][tx] = B[b_row * N + col];
    else                      Bs[ty][tx] = 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];  // [uninit-load]
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

// Threads outside C return before the loop: at a ragged size the others of
// their block wait at a barrier those never reach.
template <int TILE>
TS_DEVICE inline void planted_early_return(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  TS_SHARED(float, As, TILE, TILE);
  TS_SHARED(float, Bs, TILE, TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_col = t * TILE + tx, b_row = t * TILE + ty;
    As[ty][tx] = a_col < K ? float(A[row * K + a_col]) : 0.0f;
    Bs[ty][tx] = b_row < K ? float(B[b_row * N + col]) : 0.0f;
    __syncthreads();  // [divergent-barrier]
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

}  // namespace TS_KERNEL_NS
