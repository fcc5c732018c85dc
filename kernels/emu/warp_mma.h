// warp_mma.h — the emulator's mma.sync.m16n8k8 TF32: one warp's product,
// computed from its 32 lanes' fragments with the layouts of kernels/api/mma.h.
//
// The tensor cores do not round like IEEE FP32 arithmetic, and NVIDIA does
// not document how they add. The model here is the one measured for these
// units in the literature (Fasi et al. 2021; Khattak and Mikaitis 2025): the
// inputs keep their top 19 bits (TF32), the products are exact, and the sum
// is taken 4 products at a time together with the running accumulator: the
// terms are aligned to the largest of them, cut (toward zero) 3 bits below
// FP32's last place, added exactly, and the sum is cut toward zero to FP32.
// mma_gpu_test compares it with the GPU bit for bit; the CPU tests hold it to
// a double-precision product of the rounded inputs.
#pragma once

#include <cstdint>

namespace ts::emu {

// One output element: c + sum over k < 8 of a[k] * b[k], a and b as TF32 bits.
float mma_dot_tf32(const std::uint32_t (&a)[8], const std::uint32_t (&b)[8], float c);

// The warp's instruction: every lane's c becomes A * B + C (lane-major fragments).
void warp_mma_tf32(const std::uint32_t (&a)[32][4], const std::uint32_t (&b)[32][2], float (&c)[32][4]);

}  // namespace ts::emu
