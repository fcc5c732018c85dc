// bench_entries.cpp — the benchmark's kernels: cuBLAS, the visualized kernels'
// plain builds, the ladder.
#include "kernels/catalog.h"
#include "kernels/cuda/bench_entries.cuh"
#include "kernels/cuda/plain_kernels.cuh"
#include "kernels/ladder/ladder.h"

namespace ts::gpu {
namespace {

// The visualized kernels are benchmarked at these two TILEs (the block edge for the naive ones).
constexpr int kBenchTiles[] = {16, 32};

BenchEntry cublas_entry(CublasHandle* h, bool tf32) {
  BenchEntry e;
  e.info = {tf32 ? "cublas-tf32" : "cublas-fp32", "cublas", tf32 ? "tf32" : "fp32",
            tf32 ? "cuBLAS with TF32 tensor cores (cublasGemmEx, COMPUTE_32F_FAST_TF32)" : "cuBLAS SGEMM (FP32)"};
  // cuBLAS's own tiling is not known: count the least any kernel moves.
  e.bytes = gemm_bytes_compulsory;
  e.refusal = [](int, int, int, int) { return std::string(); };
  if (tf32)
    e.launch = [h](const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t s) { h->gemm_tf32(a, b, c, m, n, k, s); };
  else
    e.launch = [h](const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t s) { h->gemm_fp32(a, b, c, m, n, k, s); };
  return e;
}

BenchEntry visualized_entry(KernelKind kind, int tile) {
  const KernelInfo& ki = kernel_info(kind);
  BenchEntry e;
  e.info = {std::string(ki.name) + "/" + std::to_string(tile), "visualized", "fp32",
            std::string(ki.title) + ", TILE " + std::to_string(tile) + " (" + std::string(ki.source_file) + ")"};
  // What its threads request from global memory, by the catalog's closed forms.
  e.bytes = [kind, tile](int m, int n, int k) {
    return 4.0 * (double(loads_per_a_element(kind, tile, m, n)) * m * k +
                  double(loads_per_b_element(kind, tile, m, n)) * k * n + double(m) * n);
  };
  e.refusal = [](int m, int n, int k, int) { return ladder::index_refusal(m, n, k); };
  e.launch = [kind, tile](const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t s) {
    launch_plain(kind, tile, a, b, c, m, n, k, s);
  };
  return e;
}

BenchEntry ladder_entry(const ladder::LadderKernel& lk) {
  BenchEntry e;
  e.info = {std::string(lk.name), "ladder", lk.tf32 ? "tf32" : "fp32",
            std::string(lk.title) + " (" + std::string(lk.source) + ")"};
  const int bm = lk.block_m, bn = lk.block_n;
  e.bytes = [bm, bn](int m, int n, int k) { return gemm_bytes_tiled(m, n, k, bm, bn); };
  const ladder::LadderKernel* p = &lk;
  e.refusal = [p](int m, int n, int k, int cc) { return ladder::ladder_refusal(*p, m, n, k, cc); };
  e.launch = lk.launch;
  return e;
}

}  // namespace

std::vector<BenchEntry> all_bench_entries(CublasHandle* cublas) {
  std::vector<BenchEntry> entries{cublas_entry(cublas, false), cublas_entry(cublas, true)};
  for (KernelKind kind : kAllKernels)
    for (int tile : kBenchTiles) entries.push_back(visualized_entry(kind, tile));
  for (const ladder::LadderKernel& lk : ladder::ladder_kernels()) entries.push_back(ladder_entry(lk));
  return entries;
}

}  // namespace ts::gpu
