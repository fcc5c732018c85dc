// The emulator's TF32 mma (kernels/emu/warp_mma.h) against the GPU's
// mma.sync m16n8k8, bit for bit, on random fragments: rounded inputs of mixed
// magnitudes and signs, unrounded ones (the tensor core ignores their low 13
// bits), and cancelling sums. Needs an NVIDIA GPU of compute capability 8.0+.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "kernels/api/mma.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/cuda/warp_mma_probe.h"
#include "kernels/emu/warp_mma.h"

namespace ts {
namespace {

struct Fragments {
  std::uint32_t a[32][4], b[32][2];
  float c[32][4];
};

// kind 0: TF32-rounded values in [-1, 1]; 1: unrounded FP32 bits; 2: wide
// exponents (2^-20 .. 2^20); 3: B = the negated A row pattern, so sums cancel.
Fragments random_fragments(std::mt19937& rng, int kind) {
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-20, 20);
  const auto value = [&] {
    float v = unit(rng);
    if (kind == 2) v = std::ldexp(v, exponent(rng));
    const std::uint32_t bits = mma::float_bits(v);
    return kind == 1 ? bits : mma::to_tf32(bits);
  };
  Fragments f;
  for (auto& lane : f.a)
    for (auto& x : lane) x = value();
  for (auto& lane : f.b)
    for (auto& x : lane) x = value();
  for (auto& lane : f.c)
    for (auto& x : lane) x = kind == 2 ? std::ldexp(unit(rng), exponent(rng)) : unit(rng);
  if (kind == 3)  // b(k, n) = -a(n, k) for n < 8: row n of A times column n of B cancels to about -|a|^2
    for (int lane = 0; lane < 32; ++lane)
      for (int s = 0; s < 2; ++s) {
        const mma::Coord at = mma::b_coord(lane, s);  // (k, n)
        for (int l = 0; l < 32; ++l)
          for (int q = 0; q < 4; ++q)
            if (mma::a_coord(l, q).row == at.col && mma::a_coord(l, q).col == at.row) f.b[lane][s] = f.a[l][q] ^ 0x80000000u;
      }
  return f;
}

TEST(MmaGpu, EmulatorEqualsTensorCoresBitForBit) {
  const gpu::DeviceStatus status = gpu::probe();
  if (!status.available) GTEST_SKIP() << status.reason;
  if (status.compute_capability < 80) GTEST_SKIP() << "TF32 mma.sync needs compute capability 8.0";
  std::mt19937 rng(20261123);
  int differing = 0, compared = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int kind = trial % 4;
    Fragments f = random_fragments(rng, kind);
    float gpu_c[32][4], emu_c[32][4];
    std::memcpy(gpu_c, f.c, sizeof gpu_c);
    std::memcpy(emu_c, f.c, sizeof emu_c);
    gpu::warp_mma_tf32(f.a, f.b, gpu_c);
    emu::warp_mma_tf32(f.a, f.b, emu_c);
    for (int lane = 0; lane < 32; ++lane)
      for (int s = 0; s < 4; ++s, ++compared)
        if (mma::float_bits(gpu_c[lane][s]) != mma::float_bits(emu_c[lane][s]) && differing++ < 10)
          ADD_FAILURE() << "trial " << trial << " (inputs of kind " << kind << "), lane " << lane << ", c" << s
                        << ": GPU " << gpu_c[lane][s] << " (0x" << std::hex << mma::float_bits(gpu_c[lane][s])
                        << "), emulator " << emu_c[lane][s] << " (0x" << mma::float_bits(emu_c[lane][s]) << ")" << std::dec;
  }
  EXPECT_EQ(differing, 0) << "of " << compared << " results";
}

}  // namespace
}  // namespace ts
