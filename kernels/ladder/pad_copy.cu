// pad_copy.cu — the padded copies the ladder's kernels read where a matrix's
// rows are not on 16 bytes: each row of `src` into a row of ld floats (ld a
// multiple of 4, `dst` 16-byte aligned), the columns past the matrix zero.
// One launch for up to two matrices (tf32-wgmma-ws pads A and B at once).
// Each thread writes 4 columns of a row as one float4 and reads them as 4
// words from wherever the row starts; the blocks step down the rows.
// cudaMemcpy2DAsync, which tf32-wgmma-ws used until run 34, moved ~1.55 TB/s
// (bytes read and written) on an H200 at 30-170 MB; with this kernel
// 178x4173x4894 went from 57.5% to 90.7% of cuBLAS TF32 (docs/ladder-notes.md
// run 34).
#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "kernels/ladder/ladder_device.cuh"

namespace ts::ladder {
namespace {

struct PadJobs {
  PadJob job[2];
};

__global__ void pad_rows(const PadJobs jobs) {
  // Constant indices: a parameter indexed at run time is copied to local memory first.
  const PadJob j = blockIdx.z == 0 ? jobs.job[0] : jobs.job[1];
  const int c = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (c >= j.ld) return;
#pragma unroll 4  // four rows' loads in flight a thread
  for (int r = blockIdx.y; r < j.rows; r += gridDim.y) {
    const float* s = j.src + std::size_t(r) * j.cols + c;
    float4 v;  // a warp's four loads read the same 512 bytes: L1 serves the last three
    v.x = c < j.cols ? s[0] : 0.0f;
    v.y = c + 1 < j.cols ? s[1] : 0.0f;
    v.z = c + 2 < j.cols ? s[2] : 0.0f;
    v.w = c + 3 < j.cols ? s[3] : 0.0f;
    *reinterpret_cast<float4*>(j.dst + std::size_t(r) * j.ld + c) = v;
  }
}

}  // namespace

void pad_rows_async(const PadJob* jobs, int count, cudaStream_t stream) {
  if (count < 1 || count > 2) throw std::invalid_argument("pad_rows_async: one or two matrices");
  PadJobs all{};
  int width = 0, rows = 0;
  for (int i = 0; i < count; ++i) {
    const PadJob& j = jobs[i];
    if (j.ld % 4 != 0 || j.ld < j.cols || !aligned16(j.dst))
      throw std::invalid_argument("pad_rows_async: the copy's rows must be whole float4s, as wide as the matrix");
    all.job[i] = j;
    width = std::max(width, ceil_div(j.ld / 4, 256));
    rows = std::max(rows, j.rows);
  }
  if (width == 0 || rows == 0) return;
  // About a thousand blocks a matrix, each stepping down the rows by the
  // grid's height: a block a row (call 33: 73,692 blocks of one float4 a
  // thread for 176x1066x6141's two copies) spent its time starting blocks.
  const dim3 grid(width, std::min(rows, std::max(1, 1024 / width)), count);
  launch_checked(pad_rows, grid, 256, 0, stream, all);
}

}  // namespace ts::ladder
