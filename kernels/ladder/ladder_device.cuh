// ladder_device.cuh — the few PTX instructions the upper rungs of the ladder
// need (asynchronous copies, ldmatrix, TF32 mma.sync), wrapped so the kernels
// read as C++. Ampere and newer (sm_80+); the ladder is not built for older GPUs.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "kernels/api/mma.h"
#include "kernels/cuda/cuda_check.cuh"

namespace ts::ladder {

__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Throws GpuRefusal where the current GPU does not give a block shared_bytes
// of dynamic shared memory (99 KB on sm_86, sm_89 and sm_120, 163 KB on sm_80,
// 227 KB on sm_90).
inline void require_shared_per_block(int shared_bytes) {
  int device = 0, allowed = 0;
  TS_CUDA_CHECK(cudaGetDevice(&device));
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&allowed, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (shared_bytes > allowed)
    throw gpu::GpuRefusal("needs " + std::to_string(shared_bytes) + " bytes of shared memory a block (" +
                          std::to_string((shared_bytes + 1023) / 1024) + " KB); this GPU allows " +
                          std::to_string(allowed) + " (" + std::to_string(allowed / 1024) + " KB)");
}

// Lets `kernel` have shared_bytes of dynamic shared memory a block: raises
// its limit where that passes the default 48 KB (a GpuRefusal where the GPU
// has less).
inline void allow_shared_bytes(const void* kernel, int shared_bytes) {
  if (shared_bytes <= 48 * 1024) return;
  require_shared_per_block(shared_bytes);
  TS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
}

// How many clusters of cluster_size CTAs of `kernel` (threads each, with
// shared_bytes of dynamic shared memory) the current GPU holds at once: the
// size of a persistent grid, whose pieces may wait for each other. Lets the
// kernel have shared_bytes first (allow_shared_bytes); cached per kernel and
// device.
inline int resident_clusters(const void* kernel, int threads, int shared_bytes, int cluster_size = 1) {
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, int> cache;  // (kernel, device) -> clusters
  int device = 0;
  TS_CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(kernel, device);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  allow_shared_bytes(kernel, shared_bytes);
  int clusters = 0;
  if (cluster_size == 1) {
    int per_sm = 0, sms = 0;
    TS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
    TS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    clusters = per_sm * sms;
  } else {
    // Not every GPC holds an even number of free SMs: ask, rather than assume sms / 2.
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(cluster_size);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = shared_bytes;
    cudaLaunchAttribute attr[1] = {};
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster_size;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    TS_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  }
  if (clusters < 1) throw gpu::GpuError("a persistent grid: no CTA of this configuration fits on an SM");
  cache[key] = clusters;
  return clusters;
}

// Every rung launches the same way: its grid and block, dynamic shared memory
// (the per-block limit raised first where it passes the default 48 KB; a
// GpuRefusal where the GPU has less), and the launch error checked; it does
// not synchronize.
template <class Kernel, class... Args>
void launch_checked(Kernel kernel, dim3 grid, int threads, int shared_bytes, cudaStream_t stream, Args... args) {
  allow_shared_bytes(reinterpret_cast<const void*>(kernel), shared_bytes);
  kernel<<<grid, threads, shared_bytes, stream>>>(args...);
  TS_CUDA_CHECK(cudaGetLastError());
}

// Device memory for a kernel's padded copies of its inputs, kept for the next
// call (timed runs reuse it) and grown when a larger shape asks; a rung keeps
// one in its file.
class Workspace {
 public:
  float* get(std::size_t floats) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (floats > floats_) {
      if (data_) TS_CUDA_CHECK(cudaFree(data_));
      data_ = nullptr;
      floats_ = 0;
      TS_CUDA_CHECK(cudaMalloc(&data_, floats * sizeof(float)));
      floats_ = floats;
    }
    return static_cast<float*>(data_);
  }

 private:
  std::mutex mutex_;
  void* data_ = nullptr;
  std::size_t floats_ = 0;
};

// A flag per piece of work for the persistent kernels' stream-k: grow-only,
// zeroed when made, kept for the next launch; each launch gets a new epoch,
// so flags raised by an earlier launch never count (two launches that
// overlap on different streams must not share one).
class EpochFlags {
 public:
  struct Use {
    unsigned* flags;
    unsigned epoch;
  };
  Use get(int count, cudaStream_t stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (count > count_) {
      if (data_) TS_CUDA_CHECK(cudaFree(data_));
      data_ = nullptr;
      count_ = 0;
      TS_CUDA_CHECK(cudaMalloc(&data_, std::size_t(count) * sizeof(unsigned)));
      TS_CUDA_CHECK(cudaMemsetAsync(data_, 0, std::size_t(count) * sizeof(unsigned), stream));
      count_ = count;
    }
    if (++epoch_ == 0) ++epoch_;  // 0 is a flag never raised
    return {data_, epoch_};
  }

 private:
  std::mutex mutex_;
  unsigned* data_ = nullptr;
  int count_ = 0;
  unsigned epoch_ = 0;
};

