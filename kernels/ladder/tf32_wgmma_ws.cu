// tf32_wgmma_ws.cu — `tf32-wgmma-ws`: the configurations of tf32_wgmma_ws.cuh
// that are compiled (one per row of tf32_wgmma_ws_variants.h: the shipped
// one first, then the variants the tuning program times against it), and the host side: tensor maps (the driver's
// cuTensorMapEncodeTiled, fetched through the runtime so the program needs
// no -lcuda), padded copies for rows TMA cannot address, and the persistent
// grid. Built for sm_90a only. docs/ladder-notes.md, "TF32 on Hopper:
// tf32-wgmma-ws", has the design, the predictions and the measurements.
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <cstdint>
#include <map>
#include <mutex>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "kernels/ladder/ladder.h"
#include "kernels/ladder/tf32_wgmma_ws.cuh"
#include "kernels/ladder/tf32_wgmma_ws.h"

namespace ts::ladder {
namespace {

// The kernel of kTf32WsVariants[I] (tf32_wgmma_ws_variants.h): variants that
// differ only in how they launch (grid=tiles) share one instantiation.
template <std::size_t I>
using VariantConfig = WsConfig<kTf32WsVariants[I].block_m, kTf32WsVariants[I].block_n / 128, kTf32WsVariants[I].stages,
                               kTf32WsVariants[I].group_m, kTf32WsVariants[I].cluster_m, kTf32WsVariants[I].cluster_n>;
using WsShipped = VariantConfig<0>;

struct Entry {
  Tf32WsVariant info;
  void (*launch)(const float*, const float*, float*, int, int, int, cudaStream_t, int);
  const void* kernel;
};

template <std::size_t I>
Entry entry() {
  using Cfg = VariantConfig<I>;
  static_assert(Cfg::BN == kTf32WsVariants[I].block_n, "block_n is 128 per 64-column group of each consumer");
  return {kTf32WsVariants[I], &launch_ws_config<Cfg>, reinterpret_cast<const void*>(tf32_wgmma_ws<Cfg>)};
}

template <std::size_t... I>
std::vector<Entry> all_entries(std::index_sequence<I...>) {
  return {entry<I>()...};
}

// A function's static, not a namespace-scope array: the tests list the
// variants while their own statics are initialised.
const std::vector<Entry>& entries() {
  static const std::vector<Entry> all = all_entries(std::make_index_sequence<std::size(kTf32WsVariants)>());
  return all;
}

// ---- tensor maps ----

PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    TS_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw gpu::GpuError("tf32-wgmma-ws: the driver has no cuTensorMapEncodeTiled (CUDA 12.0+ driver needed)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encode;
}

// ---- padded copies for rows TMA cannot address ----

Workspace g_workspace;  // the padded copies' memory

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }
int round_up4(int x) { return (x + 3) / 4 * 4; }

}  // namespace

WsOperands ws_tma_operands(const float* a, const float* b, int m, int n, int k, cudaStream_t stream) {
  // The rule: a row stride TMA can take is a multiple of 16 bytes from a
  // 16-byte aligned start; anything else is copied with its rows padded to 4
  // floats. The padding itself is never read: the tensor maps keep the true
  // k and n, so TMA zero-fills past them.
  const bool pad_a = k % 4 != 0 || !aligned16(a), pad_b = n % 4 != 0 || !aligned16(b);
  WsOperands op{a, k, b, n};
  if (!pad_a && !pad_b) return op;
  const int lda = pad_a ? round_up4(k) : k, ldb = pad_b ? round_up4(n) : n;
  const std::size_t a_floats = pad_a ? std::size_t(m) * lda : 0, b_floats = pad_b ? std::size_t(k) * ldb : 0;
  float* ws = g_workspace.get(a_floats + b_floats + 4);  // cudaMalloc: 256-byte aligned
  if (pad_a) {
    TS_CUDA_CHECK(cudaMemcpy2DAsync(ws, std::size_t(lda) * 4, a, std::size_t(k) * 4, std::size_t(k) * 4, m,
                                    cudaMemcpyDeviceToDevice, stream));
    op.a = ws;
    op.lda = lda;
  }
  if (pad_b) {
    float* pb = ws + (a_floats + 3) / 4 * 4;  // 16-byte aligned
    TS_CUDA_CHECK(cudaMemcpy2DAsync(pb, std::size_t(ldb) * 4, b, std::size_t(n) * 4, std::size_t(n) * 4, k,
                                    cudaMemcpyDeviceToDevice, stream));
    op.b = pb;
    op.ldb = ldb;
  }
  return op;
}

CUtensorMap ws_tensor_map(const float* base, int rows, int cols, int ld, int box_rows) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};  // innermost first
  const cuuint64_t strides[1] = {cuuint64_t(ld) * sizeof(float)};   // bytes, of dimension 1
  const cuuint32_t box[2] = {cuuint32_t(ws::kBoxCols), cuuint32_t(box_rows)};  // 32 floats = the 128-byte swizzle
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base), dims,
                                          strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                          CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);  // NONE: out-of-bounds reads are zeros
  if (r != CUDA_SUCCESS)
    throw gpu::GpuError("tf32-wgmma-ws: cuTensorMapEncodeTiled failed (CUresult " + std::to_string(int(r)) + ") for " +
                        std::to_string(rows) + " x " + std::to_string(cols) + ", ld " + std::to_string(ld) + ", box 32 x " +
                        std::to_string(box_rows));
  return map;
}

int ws_resident_clusters(const void* kernel, int threads, int shared_bytes, int cluster_size) {
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, int> cache;  // (kernel, device) -> clusters
  int device = 0;
  TS_CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(kernel, device);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
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
  if (clusters < 1) throw gpu::GpuError("tf32-wgmma-ws: no CTA of this configuration fits on an SM");
  cache[key] = clusters;
  return clusters;
}

std::span<const Tf32WsVariant> tf32_ws_variants() { return kTf32WsVariants; }

void launch_tf32_ws_variant(int index, const float* a, const float* b, float* c, int m, int n, int k,
                            cudaStream_t stream, int grid_limit) {
  const Entry& e = entries().at(std::size_t(index));
  if (grid_limit == 0 && !e.info.persistent) grid_limit = INT_MAX;
  e.launch(a, b, c, m, n, k, stream, grid_limit);
}

cudaFuncAttributes tf32_ws_variant_attributes(int index) {
  cudaFuncAttributes attributes{};
  TS_CUDA_CHECK(cudaFuncGetAttributes(&attributes, entries().at(std::size_t(index)).kernel));
  return attributes;
}

void launch_tf32_wgmma_ws(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  launch_ws_config<WsShipped>(a, b, c, m, n, k, stream);
}

}  // namespace ts::ladder
