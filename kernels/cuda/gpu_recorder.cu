// gpu_recorder.cu — record a launch on the GPU with the instrumented kernels.
//
// Two launches, as in the emulator: the first counts each thread's events, a
// prefix sum gives every thread its slot, the second writes the events there
// (16 bytes each) together with each block's SM and start/end %globaltimer.
// A focused recording launches the whole grid too, but only the chosen blocks
// run the kernel (the others return at once) and only they have slots, so at
// N = 4096 it costs one block's events, not the launch's.
// clang-format off
#include "kernels/cuda/recorded_thread.cuh"
#include "kernels/all_kernels.h"
// clang-format on

#include <cuda_runtime.h>

#include <cstring>
#include <span>
#include <vector>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_record_passes.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/dispatch.h"
#include "kernels/undeclared_shared.h"

namespace ts::gpu {
namespace {

template <KernelKind KIND, int TILE>
__global__ void __launch_bounds__(max_block_threads(KIND)) recorded_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  using namespace ts::gpu_rec;
  if (!block_traced()) return;
  begin_recorded_thread();
  run_kernel<KIND, TILE>(InMatrix{a, ArrayId::A}, InMatrix{b, ArrayId::B}, OutMatrix{c, ArrayId::C}, m, n, k);
  end_recorded_thread();
}

// Device memory kept between recordings.
struct Session {
  DeviceBuffer a, b, c, state, counts, offsets, events, timing, shared_base, shared_shape, region_names, errors,
      block_slot;
};

Session& session() {
  static Session s;
  return s;
}

void check_errors(std::uint32_t* d_errors, const char* pass) {
  std::uint32_t errors = 0;
  TS_CUDA_CHECK(cudaMemcpy(&errors, d_errors, sizeof errors, cudaMemcpyDeviceToHost));
  if (errors == 0) return;
  std::string what;
  if (errors & gpu_rec::kErrOutOfBounds) what += " an access outside its arrays;";
  if (errors & gpu_rec::kErrOverflow) what += " more accesses than counted;";
  if (errors & gpu_rec::kErrUnderflow) what += " fewer accesses than counted;";
  if (errors & gpu_rec::kErrEpochs) what += " more barriers than a trace can hold;";
  if (errors & gpu_rec::kErrMisaligned) what += " a vector access at an unaligned index;";
  if (errors & gpu_rec::kErrRegions)
    what += " more than " + std::to_string(kMaxMemoryIds - gpu_rec::kFirstRegion) + " shared regions;";
  const std::string message = std::string("the instrumented kernel (") + pass + " pass) made" + what;
  if (errors == gpu_rec::kErrEpochs) throw GpuTooLarge(message);  // only too many barriers: too large, not wrong
  throw GpuError(message);
}

}  // namespace

