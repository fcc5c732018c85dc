// warp_mma_probe.h — one warp's TF32 mma.sync m16n8k8 on the GPU, on fragments
// given by the host, so that a test can hold the emulator's product
// (kernels/emu/warp_mma.h) to the tensor cores' bit for bit. CUDA builds only.
#pragma once

#include <cstdint>

namespace ts::gpu {

// c[lane] becomes A * B + C, computed by the plain build's mma_tf32
// (kernels/cuda/mode_plain.cuh) in one warp. Throws GpuError on a CUDA error.
void warp_mma_tf32(const std::uint32_t (&a)[32][4], const std::uint32_t (&b)[32][2], float (&c)[32][4]);

}  // namespace ts::gpu
