// The emulator's TF32 mma (kernels/emu/warp_mma.h) against the GPU's
// mma.sync m16n8k8, bit for bit, on random fragments (and, when they
// disagree, how far apart, and which adder model would fit): rounded inputs of mixed
// magnitudes and signs, unrounded ones (the tensor core ignores their low 13
// bits), and cancelling sums. Needs an NVIDIA GPU of compute capability 8.0+.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

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

struct Trial {
  Fragments f;
  float gpu_c[32][4];
};

// Calls differ(trial, lane, slot, emulator's result) for each result of
// `trials` that the emulator, with this adder model, gets other than the GPU.
template <class Differ>
void for_each_difference(const std::vector<Trial>& trials, const emu::AdderModel& model, Differ&& differ) {
  for (int trial = 0; trial < static_cast<int>(trials.size()); ++trial) {
    const Trial& t = trials[trial];
    float emu_c[32][4];
    std::memcpy(emu_c, t.f.c, sizeof emu_c);
    emu::warp_mma_tf32(t.f.a, t.f.b, emu_c, model);
    for (int lane = 0; lane < 32; ++lane)
      for (int s = 0; s < 4; ++s)
        if (mma::float_bits(t.gpu_c[lane][s]) != mma::float_bits(emu_c[lane][s])) differ(trial, lane, s, emu_c[lane][s]);
  }
}

int differing_results(const std::vector<Trial>& trials, const emu::AdderModel& model) {
  int differing = 0;
  for_each_difference(trials, model, [&](int, int, int, float) { ++differing; });
  return differing;
}

TEST(MmaGpu, EmulatorEqualsTensorCoresBitForBit) {
  const gpu::DeviceStatus status = gpu::probe();
  if (!status.available) GTEST_SKIP() << status.reason;
  if (status.compute_capability < 80) GTEST_SKIP() << "TF32 mma.sync needs compute capability 8.0";
  std::mt19937 rng(20261123);
  std::vector<Trial> trials(400);
  for (int trial = 0; trial < static_cast<int>(trials.size()); ++trial) {
    Trial& t = trials[trial];
    t.f = random_fragments(rng, trial % 4);
    std::memcpy(t.gpu_c, t.f.c, sizeof t.gpu_c);
    gpu::warp_mma_tf32(t.f.a, t.f.b, t.gpu_c);
  }
  const int compared = static_cast<int>(trials.size()) * 32 * 4;
  int differing = 0;
  std::int64_t max_ulps = 0;
  for_each_difference(trials, emu::kTensorCoreAdder, [&](int trial, int lane, int s, float emulated) {
    const float on_gpu = trials[trial].gpu_c[lane][s];
    const std::uint32_t g = mma::float_bits(on_gpu), e = mma::float_bits(emulated);
    ++differing;
    // Distance in units in the last place, for results of one sign (else: far).
    const std::int64_t ulps = (g >> 31) == (e >> 31) ? std::llabs(std::int64_t{g & 0x7FFFFFFFu} - std::int64_t{e & 0x7FFFFFFFu})
                                                      : std::int64_t{1} << 32;
    max_ulps = std::max(max_ulps, ulps);
    if (differing < 10)
      ADD_FAILURE() << "trial " << trial << " (inputs of kind " << trial % 4 << "), lane " << lane << ", c" << s
                    << ": GPU " << on_gpu << " (0x" << std::hex << g << "), emulator " << emulated << " (0x" << e << ")"
                    << std::dec << ", " << ulps << " units in the last place apart";
  });
  ::testing::Test::RecordProperty("differing_results", differing);
  ::testing::Test::RecordProperty("compared_results", compared);
  ::testing::Test::RecordProperty("max_ulps", std::to_string(max_ulps));
  std::printf("emulator against %s: %d of %d results differ, at most %lld units in the last place\n",
              status.name.c_str(), differing, compared, static_cast<long long>(max_ulps));
  EXPECT_EQ(differing, 0) << "of " << compared << " results";
  if (differing == 0) return;
  // Which adder model fits this GPU: every candidate's count of differing results.
  std::printf("adder models against %s (%d results): step, extra bits, rounding, accumulator, alignment -> differing\n",
              status.name.c_str(), compared);
  for (const bool by_factors : {false, true})
    for (const bool accumulator_last : {false, true})
      for (const int step : {4, 8})
        for (const int extra : {0, 1, 2, 3, 4, 5, 24})
          for (const bool nearest : {false, true}) {
            const emu::AdderModel model{step, extra, nearest, accumulator_last, by_factors};
            std::printf("model %d %2d %-7s %-5s %-8s -> %d\n", step, extra, nearest ? "nearest" : "cut",
                        accumulator_last ? "last" : "first", by_factors ? "factors" : "product",
                        differing_results(trials, model));
          }
}

}  // namespace
}  // namespace ts
