// tiled_transposed.h — the tiled kernel with B's tile stored transposed in
// shared memory, Bs[tx][ty], and read as Bs[tx][k] (seed 000's listing writes
// B_shared[tx][ty]). Lanes of a warp differ in tx, so both accesses stride by a
// whole row of Bs: with PAD = 0 every lane of a TILE = 32 warp hits the same
// bank (32-way conflict). PAD = 1 adds one word per row and the stride becomes
// TILE + 1 words: each lane lands in its own bank and the conflicts are gone.
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

template <int TILE, int PAD>
TS_DEVICE inline void matmul_tiled_transposed(InMatrix A, InMatrix B, OutMatrix C, int M, int N,
                                              int K) {
  static_assert(TILE >= 1 && TILE <= 32 && (TILE & (TILE - 1)) == 0, "TILE: a power of two up to 32");
  static_assert(PAD == 0 || PAD == 1, "PAD: no padding or one word per row");
  TS_SHARED(float, As, TILE, TILE);
  TS_SHARED(float, Bs, TILE, TILE + PAD);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_col = t * TILE + tx;
    const int b_row = t * TILE + ty;
    if (row < M && a_col < K) As[ty][tx] = A[row * K + a_col];  // [load]
    else                      As[ty][tx] = 0.0f;
    if (b_row < K && col < N) Bs[tx][ty] = B[b_row * N + col];  // [load] transposed
    else                      Bs[tx][ty] = 0.0f;
    __syncthreads();  // [barrier] the tiles are complete
    for (int k = 0; k < TILE; ++k) {
      acc += As[ty][k] * Bs[tx][k];  // [mac]
    }
    __syncthreads();  // [barrier] everyone is done reading before the next load
  }
  if (row < M && col < N) C[row * N + col] = acc;  // [store]
}

}  // namespace TS_KERNEL_NS
