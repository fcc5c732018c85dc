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
using VariantConfig =
    WsConfig<kTf32WsVariants[I].block_m, kTf32WsVariants[I].block_n / (64 * kTf32WsVariants[I].consumers),
             kTf32WsVariants[I].stages, kTf32WsVariants[I].group_m, kTf32WsVariants[I].cluster_m,
             kTf32WsVariants[I].cluster_n, kTf32WsVariants[I].consumers, kTf32WsVariants[I].ctas_per_sm>;
using WsShipped = VariantConfig<0>;

struct Entry {
  Tf32WsVariant info;
  void (*launch)(const float*, const float*, float*, int, int, int, cudaStream_t, int, bool, int, int);
  const void* kernel;
  int threads, shared_bytes;
  void (*configure)();  // ws_configure<Cfg>: the shared memory limit raised, once
};

template <std::size_t I>
Entry entry() {
  using Cfg = VariantConfig<I>;
  static_assert(Cfg::BN == kTf32WsVariants[I].block_n, "block_n is 64 per column group of each consumer");
  return {kTf32WsVariants[I], &launch_ws_config<Cfg>, reinterpret_cast<const void*>(tf32_wgmma_ws<Cfg, false>), Cfg::kThreads,
          Cfg::kSharedBytes, &ws_configure<Cfg>};
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
Workspace g_partials;   // stream-k's partial sums

EpochFlags g_flags;  // stream-k's flags, one per CTA

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
  PadJob jobs[2];
  int count = 0;
  if (pad_a) {
    jobs[count++] = {a, m, k, ws, lda};
    op.a = ws;
    op.lda = lda;
  }
  if (pad_b) {
    float* pb = ws + (a_floats + 3) / 4 * 4;  // 16-byte aligned
    jobs[count++] = {b, k, n, pb, ldb};
    op.b = pb;
    op.ldb = ldb;
  }
  pad_rows_async(jobs, count, stream);
  return op;
}

namespace {

Workspace g_split_copies;  // split-k's copies of C

// Four cells a thread where they lie on 16 bytes, one at a time at the ragged end.
__global__ void split_k_sum(const float* __restrict__ copies, int splits, std::size_t cells, float* __restrict__ c,
                            bool vec) {
  const std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) * 4;
  if (vec && i + 4 <= cells) {
    float4 sum = __ldcs(reinterpret_cast<const float4*>(copies + i));
    for (int s = 1; s < splits; ++s) {
      const float4 v = __ldcs(reinterpret_cast<const float4*>(copies + std::size_t(s) * cells + i));
      sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
    }
    *reinterpret_cast<float4*>(c + i) = sum;
    return;
  }
  for (std::size_t j = i; j < i + 4 && j < cells; ++j) {
    float sum = copies[j];
    for (int s = 1; s < splits; ++s) sum += copies[std::size_t(s) * cells + j];
    c[j] = sum;
  }
}

}  // namespace

float* ws_split_k_buffer(std::size_t floats) { return g_split_copies.get(floats); }

void ws_split_k_sum(const float* copies, int splits, std::size_t cells, float* c, cudaStream_t stream) {
  const std::size_t threads = (cells + 3) / 4;
  const bool vec = cells % 4 == 0 && aligned16(c);  // the copies are cudaMalloc'd: 256-byte aligned
  launch_checked(split_k_sum, dim3(unsigned((threads + 255) / 256)), 256, 0, stream, copies, splits, cells, c, vec);
}

WsStreamK ws_stream_k_buffers(int ctas, int slot_floats, cudaStream_t stream) {
  float* partials = g_partials.get(std::size_t(ctas) * slot_floats);
  const EpochFlags::Use flags = g_flags.get(ctas, stream);
  return {partials, flags.flags, flags.epoch};
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

std::span<const Tf32WsVariant> tf32_ws_variants() { return kTf32WsVariants; }

void launch_tf32_ws_variant(int index, const float* a, const float* b, float* c, int m, int n, int k,
                            cudaStream_t stream, int grid_limit, bool stream_k, int splits, int tail) {
  const Entry& e = entries().at(std::size_t(index));
  if (grid_limit == 0 && !e.info.persistent) grid_limit = INT_MAX;
  const bool persistent = e.info.persistent;
  e.launch(a, b, c, m, n, k, stream, grid_limit, stream_k && persistent, splits, persistent ? tail : 1);
}

cudaFuncAttributes tf32_ws_variant_attributes(int index) {
  cudaFuncAttributes attributes{};
  TS_CUDA_CHECK(cudaFuncGetAttributes(&attributes, entries().at(std::size_t(index)).kernel));
  return attributes;
}

int tf32_ws_resident_clusters(int index) {
  const Entry& e = entries().at(std::size_t(index));
  e.configure();  // the occupancy query counts only the shared memory the kernel may have
  return resident_clusters(e.kernel, e.threads, e.shared_bytes, e.info.cluster_m * e.info.cluster_n);
}

Tf32WsPlan tf32_ws_current_plan(int m, int n, int k) {
  return tf32_ws_plan(m, n, k, tf32_ws_variants(), tf32_ws_resident_clusters);
}

void launch_tf32_wgmma_ws(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const Tf32WsPlan plan = tf32_ws_current_plan(m, n, k);
  launch_tf32_ws_variant(plan.variant, a, b, c, m, n, k, stream, 0, plan.stream_k, plan.splits, plan.tail);
}

}  // namespace ts::ladder
