// counted_kernels.cu — whole-launch counters on the GPU with the counting build
// of the kernels (mode_counted.cuh): one launch, no event buffer. Each block
// zeroes its counters in shared memory, runs the kernel, and adds its counters
// to the launch's totals.
// clang-format off
#include "kernels/cuda/mode_counted.cuh"
#include "kernels/all_kernels.h"
// clang-format on

#include <cuda_runtime.h>

#include <algorithm>

#include <vector>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/dispatch.h"
#include "trace/model/memory_counts.h"

namespace ts::gpu {
namespace {

using gpu_count::kCombos;
using gpu_count::kFields;
static_assert(gpu_count::kFamilyLoads == kFamilyLoads && gpu_count::kFamilyReach == kFamilyReach,
              "the GPU merges shared loads as the analysis does");

template <KernelKind KIND, int TILE>
__global__ void __launch_bounds__(1024) counted_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  using namespace ts::gpu_count;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned me = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  for (unsigned i = me; i < kCombos * kFields; i += threads) (&s_counts[0][0])[i] = 0;
  auto* rows = reinterpret_cast<std::uint32_t*>(s_warp_rows);  // the warps' headers; a row is set up when opened
  const unsigned row_words = (threads + 31) / 32 * sizeof(WarpRows) / sizeof(std::uint32_t);
  for (unsigned i = me; i < row_words; i += threads) rows[i] = 0;
  ::__syncthreads();
  run_kernel<KIND, TILE>(InMatrix{a, ArrayId::A}, InMatrix{b, ArrayId::B}, OutMatrix{c, ArrayId::C}, m, n, k);
  Sink::finish();
  ::__syncthreads();
  for (unsigned i = me; i < kCombos * kFields; i += threads)
    if (const std::uint32_t v = (&s_counts[0][0])[i]; v != 0) atomicAdd(&c_count.totals[i], static_cast<unsigned long long>(v));
}

struct Session {
  DeviceBuffer a, b, c, totals, split, a_loads, b_loads, errors;
};

Session& session() {
  static Session s;
  return s;
}

}  // namespace

