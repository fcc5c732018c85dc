// warp_mma.h — the emulator's mma.sync.m16n8k8 TF32: one warp's product,
// computed from its 32 lanes' fragments with the layouts of kernels/api/mma.h.
//
// The tensor cores do not round like IEEE FP32 arithmetic, and NVIDIA does
// not document how they add. The model here follows the literature (Fasi et
// al. 2021; Khattak and Mikaitis 2025) in its form: the inputs keep their top
// 19 bits (TF32), the products are exact, and the adder aligns the
// accumulator and all 8 products of the instruction to the largest exponent
// among them, cuts the terms (toward zero) 2 bits below FP32's last place at
// that exponent, adds them exactly and cuts the sum toward zero to FP32. A
// product is aligned by the sum of its factors' exponents, before it is
// normalized. These parameters were found on an H200 (2026-11-23) by
// mma_gpu_test, which searches the candidates below whenever the emulator and
// the GPU disagree: this one gave all 51,200 results bit for bit, the 4-product
// step with 3 extra bits of the first version 78%. The CPU tests hold it to a
// double-precision product of the rounded inputs.
#pragma once

#include <cstdint>

namespace ts::emu {

// How the adder sums, as a model's parameters (the default: the model above).
struct AdderModel {
  int products_per_step = 8;      // products aligned and added at once (1, 2, 4 or 8)
  int extra_bits = 2;             // bits kept below FP32's last place while aligning
  bool nearest = false;           // each step's sum rounded to nearest even (else cut toward zero)
  bool accumulator_last = false;  // c joins after the products (a step of its own), not with the first
  // A product aligned by the sum of its factors' exponents (before it is
  // normalized: one less than its own when the significands' product is >= 2).
  bool align_by_factor_exponents = true;
};
inline constexpr AdderModel kTensorCoreAdder{};

// One output element: c + sum over k < 8 of a[k] * b[k], a and b as TF32 bits.
float mma_dot_tf32(const std::uint32_t (&a)[8], const std::uint32_t (&b)[8], float c,
                   const AdderModel& model = kTensorCoreAdder);

// The warp's instruction: every lane's c becomes A * B + C (lane-major fragments).
void warp_mma_tf32(const std::uint32_t (&a)[32][4], const std::uint32_t (&b)[32][2], float (&c)[32][4],
                   const AdderModel& model = kTensorCoreAdder);

}  // namespace ts::emu