void record_passes(Trace& trace, const InstrumentedKernel& kernel, std::span<const std::uint32_t> focus,
                   std::uint64_t event_limit) {
  LaunchInfo& L = trace.launch;
  Session& s = session();
  const std::uint64_t per_block = L.threads_per_block();
  const std::size_t blocks = focus.empty() ? L.grid.count() : focus.size();
  const std::uint64_t threads = blocks * per_block;  // the recorded threads
  const std::size_t mk = trace.a.size(), kn = trace.b.size(), mn = trace.c.size();

  float* d_a = s.a.get<float>(mk);
  float* d_b = s.b.get<float>(kn);
  float* d_c = s.c.get<float>(mn);
  auto* d_state = s.state.get<gpu_rec::ThreadState>(threads);
  auto* d_counts = s.counts.get<std::uint64_t>(threads);
  auto* d_offsets = s.offsets.get<std::uint64_t>(threads + 1);
  auto* d_timing = s.timing.get<BlockTiming>(blocks);
  auto* d_shared = s.shared_base.get<std::uint64_t>(kMaxMemoryIds);
  auto* d_shape = s.shared_shape.get<std::uint64_t>(kMaxMemoryIds);
  using Name = char[gpu_rec::kRegionNameBytes];
  auto* d_names = s.region_names.get<Name>(kMaxMemoryIds);
  auto* d_errors = s.errors.get<std::uint32_t>(1);
  TS_CUDA_CHECK(cudaMemcpy(d_a, trace.a.data(), mk * sizeof(float), cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(d_b, trace.b.data(), kn * sizeof(float), cudaMemcpyHostToDevice));
  // Poison, NaN until written; or zeros, for a kernel that reads C (beta C).
  const int c_start = kernel.c_starts_zero ? 0 : 0xFF;
  TS_CUDA_CHECK(cudaMemset(d_c, c_start, mn * sizeof(float)));
  TS_CUDA_CHECK(cudaMemset(d_errors, 0, sizeof(std::uint32_t)));
  TS_CUDA_CHECK(cudaMemset(d_shared, 0xFF, kMaxMemoryIds * sizeof(std::uint64_t)));
  TS_CUDA_CHECK(cudaMemset(d_shape, 0, kMaxMemoryIds * sizeof(std::uint64_t)));
  TS_CUDA_CHECK(cudaMemset(d_names, 0, kMaxMemoryIds * sizeof(Name)));

  gpu_rec::RecordLaunch rl{};
  rl.rule = L.iteration_rule;
  rl.elements[0] = mk;
  rl.elements[1] = kn;
  rl.elements[2] = mn;
  // A region the catalog describes has its layout; one only the kernel's
  // TS_SHARED describes is bounded by its declared shape (SharedArray2D).
  for (std::uint32_t id = gpu_rec::kFirstRegion; id < kMaxMemoryIds; ++id) {
    const std::size_t r = id - gpu_rec::kFirstRegion;
    rl.elements[id] = r < L.regions.size() && L.regions[r].cols != kUndeclaredShared ? L.regions[r].elements()
                                                                                        : kUndeclaredShared;
  }
  rl.region_names = d_names;
  rl.state = d_state;
  rl.errors = d_errors;
  if (!focus.empty()) {
    std::vector<std::uint32_t> slot(L.grid.count(), gpu_rec::kNotTraced);
    for (std::size_t i = 0; i < focus.size(); ++i) slot.at(focus[i]) = static_cast<std::uint32_t>(i);
    auto* d_slot = s.block_slot.get<std::uint32_t>(slot.size());
    TS_CUDA_CHECK(cudaMemcpy(d_slot, slot.data(), slot.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    rl.block_slot = d_slot;
  }

  auto launch = [&] { kernel.launch(d_a, d_b, d_c); };

  // Pass 1: count.
  rl.counts = d_counts;
  kernel.set_launch(&rl, sizeof rl);
  launch();
  check_errors(d_errors, "counting");
  trace.thread_offsets.assign(threads + 1, 0);
  TS_CUDA_CHECK(cudaMemcpy(trace.thread_offsets.data() + 1, d_counts, threads * sizeof(std::uint64_t),
                           cudaMemcpyDeviceToHost));
  for (std::uint64_t t = 0; t < threads; ++t) trace.thread_offsets[t + 1] += trace.thread_offsets[t];
  const std::uint64_t total = trace.thread_offsets.back();
  if (event_limit && total > event_limit)
    throw GpuTooLarge("the launch makes " + std::to_string(total) + " accesses, more than the recording limit of " +
                   std::to_string(event_limit) + " events: record a smaller size");

  // Pass 2: record.
  Event* d_events = s.events.get<Event>(total ? total : 1);
  TS_CUDA_CHECK(cudaMemcpy(d_offsets, trace.thread_offsets.data(), (threads + 1) * sizeof(std::uint64_t),
                           cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemset(d_c, c_start, mn * sizeof(float)));
  std::vector<BlockTiming> init(blocks, BlockTiming{0, 0, ~0ull, 0});
  TS_CUDA_CHECK(cudaMemcpy(d_timing, init.data(), blocks * sizeof(BlockTiming), cudaMemcpyHostToDevice));
  rl.counts = nullptr;
  rl.offsets = d_offsets;
  rl.events = d_events;
  rl.timing = d_timing;
  rl.shared_base = d_shared;
  rl.shared_shape = d_shape;
  kernel.set_launch(&rl, sizeof rl);
  launch();
  check_errors(d_errors, "recording");

  trace.events = EventBuffer(total);
  TS_CUDA_CHECK(cudaMemcpy(trace.events.data(), d_events, total * sizeof(Event), cudaMemcpyDeviceToHost));
  TS_CUDA_CHECK(cudaMemcpy(trace.c.data(), d_c, mn * sizeof(float), cudaMemcpyDeviceToHost));
  if (focus.empty()) {
    trace.block_timing.resize(blocks);
    TS_CUDA_CHECK(cudaMemcpy(trace.block_timing.data(), d_timing, blocks * sizeof(BlockTiming), cudaMemcpyDeviceToHost));
  } else {
    // The traced blocks' threads take their places in the launch; the others have no events.
    std::vector<std::uint64_t> compact = std::move(trace.thread_offsets);
    trace.thread_offsets.assign(L.thread_count() + 1, 0);
    for (std::size_t i = 0; i < focus.size(); ++i)
      for (std::uint64_t th = 0; th < per_block; ++th)
        trace.thread_offsets[focus[i] * per_block + th + 1] = compact[i * per_block + th + 1] - compact[i * per_block + th];
    for (std::uint64_t th = 0; th < L.thread_count(); ++th) trace.thread_offsets[th + 1] += trace.thread_offsets[th];
    L.traced_blocks.assign(focus.begin(), focus.end());
  }
  // The regions as the kernel declared them: region n is the n-th TS_SHARED,
  // by its name, at its place in the shared window; one the catalog describes
  // (tilescope's own As and Bs) keeps the catalog's layout.
  std::vector<std::uint64_t> shared(kMaxMemoryIds), shape(kMaxMemoryIds);
  std::vector<Name> names(kMaxMemoryIds);
  TS_CUDA_CHECK(cudaMemcpy(shared.data(), d_shared, kMaxMemoryIds * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
  TS_CUDA_CHECK(cudaMemcpy(shape.data(), d_shape, kMaxMemoryIds * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
  TS_CUDA_CHECK(cudaMemcpy(names.data(), d_names, kMaxMemoryIds * sizeof(Name), cudaMemcpyDeviceToHost));
  std::vector<Region> regions;
  for (std::uint32_t id = gpu_rec::kFirstRegion; id < kMaxMemoryIds && shape[id] != 0; ++id) {
    const std::size_t r = id - gpu_rec::kFirstRegion;
    Region g = r < L.regions.size() ? L.regions[r] : Region{};
    names[id][gpu_rec::kRegionNameBytes - 1] = '\0';
    g.name = names[id];
    g.offset = static_cast<std::uint32_t>(shared[id]);  // the real shared-window address
    g.raw = false;
    if (r >= L.regions.size() || g.cols == kUndeclaredShared) {
      g.type = ElementType::F32;
      g.rows = static_cast<std::uint32_t>(shape[id] >> 32);  // as the kernel declared it
      g.cols = g.ld = static_cast<std::uint32_t>(shape[id]);
    }
    g.bytes = static_cast<std::uint32_t>(g.elements() * element_bytes(g.type));
    regions.push_back(std::move(g));
  }
  if (!regions.empty() || L.buffers.size() == gpu_rec::kFirstRegion) L.regions = std::move(regions);
  L.buffers[0].base = reinterpret_cast<std::uint64_t>(d_a);
  L.buffers[1].base = reinterpret_cast<std::uint64_t>(d_b);
  L.buffers[2].base = reinterpret_cast<std::uint64_t>(d_c);
}

void record_launch(KernelKind kind, Trace& trace, std::span<const std::uint32_t> focus) {
  const LaunchInfo& L = trace.launch;
  const dim3 grid(L.grid.x, L.grid.y, L.grid.z), block(L.block.x, L.block.y, L.block.z);
  InstrumentedKernel kernel;
  kernel.set_launch = [](const void* rl, std::size_t bytes) {
    TS_CUDA_CHECK(cudaMemcpyToSymbol(gpu_rec::c_launch, rl, bytes));
  };
  kernel.launch = [&](const float* a, const float* b, float* c) {
    dispatch(kind, L.tile, [&]<KernelKind K, int T>() { recorded_kernel<K, T><<<grid, block>>>(a, b, c, L.m, L.n, L.k); });
    TS_CUDA_CHECK_LAUNCH();
  };
  record_passes(trace, kernel, focus);
}

}  // namespace ts::gpu
