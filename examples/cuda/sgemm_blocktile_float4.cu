// sgemm_blocktile_float4.cu — a 2D block-tiled SGEMM written the way a course
// or a blog prints it, for the GPU and nothing else: raw pointers, shared
// tiles with names of its own, float4 loads and stores, alpha and beta. It
// includes nothing of tilescope's; tilescope compiles it with NVRTC as it is
// and traces the launch with the Compute Sanitizer API:
//
//   tilescope record --cuda-file examples/cuda/sgemm_blocktile_float4.cu \
//       --entry sgemm_blocktile_float4 --grid 2,2 --block 256 \
//       --m 128 --n 128 --k 64 --arg alpha=1 --arg beta=0 -o float4.tstrace
//
// Each block computes a 64 x 64 tile of C with 256 threads, 4 x 4 cells per
// thread, stepping through K 16 columns at a time. Like most such listings it
// assumes M and N are multiples of 64 and K a multiple of 16 (no edge
// guards), and row-major A (M x K), B (K x N) and C (M x N).
// C = alpha * A * B + beta * C.

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

__global__ void sgemm_blocktile_float4(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                                       float* C) {
  __shared__ float tileA[BK][BM];  // A's tile, stored transposed: tileA[k][row]
  __shared__ float tileB[BK][BN];

  const int t = threadIdx.x;
  const int tx = t % (BN / TN), ty = t / (BN / TN);  // this thread's 4 x 4 cells: rows ty*4.., cols tx*4..
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int a_row = t / (BK / 4), a_col = (t % (BK / 4)) * 4;  // one float4 of A's tile per thread
  const int b_row = t / (BN / 4), b_col = (t % (BN / 4)) * 4;  // one float4 of B's tile per thread

  float acc[TM][TN] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    const float4 a4 = *reinterpret_cast<const float4*>(&A[(row0 + a_row) * K + k0 + a_col]);
    tileA[a_col + 0][a_row] = a4.x;
    tileA[a_col + 1][a_row] = a4.y;
    tileA[a_col + 2][a_row] = a4.z;
    tileA[a_col + 3][a_row] = a4.w;
    *reinterpret_cast<float4*>(&tileB[b_row][b_col]) =
        *reinterpret_cast<const float4*>(&B[(k0 + b_row) * N + col0 + b_col]);
    __syncthreads();

    for (int kk = 0; kk < BK; ++kk) {
      const float4 a = *reinterpret_cast<const float4*>(&tileA[kk][ty * TM]);
      const float4 b = *reinterpret_cast<const float4*>(&tileB[kk][tx * TN]);
      const float av[TM] = {a.x, a.y, a.z, a.w}, bv[TN] = {b.x, b.y, b.z, b.w};
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();
  }

  for (int i = 0; i < TM; ++i) {
    float4* out = reinterpret_cast<float4*>(&C[(row0 + ty * TM + i) * N + col0 + tx * TN]);
    float4 c = *out;
    c.x = alpha * acc[i][0] + beta * c.x;
    c.y = alpha * acc[i][1] + beta * c.y;
    c.z = alpha * acc[i][2] + beta * c.z;
    c.w = alpha * acc[i][3] + beta * c.w;
    *out = c;
  }
}
