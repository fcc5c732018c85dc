// warp_mma_probe.cu — one warp's mma.sync on host-given fragments (warp_mma_probe.h).
#include "kernels/cuda/mode_plain.cuh"
#include "kernels/cuda/warp_mma_probe.h"

#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_runtime.h"

namespace ts::gpu {
namespace {

__global__ void one_warp_mma(const std::uint32_t* a, const std::uint32_t* b, float* c) {
  const int lane = threadIdx.x;
  plain::FragA fa;
  plain::FragB fb;
  plain::FragC fc;
  for (int s = 0; s < 4; ++s) fa[s] = a[lane * 4 + s], fc[s] = c[lane * 4 + s];
  for (int s = 0; s < 2; ++s) fb[s] = b[lane * 2 + s];
  plain::mma_tf32(fc, fa, fb);
  for (int s = 0; s < 4; ++s) c[lane * 4 + s] = fc[s];
}

}  // namespace

void warp_mma_tf32(const std::uint32_t (&a)[32][4], const std::uint32_t (&b)[32][2], float (&c)[32][4]) {
  DeviceBuffer da, db, dc;
  auto* pa = da.get<std::uint32_t>(32 * 4);
  auto* pb = db.get<std::uint32_t>(32 * 2);
  auto* pc = dc.get<float>(32 * 4);
  TS_CUDA_CHECK(cudaMemcpy(pa, a, sizeof a, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(pb, b, sizeof b, cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(pc, c, sizeof c, cudaMemcpyHostToDevice));
  one_warp_mma<<<1, 32>>>(pa, pb, pc);
  TS_CUDA_CHECK_LAUNCH();
  TS_CUDA_CHECK(cudaMemcpy(c, pc, sizeof c, cudaMemcpyDeviceToHost));
}

}  // namespace ts::gpu
