// fp32_best.cu — `fp32-best`: the block tiles of fp32_any.cuh that ship, and
// the rule that picks a tile and a split of k for each shape. The rule and the
// figures behind it are in docs/ladder-notes.md ("Every shape").
#include <cstdint>

#include "kernels/ladder/fp32_any.cuh"
#include "kernels/ladder/fp32_best.h"
#include "kernels/ladder/ladder.h"

namespace ts::ladder {
namespace {

// 128 x 256 x 32, 8 warps of 64 x 64, 16 x 8 per thread, 3 stages, copies in
// runs of 6: the double-buffer rung's shipped configuration, one block per SM.
template <bool VEC>
using Tile128x256 = Fp32AnyConfig<128, 256, 32, 64, 64, 16, 8, 3, 8, 6, 1, VEC>;
// 128 x 128 x 32, 4 warps of 64 x 64: the same warp tile, two blocks per SM,
// twice as many blocks for the same shape.
template <bool VEC>
using Tile128x128 = Fp32AnyConfig<128, 128, 32, 64, 64, 16, 8, 3, 8, 6, 2, VEC>;

// 64 x 128 x 32, 4 warps of 32 x 64, 8 x 8 per thread: three blocks per SM.
template <bool VEC>
using Tile64x128 = Fp32AnyConfig<64, 128, 32, 32, 64, 8, 8, 3, 8, 6, 3, VEC>;

constexpr Fp32Tile kTiles[] = {
    {"128x256", 128, 256, 32, 1},
    {"128x128", 128, 128, 32, 2},
    {"64x128", 64, 128, 32, 3},
};

template <class Cfg>
void launch_tile(const float* a, const float* b, float* c, int m, int n, int k, int splits, cudaStream_t stream) {
  const int k_tiles = ceil_div(k, Cfg::BK);
  const int chunk = ceil_div(k_tiles, splits) * Cfg::BK;
  const int z = ceil_div(k, chunk);  // every split has at least one k
  if (z > 1) TS_CUDA_CHECK(cudaMemsetAsync(c, 0, std::size_t(m) * n * sizeof(float), stream));
  const dim3 grid(ceil_div(m, Cfg::BM) * ceil_div(n, Cfg::BN), 1, z);
  launch_checked(fp32_any<Cfg>, grid, Cfg::kThreads, Cfg::kSharedBytes, stream, a, b, c, m, n, k, chunk);
}

template <template <bool> class Tile>
void launch_either(bool vec, const float* a, const float* b, float* c, int m, int n, int k, int splits,
                   cudaStream_t stream) {
  if (vec) launch_tile<Tile<true>>(a, b, c, m, n, k, splits, stream);
  else launch_tile<Tile<false>>(a, b, c, m, n, k, splits, stream);
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

std::span<const Fp32Tile> fp32_tiles() { return kTiles; }

std::string fp32_plan_name(const Fp32Plan& plan) {
  std::string name(kTiles[plan.tile].name);
  if (plan.splits > 1) name += " split " + std::to_string(plan.splits);
  if (plan.words) name += " words";
  return name;
}

Fp32Plan fp32_best_plan(int m, int n, int k, int sm_count) {
  const int big_blocks = ceil_div(m, 128) * ceil_div(n, 256);
  if (big_blocks >= 2 * sm_count) return {0, 1};
  // Too few big tiles for two waves: half-width tiles, two per SM, and k split
  // until they fill the SMs, keeping at least 8 k-tiles per split.
  const int blocks = ceil_div(m, 128) * ceil_div(n, 128);
  const int slots = 2 * sm_count;
  int splits = 1;
  while (blocks * (splits + 1) <= slots && ceil_div(k, 32) / (splits + 1) >= 8) ++splits;
  return {1, splits};
}

void launch_fp32_plan(const Fp32Plan& plan, const float* a, const float* b, float* c, int m, int n, int k,
                      cudaStream_t stream) {
  const bool vec = !plan.words && n % 4 == 0 && aligned16(b) && aligned16(c);
  const int splits = plan.splits < 1 ? 1 : plan.splits;
  switch (plan.tile) {
    case 0: launch_either<Tile128x256>(vec, a, b, c, m, n, k, splits, stream); break;
    case 1: launch_either<Tile128x128>(vec, a, b, c, m, n, k, splits, stream); break;
    default: launch_either<Tile64x128>(vec, a, b, c, m, n, k, splits, stream); break;
  }
}

void launch_fp32_best(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  int device = 0, sms = 0;
  TS_CUDA_CHECK(cudaGetDevice(&device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  launch_fp32_plan(fp32_best_plan(m, n, k, sms), a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
