// timing_recorder.cu — record a full-size launch for its scheduling only:
// the plain kernel body, plus one %globaltimer read per warp at its start and
// at its end and the block's %smid. No per-access events, so N = 4096 runs at
// (nearly) the plain kernel's speed; the SM timeline is built from this.
// clang-format off
#include "kernels/cuda/mode_plain.cuh"
#include "kernels/all_kernels.h"
// clang-format on

#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/seeds.h"
#include "kernels/cuda/bench_timing.cuh"  // CudaEvent
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/device_clock.cuh"
#include "kernels/cuda/occupancy_runtime.cuh"
#include "kernels/dispatch.h"
#include "kernels/timing_request.h"

namespace ts::gpu {
namespace {

// A block's start is its first warp's first timer read, its end its last
// warp's last: one leader lane per warp does the atomics, so the kernel
// body's shared memory and barriers are untouched.
template <KernelKind KIND, int TILE>
__global__ void __launch_bounds__(max_block_threads(KIND)) timed_kernel(const float* a, const float* b, float* c, int m, int n, int k, BlockTiming* timing) {
  const unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned long long block = (std::uint64_t{blockIdx.z} * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const bool leader = thread % 32 == 0;
  if (leader) {
    atomicMin(reinterpret_cast<unsigned long long*>(&timing[block].start_ns), global_timer_ns());
    if (thread == 0) timing[block].sm = sm_id();
  }
  ts::plain::run_kernel<KIND, TILE>(a, b, c, m, n, k);
  if (leader) atomicMax(reinterpret_cast<unsigned long long*>(&timing[block].end_ns), global_timer_ns());
}

const void* timed_kernel_entry(KernelKind kind, int tile) {
  return dispatch(kind, tile, [&]<KernelKind K, int T>() { return reinterpret_cast<const void*>(&timed_kernel<K, T>); });
}

void fill_uniform(std::vector<float>& v, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (float& x : v) x = d(rng);
}

// C at sampled cells against a double-precision dot product. The bound is the
// classic one for a K-term fp32 dot product, K * 2^-24 * sum |a||b|, doubled
// for the fused multiply-adds' different rounding: a wrong kernel misses it
// by orders of magnitude, a right one stays well inside. A TF32 kernel's
// inputs are rounded to TF32 first, as its tensor cores take them: their
// products are exact, and only the sums round, within the same bound.
double worst_error_to_bound(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
                            int m, int n, int k, int cells, std::mt19937_64& rng, bool tf32) {
  const auto input = [tf32](float x) {
    if (!tf32) return double(x);
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits = ::ts::mma::to_tf32(bits);
    std::memcpy(&x, &bits, sizeof x);
    return double(x);
  };
  std::uniform_int_distribution<int> row(0, m - 1), col(0, n - 1);
  double worst = 0;
  for (int s = 0; s < cells; ++s) {
    const int r = s == 0 ? m - 1 : row(rng), q = s == 0 ? n - 1 : col(rng);  // the last cell always
    double ref = 0, mag = 0;
    for (int i = 0; i < k; ++i) {
      const double p = input(a[std::size_t(r) * k + i]) * input(b[std::size_t(i) * n + q]);
      ref += p;
      mag += std::fabs(p);
    }
    const double got = c[std::size_t(r) * n + q];
    if (!std::isfinite(got)) return std::numeric_limits<double>::infinity();
    const double bound = 2.0 * k * std::ldexp(1.0, -24) * mag + std::numeric_limits<float>::denorm_min();
    worst = std::max(worst, std::fabs(got - ref) / bound);
  }
  return worst;
}

}  // namespace

TimingRecording record_timing(KernelKind kind, int tile, int m, int n, int k, std::uint64_t seed) {
  if (std::string why = timing_request_error(kind, tile, m, n, k); !why.empty()) throw GpuError(why);
  const DeviceStatus st = probe();
  if (!st.available) throw GpuError(st.reason);
  if (st.compute_capability < min_compute_capability(kind))
    throw GpuError(std::string(kernel_info(kind).name) + " needs compute capability " +
                   std::to_string(min_compute_capability(kind) / 10) + ".0 or newer; " + st.name + " has " +
                   std::to_string(st.compute_capability / 10) + "." + std::to_string(st.compute_capability % 10));

  TimingRecording r;
  LaunchInfo& L = r.launch;
  const LaunchShape shape = launch_shape(kind, tile, m, n);
  L.kernel = std::string(kernel_info(kind).name);
  L.tile = tile;
  L.tiling = kernel_tiling(kind, tile);  // a rung's block, warp and thread tiles, as the recorders write them
  L.m = m;
  L.n = n;
  L.k = k;
  L.grid = shape.grid;
  L.block = shape.block;
  L.iteration_rule = iteration_rule(kind, tile, m, n, k);
  L.recorder = "gpu-timing";
  L.device_name = st.name;
  L.date = utc_now_iso8601();
  L.seed = seed ? seed : fresh_seed();

  const std::size_t mk = std::size_t(m) * k, kn = std::size_t(k) * n, mn = std::size_t(m) * n;
  const std::size_t blocks = shape.grid.count();
  const std::uint64_t device_bytes = (mk + kn + mn) * sizeof(float) + blocks * sizeof(BlockTiming);
  if (device_bytes > st.free_bytes)
    throw GpuError("the launch needs " + std::to_string(device_bytes >> 20) + " MiB of GPU memory; " +
                   std::to_string(st.free_bytes >> 20) + " MiB are free");
  std::vector<float> a(mk), b(kn), c(mn);
  std::mt19937_64 rng(L.seed);
  fill_uniform(a, rng);
  fill_uniform(b, rng);

  DeviceBuffer da, db, dc, dt;
  float* d_a = da.get<float>(mk);
  float* d_b = db.get<float>(kn);
  float* d_c = dc.get<float>(mn);
  auto* d_timing = dt.get<BlockTiming>(blocks);
  TS_CUDA_CHECK(cudaMemcpy(d_a, a.data(), mk * sizeof(float), cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(d_b, b.data(), kn * sizeof(float), cudaMemcpyHostToDevice));
  const std::vector<BlockTiming> unwritten(blocks, BlockTiming{0, 0, ~0ull, 0});

  const dim3 grid(shape.grid.x, shape.grid.y, shape.grid.z), block(shape.block.x, shape.block.y, shape.block.z);
  const CudaEvent start, stop;
  // Twice: the first launch warms the clocks and caches; the second is kept.
  for (int pass = 0; pass < 2; ++pass) {
    TS_CUDA_CHECK(cudaMemset(d_c, 0xFF, mn * sizeof(float)));  // poison: NaN until written
    TS_CUDA_CHECK(cudaMemcpy(d_timing, unwritten.data(), blocks * sizeof(BlockTiming), cudaMemcpyHostToDevice));
    TS_CUDA_CHECK(cudaEventRecord(start.get()));
    dispatch(kind, tile, [&]<KernelKind K, int T>() {
      timed_kernel<K, T><<<grid, block>>>(d_a, d_b, d_c, m, n, k, d_timing);
    });
    TS_CUDA_CHECK(cudaGetLastError());
    TS_CUDA_CHECK(cudaEventRecord(stop.get()));
    TS_CUDA_CHECK(cudaEventSynchronize(stop.get()));
  }
  float ms = 0;
  TS_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  r.elapsed_ms = ms;

  r.blocks.resize(blocks);
  TS_CUDA_CHECK(cudaMemcpy(r.blocks.data(), d_timing, blocks * sizeof(BlockTiming), cudaMemcpyDeviceToHost));
  TS_CUDA_CHECK(cudaMemcpy(c.data(), d_c, mn * sizeof(float), cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < blocks; ++i)
    if (r.blocks[i].start_ns == ~0ull || r.blocks[i].end_ns < r.blocks[i].start_ns)
      throw GpuError("block " + std::to_string(i) + " recorded no valid start/end time");
  r.checked_cells = 64;
  r.worst_error_to_bound = worst_error_to_bound(a, b, c, m, n, k, r.checked_cells, rng,
                                                is_rung(kind) && rung_config(kind).tf32);
  if (!(r.worst_error_to_bound <= 1.0))
    throw GpuError("the timed kernel computed a wrong C (error " + std::to_string(r.worst_error_to_bound) +
                   " times the fp32 bound at a sampled cell)");

  const SmLimits limits = live_sm_limits();
  r.sm_count = limits.sm_count;
  r.compute_capability = limits.compute_capability;
  r.max_warps_per_sm = limits.max_warps_per_sm();
  const LiveKernelOccupancy live = query_kernel(timed_kernel_entry(kind, tile), kind, tile);
  r.timed_kernel = live.resources;
  r.api_blocks_per_sm = live.api_blocks_per_sm;
  return r;
}

}  // namespace ts::gpu