void count_launch(KernelKind kind, Trace& trace, DeviceCounts& out) {
  LaunchInfo& L = trace.launch;
  Session& s = session();
  const std::size_t mk = trace.a.size(), kn = trace.b.size(), mn = trace.c.size();
  float* d_a = s.a.get<float>(mk);
  float* d_b = s.b.get<float>(kn);
  float* d_c = s.c.get<float>(mn);
  auto* d_totals = s.totals.get<unsigned long long>(kCombos * kFields);
  auto* d_a_loads = s.a_loads.get<std::uint32_t>(mk);
  auto* d_b_loads = s.b_loads.get<std::uint32_t>(kn);
  auto* d_split = s.split.get<unsigned long long>(1);
  auto* d_errors = s.errors.get<std::uint32_t>(1);
  TS_CUDA_CHECK(cudaMemcpy(d_a, trace.a.data(), mk * sizeof(float), cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(d_b, trace.b.data(), kn * sizeof(float), cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemset(d_c, 0xFF, mn * sizeof(float)));  // poison: NaN until written
  TS_CUDA_CHECK(cudaMemset(d_totals, 0, kCombos * kFields * sizeof(unsigned long long)));
  TS_CUDA_CHECK(cudaMemset(d_a_loads, 0, mk * sizeof(std::uint32_t)));
  TS_CUDA_CHECK(cudaMemset(d_b_loads, 0, kn * sizeof(std::uint32_t)));
  TS_CUDA_CHECK(cudaMemset(d_errors, 0, sizeof(std::uint32_t)));
  TS_CUDA_CHECK(cudaMemset(d_split, 0, sizeof(unsigned long long)));

  gpu_count::CountLaunch cl{};
  for (int arr = 0; arr < kArrayCount; ++arr) cl.elements[arr] = L.array(ArrayId(arr)).present ? L.array(ArrayId(arr)).elements() : 0;
  cl.base_word[0] = static_cast<std::uint32_t>(reinterpret_cast<std::uint64_t>(d_a) / 4);
  cl.base_word[1] = static_cast<std::uint32_t>(reinterpret_cast<std::uint64_t>(d_b) / 4);
  cl.base_word[2] = static_cast<std::uint32_t>(reinterpret_cast<std::uint64_t>(d_c) / 4);
  cl.totals = d_totals;
  cl.split_requests = d_split;
  cl.a_loads = d_a_loads;
  cl.b_loads = d_b_loads;
  cl.errors = d_errors;
  const dim3 grid(L.grid.x, L.grid.y, L.grid.z), block(L.block.x, L.block.y, L.block.z);
  // Each warp's open requests (mode_counted.cuh) in dynamic shared memory: as
  // many rows as the block's shared memory leaves room for, up to kMaxOpenRows.
  const std::size_t warps = (std::size_t{L.block.x} * L.block.y * L.block.z + 31) / 32;
  int device = 0, optin = 0;
  TS_CUDA_CHECK(cudaGetDevice(&device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  dispatch(kind, L.tile, [&]<KernelKind K, int T>() {
    cudaFuncAttributes fa{};
    TS_CUDA_CHECK(cudaFuncGetAttributes(&fa, counted_kernel<K, T>));
    const std::size_t headers = warps * sizeof(gpu_count::WarpRows), row = warps * sizeof(gpu_count::OpenRow);
    const std::size_t room = static_cast<std::size_t>(optin) > fa.sharedSizeBytes + headers
                                 ? static_cast<std::size_t>(optin) - fa.sharedSizeBytes - headers
                                 : 0;
    cl.open_rows = static_cast<std::uint32_t>(std::min<std::size_t>(room / row, gpu_count::kMaxOpenRows));
    if (cl.open_rows == 0) throw GpuError("no shared memory left for the counting kernel's open requests");
    const std::size_t rows_bytes = headers + cl.open_rows * row;
    TS_CUDA_CHECK(cudaMemcpyToSymbol(gpu_count::c_count, &cl, sizeof cl));
    TS_CUDA_CHECK(cudaFuncSetAttribute(counted_kernel<K, T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(rows_bytes)));
    counted_kernel<K, T><<<grid, block, rows_bytes>>>(d_a, d_b, d_c, L.m, L.n, L.k);
  });
  TS_CUDA_CHECK_LAUNCH();
  std::uint32_t errors = 0;
  TS_CUDA_CHECK(cudaMemcpy(&errors, d_errors, sizeof errors, cudaMemcpyDeviceToHost));
  if (errors & gpu_count::kErrOutOfBounds) throw GpuError("the counting kernel made an access outside its arrays");
  if (errors & gpu_count::kErrMisaligned)
    throw GpuError("the counting kernel made a vector access not aligned to its width");
  if (errors & gpu_count::kErrDivergentBarrier)
    throw GpuError("the counting kernel reached a barrier that some threads of a warp never reached");
  unsigned long long split = 0;
  TS_CUDA_CHECK(cudaMemcpy(&split, d_split, sizeof split, cudaMemcpyDeviceToHost));

  std::vector<unsigned long long> totals(kCombos * kFields);
  TS_CUDA_CHECK(cudaMemcpy(totals.data(), d_totals, totals.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  out = DeviceCounts{};
  out.split_requests = split;
  for (int combo = 0; combo < kCombos; ++combo) {
    const unsigned long long* f = totals.data() + combo * kFields;
    const auto array = static_cast<ArrayId>(combo / 2);
    AccessTotals& t = out.memory.of(combo / 2, space_of(array))[combo % 2];
    t.requests = f[gpu_count::kRequests];
    t.accesses = f[gpu_count::kAccesses];
    if (space_of(static_cast<ArrayId>(combo / 2)) == Space::Global) {
      t.sectors = f[gpu_count::kSectors];
      t.lines = f[gpu_count::kLines];
      t.ideal_sectors = f[gpu_count::kIdeal];
    } else {
      t.wavefronts = f[gpu_count::kSectors];
      t.bank_conflicts = f[gpu_count::kLines];
      t.broadcast_lanes = f[gpu_count::kIdeal];
      AccessTotals& compiled = out.memory.compiled_of(combo / 2);
      if (combo % 2 == static_cast<int>(Op::Load)) {
        compiled.requests = f[gpu_count::kCompiledRequests];
        compiled.wavefronts = f[gpu_count::kCompiledWavefronts];
        compiled.bank_conflicts = f[gpu_count::kCompiledConflicts];
      }
    }
    for (int bin = 0; bin < gpu_count::kBins; ++bin) t.histogram[bin] = f[gpu_count::kHistogram + bin];
    out.padding_stores += f[gpu_count::kPadding];
    out.events[combo / 2][combo % 2] = f[gpu_count::kEvents];
  }
  out.a_loads.resize(mk);
  out.b_loads.resize(kn);
  TS_CUDA_CHECK(cudaMemcpy(out.a_loads.data(), d_a_loads, mk * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  TS_CUDA_CHECK(cudaMemcpy(out.b_loads.data(), d_b_loads, kn * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  TS_CUDA_CHECK(cudaMemcpy(trace.c.data(), d_c, mn * sizeof(float), cudaMemcpyDeviceToHost));
  out.device_bytes = (mk + kn + mn) * sizeof(float) + (mk + kn) * sizeof(std::uint32_t) +
                     kCombos * kFields * sizeof(unsigned long long);
  L.buffers[0].base = reinterpret_cast<std::uint64_t>(d_a);
  L.buffers[1].base = reinterpret_cast<std::uint64_t>(d_b);
  L.buffers[2].base = reinterpret_cast<std::uint64_t>(d_c);
}

}  // namespace ts::gpu
