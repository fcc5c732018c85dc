// staged_output.cu — a tiled matmul whose shared arrays have names of their
// own (sa, sb) and a third one: the block's tile of C, staged through shared
// memory (sc) before it is written out. Its store into sc is transposed
// (sc[tx][ty]), so a warp's lanes tx and tx + 4 write the same bank: the
// shared-memory panel shows each region with its own shape and banks, and
// the counters a 2-way conflict on sc. Record it with
//   tilescope record --kernel-file examples/kernels/staged_output.cu --entry matmul_staged \
//       --block 8x8 -D TILE=8 --size 16 -o staged.tstrace
#include <tilescope/kernel.h>

TS_DEVICE void matmul_staged(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
  TS_SHARED(float, sa, TILE, TILE);
  TS_SHARED(float, sb, TILE, TILE);
  TS_SHARED(float, sc, TILE, TILE);  // the block's tile of C, transposed
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_col = t * TILE + tx, b_row = t * TILE + ty;
    if (row < M && a_col < K) sa[ty][tx] = A[row * K + a_col];
    else                      sa[ty][tx] = 0.0f;
    if (b_row < K && col < N) sb[ty][tx] = B[b_row * N + col];
    else                      sb[ty][tx] = 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += sa[ty][k] * sb[k][tx];
    __syncthreads();
  }
  sc[tx][ty] = acc;  // staged, transposed
  __syncthreads();
  if (row < M && col < N) C[row * N + col] = sc[tx][ty];
}
