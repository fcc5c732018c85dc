// plain_tiled_launch.cu — a program that knows nothing of tracing: it
// allocates A, B and C (M x K, K x N, M x N floats, in that order), fills A and
// B as `tilescope record --seed SEED` does, launches tilescope's plain tiled
// kernel once, and checks C. scripts/gpu-checks.d/87-tracer.sh traces it with
// `tilescope record --exec` and holds the trace to the instrumented recording.
//   tracer_plain_launch M N K TILE SEED
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "trace/model/reference.h"
#include "kernels/cuda/plain_kernels.cuh"
#include "kernels/recorder.h"

namespace {

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "tracer_plain_launch: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}
#define CHECK(call) \
  if (!ok((call), #call)) return 1

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: tracer_plain_launch M N K TILE SEED\n");
    return 2;
  }
  ts::RecordParams p;
  p.kernel = ts::KernelKind::Tiled;
  p.m = std::atoi(argv[1]);
  p.n = std::atoi(argv[2]);
  p.k = std::atoi(argv[3]);
  p.tile = std::atoi(argv[4]);
  p.seed = std::strtoull(argv[5], nullptr, 10);
  p.device = ts::DeviceChoice::Cpu;  // only the inputs: nothing is recorded here
  ts::Trace t;
  try {
    ts::validate_shape(p);
    t = ts::prepare_launch(p);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tracer_plain_launch: %s\n", e.what());
    return 2;
  }
  float *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(cudaMalloc(&a, t.a.size() * sizeof(float)));
  CHECK(cudaMalloc(&b, t.b.size() * sizeof(float)));
  CHECK(cudaMalloc(&c, t.c.size() * sizeof(float)));
  CHECK(cudaMemcpy(a, t.a.data(), t.a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, t.b.data(), t.b.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(c, 0, t.c.size() * sizeof(float)));
  ts::gpu::launch_plain(ts::KernelKind::Tiled, p.tile, a, b, c, p.m, p.n, p.k);
  CHECK(cudaDeviceSynchronize());  // the tracer reads its records back here
  CHECK(cudaMemcpy(t.c.data(), c, t.c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  const std::string wrong = ts::check_matmul(t.a, t.b, t.c, p.m, p.n, p.k);
  if (!wrong.empty()) {
    std::fprintf(stderr, "tracer_plain_launch: C is wrong: %s\n", wrong.c_str());
    return 1;
  }
  std::printf("tracer_plain_launch: tiled TILE=%d M=%d N=%d K=%d seed %llu: C equals A x B\n", p.tile, p.m, p.n, p.k,
              static_cast<unsigned long long>(t.launch.seed));
  return 0;
}