// Stream-k's flags: raised with release, read with acquire, at GPU scope.
__device__ __forceinline__ unsigned load_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(p), "r"(v) : "memory");
}

// Whether p lies on 16 bytes (a float4, a TMA row start).
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// One matrix for pad_rows_async: src (rows x cols, row-major, rows back to
// back) into dst, rows of ld floats (ld >= cols, a multiple of 4, dst
// 16-byte aligned), the columns past cols zero.
struct PadJob {
  const float* src;
  int rows, cols;
  float* dst;
  int ld;
};
// One or two such copies in one launch on `stream` (pad_copy.cu); checks the
// launch, throws std::invalid_argument for a job that breaks the rules above.
void pad_rows_async(const PadJob* jobs, int count, cudaStream_t stream);

__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// Copies 16 bytes global -> shared without passing through registers; when
// in_bounds is false it writes 16 zero bytes and reads nothing, which is how
// the ragged edges of A and B become zero padding.
__device__ __forceinline__ void cp_async_16(void* shared_dst, const void* global_src, bool in_bounds) {
  const int src_bytes = in_bounds ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(shared_dst)),
               "l"(global_src), "r"(src_bytes));
}

// The same for one word: lets A be stored transposed in shared memory.
__device__ __forceinline__ void cp_async_4(void* shared_dst, const void* global_src, bool in_bounds) {
  const int src_bytes = in_bounds ? 4 : 0;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(shared_address(shared_dst)),
               "l"(global_src), "r"(src_bytes));
}

// The two copies for a source known to be in bounds (no zero-fill operand),
// to a shared-memory address the caller keeps as a 32-bit value.
__device__ __forceinline__ void cp_async_16(std::uint32_t shared_dst, const void* global_src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_dst), "l"(global_src));
}
__device__ __forceinline__ void cp_async_4(std::uint32_t shared_dst, const void* global_src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(shared_dst), "l"(global_src));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

// Waits until at most PENDING committed groups are still in flight.
template <int PENDING>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}

// Orders this thread's generic-proxy writes to shared memory (cp.async
// included) before the async proxy (wgmma's tensor-core reads) sees them.
__device__ __forceinline__ void fence_proxy_async_shared() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

// The multi-stage pipeline of rungs 5-7: load_tile(stage, tile) issues the
// cp.async copies of k-tile `tile` into `stage`; compute(stage) runs once
// every thread's copies of that stage have landed. STAGES-1 tiles are in
// flight while one is computed; the stage refilled in an iteration is the one
// computed in the previous iteration, which the barrier has released.
// ASYNC_READER: the tensor cores read the tiles through the async proxy (wgmma).
template <int STAGES, bool ASYNC_READER = false, class Load, class Compute>
__device__ __forceinline__ void cp_async_pipeline(int tiles, Load&& load_tile, Compute&& compute) {
  static_assert(STAGES >= 2, "at least double buffering");
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) load_tile(s, s);
    cp_async_commit();  // an empty group where there are fewer tiles: the waits count groups
  }
  for (int tile = 0; tile < tiles; ++tile) {
    cp_async_wait<STAGES - 2>();  // this thread's copies of `tile` have landed ...
    if constexpr (ASYNC_READER) fence_proxy_async_shared();
    __syncthreads();  // ... and everyone's; everyone is also done with the stage refilled next
    const int next = tile + STAGES - 1;
    if (next < tiles) load_tile(next % STAGES, next);
    cp_async_commit();
    compute(tile % STAGES);
  }
  cp_async_wait<0>();  // no copy may outlive the block
}

// Four 8x4 blocks of 32-bit words (8 rows of 16 bytes each) into the layout
// of an mma.sync A fragment: lane l gets row l/4, word l%4 of each block.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const void* shared_row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(shared_row)));
}

// FP32 -> TF32 (to_tf32) and the m16n8k8 TF32 mma.sync (mma_sync_tf32): one
// definition for every build, kernels/api/mma.h.
using ::ts::mma::mma_sync_tf32;
using ::ts::mma::to_tf32;

// Block order for L2 reuse: consecutive blocks walk down GROUP_M block rows
// before moving one block column right, so the blocks resident at once share
// their A rows and B columns in L2. GROUP_M = 1 is plain row-major order.
template <int GROUP_M>
__device__ __forceinline__ void swizzled_block(int block_rows, int block_cols, int& block_row, int& block_col) {
  const int id = blockIdx.x;
  if constexpr (GROUP_M == 1) {
    block_row = id / block_cols;
    block_col = id % block_cols;
  } else {
    const int per_group = GROUP_M * block_cols;
    const int group = id / per_group;
    const int first_row = group * GROUP_M;
    const int rows_in_group = min(block_rows - first_row, GROUP_M);
    block_row = first_row + (id % per_group) % rows_in_group;
    block_col = (id % per_group) / rows_in_group;
  }
}

}  // namespace ts::ladder
