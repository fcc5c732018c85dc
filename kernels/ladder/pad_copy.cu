// pad_copy.cu — the padded copies the ladder's kernels read where a matrix's
// rows are not on 16 bytes: each row of `src` into a row of ld floats (ld a
// multiple of 4, `dst` 16-byte aligned), the columns past the matrix zero.
// One launch for up to two matrices (tf32-wgmma-ws pads A and B at once).
// cudaMemcpy2DAsync, which tf32-wgmma-ws used until run 34, moved ~1.55 TB/s
// (bytes read and written) on an H200 at 30-170 MB; run 34's kernel took
// 178x4173x4894 from 57.5% to 90.7% of cuBLAS TF32 (docs/ladder-notes.md).
//
// Each matrix's padded copy is walked as one run of float4s, row after row:
// a thread writes one float4 and reads its 4 words from wherever the row
// starts (a warp's four loads read the same 512 bytes: L1 serves the last
// three), with kInFlight of them in flight, striding by its matrix's share
// of the grid. Run 34's kernel gave each row's float4s to the threads of one
// block and the two matrices one grid: a matrix of narrow rows (B of n = 157
// beside A of k = 5,257) then left 216 of each block's 256 threads idle, and
// took the narrow one's height from the wide one's width (170 blocks for
// B's 5,257 rows). Here every thread has work and each matrix its own blocks.
// Call 112 (H200, Nsight Compute): A and B of 362x511x6359 in 13.4 us against
// 29.0, of 2969x157x5257 in 34.2 against 46.8; B alone of 4100x1001x3000 8.8
// against 8.5. tf32-wgmma-ws at 57 shapes with a padded operand: +5.4 points
// of cuBLAS TF32 at the mean, none under 90% against 8 (run 45).
#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "kernels/ladder/ladder_device.cuh"

namespace ts::ladder {
namespace {

constexpr int kPadThreads = 256;
constexpr int kInFlight = 4;  // float4s a thread loads before it stores them
// About two waves of blocks on an H100 or H200 (132 SMs x 8 blocks of 256),
// shared between the matrices by their sizes.
constexpr long long kPadBlocks = 2048;

struct PadJobs {
  PadJob job[2];
  int first_blocks;  // blocks [0, first_blocks) copy job[0], the rest job[1]
};

__global__ void __launch_bounds__(kPadThreads) pad_rows(const PadJobs jobs) {
  // Constant indices: a parameter indexed at run time is copied to local memory first.
  const bool second = int(blockIdx.x) >= jobs.first_blocks;
  const PadJob j = second ? jobs.job[1] : jobs.job[0];
  const long long block = second ? blockIdx.x - jobs.first_blocks : blockIdx.x;
  const long long blocks = second ? gridDim.x - jobs.first_blocks : jobs.first_blocks;
  const int ld4 = j.ld / 4;  // float4s a padded row
  const long long total = (long long)j.rows * ld4, stride = blocks * kPadThreads;
  if (total == 0) return;  // an empty matrix beside a full one
  // The float4s this thread copies: i, i + stride, ...; each at row r, float4
  // c4 of it, stepped without a division: stride is dr rows and dc float4s.
  long long i = block * kPadThreads + threadIdx.x;
  long long r = i / ld4;
  int c4 = int(i - r * ld4);
  const long long dr = stride / ld4;
  const int dc = int(stride - dr * ld4);
  for (; i < total; i += kInFlight * stride) {
    float4 v[kInFlight];
    float* dst[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) {
      dst[u] = nullptr;
      if (i + u * stride < total) {
        const int c = c4 * 4;
        const float* s = j.src + r * j.cols + c;
        v[u].x = c < j.cols ? s[0] : 0.0f;
        v[u].y = c + 1 < j.cols ? s[1] : 0.0f;
        v[u].z = c + 2 < j.cols ? s[2] : 0.0f;
        v[u].w = c + 3 < j.cols ? s[3] : 0.0f;
        dst[u] = j.dst + r * j.ld + c;
      }
      r += dr;
      c4 += dc;
      if (c4 >= ld4) c4 -= ld4, ++r;
    }
#pragma unroll
    for (int u = 0; u < kInFlight; ++u)
      if (dst[u] != nullptr) *reinterpret_cast<float4*>(dst[u]) = v[u];
  }
}

}  // namespace

void pad_rows_async(const PadJob* jobs, int count, cudaStream_t stream) {
  if (count < 1 || count > 2) throw std::invalid_argument("pad_rows_async: one or two matrices");
  PadJobs all{};
  long long float4s[2] = {0, 0};
  for (int i = 0; i < count; ++i) {
    const PadJob& j = jobs[i];
    if (j.ld % 4 != 0 || j.ld < j.cols || j.rows < 0 || j.cols < 0 || !aligned16(j.dst))
      throw std::invalid_argument("pad_rows_async: the copy's rows must be whole float4s, as wide as the matrix");
    all.job[i] = j;
    float4s[i] = (long long)j.rows * (j.ld / 4);
  }
  const long long sum = float4s[0] + float4s[1];
  if (sum == 0) return;
  // Each matrix its share of kPadBlocks by its float4s, at least one block
  // (an empty matrix's returns at once) and no more than give each thread
  // kInFlight float4s.
  const auto blocks_for = [&](long long n) {
    const long long most = (n + kPadThreads * kInFlight - 1) / (kPadThreads * kInFlight);
    return int(std::max(1LL, std::min(most, (kPadBlocks * n + sum - 1) / sum)));
  };
  all.first_blocks = blocks_for(float4s[0]);
  const int grid = all.first_blocks + (count == 2 ? blocks_for(float4s[1]) : 0);
  launch_checked(pad_rows, dim3(unsigned(grid)), kPadThreads, 0, stream, all);
}

}  // namespace ts::ladder
