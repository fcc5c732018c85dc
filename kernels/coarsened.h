// coarsened.h — tiled and thread-coarsened: each thread computes 2 x 2 cells of C.
// Seed 000's last kernel, written correctly: a TILE x TILE block covers a
// 2*TILE x 2*TILE patch of C, stages a 2*TILE x TILE tile of A and a
// TILE x 2*TILE tile of B per k-iteration (two elements of each per thread),
// and thread (ty, tx) owns rows ty, ty + TILE and columns tx, tx + TILE of the
// patch, so neighbouring lanes still touch neighbouring columns (coalesced).
// Each shared value is read once into a register and used twice.
#pragma once
#include "kernels/kernel_api.h"

namespace TS_KERNEL_NS {

template <int TILE>
TS_DEVICE inline void matmul_coarsened(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  static_assert(TILE >= 1 && TILE <= 32 && (TILE & (TILE - 1)) == 0, "TILE: a power of two up to 32");
  constexpr int COARSE = 2;  // cells of C per thread along each axis
  TS_SHARED(float, As, COARSE * TILE, TILE);
  TS_SHARED(float, Bs, TILE, COARSE * TILE);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * COARSE * TILE + ty;
  const int col0 = blockIdx.x * COARSE * TILE + tx;
  float acc[COARSE][COARSE] = {};
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    for (int i = 0; i < COARSE; ++i) {
      const int a_row = row0 + i * TILE, a_col = t * TILE + tx;
      if (a_row < M && a_col < K) As[ty + i * TILE][tx] = A[a_row * K + a_col];  // [load]
      else                        As[ty + i * TILE][tx] = 0.0f;
    }
    for (int j = 0; j < COARSE; ++j) {
      const int b_row = t * TILE + ty, b_col = col0 + j * TILE;
      if (b_row < K && b_col < N) Bs[ty][tx + j * TILE] = B[b_row * N + b_col];  // [load]
      else                        Bs[ty][tx + j * TILE] = 0.0f;
    }
    __syncthreads();  // [barrier] the tiles are complete
    for (int k = 0; k < TILE; ++k) {
      float a[COARSE], b[COARSE];
      for (int i = 0; i < COARSE; ++i) a[i] = As[ty + i * TILE][k];  // [mac]
      for (int j = 0; j < COARSE; ++j) b[j] = Bs[k][tx + j * TILE];
      for (int i = 0; i < COARSE; ++i)
        for (int j = 0; j < COARSE; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();  // [barrier] everyone is done reading before the next load
  }
  for (int i = 0; i < COARSE; ++i)
    for (int j = 0; j < COARSE; ++j) {
      const int r = row0 + i * TILE, c = col0 + j * TILE;
      if (r < M && c < N) C[r * N + c] = acc[i][j];  // [store]
    }
}

}  // namespace TS_KERNEL_NS
