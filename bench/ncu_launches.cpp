// ncu_launches.cpp — exactly one launch of each plain kernel per (kernel, TILE,
// N), for Nsight Compute to profile, and a manifest that says which is which.
//
//   ncu_launches [--sizes 64,256] [--tiles 2,4,8,16,32] [--kernels textbook|rungs|both]
//                [--manifest launches.json]
//   ncu --csv --print-units base --clock-control none -k regex:plain_(kernel|rung)
//       --metrics <list> ncu_launches --manifest launches.json > ncu.csv
//
// Per size: the textbook kernels (plain_kernel<KIND, TILE>) at every TILE,
// then the ladder's recorded rungs (ts::kRungKernels, plain_rung<KIND>: fixed
// tiles, one launch per size, "tile": 0 in the manifest as in dispatch.h). A
// rung whose size rule (catalog.h size_refusal) refuses N is skipped with a
// message. Launch i of the manifest is ncu's result ID i (no other kernel
// runs: inputs are copied, C is poisoned with cudaMemset). Every C is checked
// against a double-precision reference (past N = 1024, 64 of its rows,
// computed once per size), so each profiled launch is a correct one.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "trace/model/reference.h"
#include "app/core/safe_file.h"
#include "kernels/catalog.h"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/cuda/plain_kernels.cuh"

namespace {

constexpr double kMaxRelativeError = 1e-5;  // the tests' bound for every FP32 kernel against the reference
// A TF32 rung rounds its inputs to 10 mantissa bits (~5e-4): kernels/cuda/bench_check.cuh's bound.
constexpr double kMaxRelativeErrorTf32 = 5e-3;
// The full reference is O(N^3) on one core (a minute at N = 4096): past this, sampled rows.
constexpr int kFullCheckUpTo = 1024;
constexpr int kSampledRows = 64;

nlohmann::json dim3_json(const ts::Dim3& d) { return {d.x, d.y, d.z}; }

// The rows of C a launch of size n is checked on: all of them up to
// kFullCheckUpTo, past that kSampledRows spread over C.
std::vector<std::size_t> checked_rows(int n) {
  std::vector<std::size_t> rows;
  if (n <= kFullCheckUpTo) {
    for (int r = 0; r < n; ++r) rows.push_back(std::size_t(r));
  } else {
    for (int r = 0; r < kSampledRows; ++r) rows.push_back(std::size_t(r) * n / kSampledRows + r % 7);
  }
  return rows;
}

// The double-precision reference of those rows of C = A B: computed once per
// size and shared by every kernel launched at it (at N = 4096 it takes
// seconds on one core).
std::vector<double> reference_rows(const std::vector<float>& a, const std::vector<float>& b, int n,
                                   const std::vector<std::size_t>& rows) {
  std::vector<float> rows_a;
  for (std::size_t row : rows) rows_a.insert(rows_a.end(), a.begin() + row * n, a.begin() + (row + 1) * n);
  return ts::reference_matmul(rows_a, b, static_cast<int>(rows.size()), n, n);
}

// Runs one launch and returns C's relative error against the reference of the checked rows.
double launch_once(ts::KernelKind kind, int tile, int n, const std::vector<float>& a, const std::vector<float>& b,
                   const std::vector<std::size_t>& rows, const std::vector<double>& reference,
                   ts::gpu::DeviceBuffer& da, ts::gpu::DeviceBuffer& db, ts::gpu::DeviceBuffer& dc) {
  const std::size_t elems = std::size_t(n) * n;
  TS_CUDA_CHECK(cudaMemcpy(da.get<float>(elems), a.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemcpy(db.get<float>(elems), b.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
  TS_CUDA_CHECK(cudaMemset(dc.get<float>(elems), 0xFF, elems * sizeof(float)));  // NaN unless written
  ts::gpu::launch_plain(kind, tile, da.get<float>(elems), db.get<float>(elems), dc.get<float>(elems), n, n, n);
  TS_CUDA_CHECK_LAUNCH();
  std::vector<float> c(elems);
  TS_CUDA_CHECK(cudaMemcpy(c.data(), dc.get<float>(elems), elems * sizeof(float), cudaMemcpyDeviceToHost));
  // Every cell must be written (sampled rows or not), and the checked rows equal the reference.
  for (float x : c)
    if (!std::isfinite(x)) return std::numeric_limits<double>::infinity();
  std::vector<float> rows_c;
  for (std::size_t row : rows) rows_c.insert(rows_c.end(), c.begin() + row * n, c.begin() + (row + 1) * n);
  return ts::relative_error(rows_c, reference);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"One launch of each plain kernel per (kernel, TILE, N), for Nsight Compute"};
  std::vector<int> sizes{64, 256};
  std::vector<int> tiles(std::begin(ts::kAllTiles), std::end(ts::kAllTiles));
  std::string manifest_path = "launches.json";
  app.add_option("--sizes", sizes, "M = N = K of each launch")->delimiter(',')->check(CLI::Range(1, 4096));
  app.add_option("--tiles", tiles, "TILEs (the block edge for the naive kernels)")
      ->delimiter(',')
      ->check(CLI::IsMember(std::vector<int>(std::begin(ts::kAllTiles), std::end(ts::kAllTiles))));
  app.add_option("--manifest", manifest_path, "Where to write which launch is which");
  std::string which = "both";
  app.add_option("--kernels", which, "The textbook kernels (at each --tiles), the ladder's rungs (fixed tiles), or both")
      ->check(CLI::IsMember({"textbook", "rungs", "both"}));
  CLI11_PARSE(app, argc, argv);
  // (kernel, TILE) per size, in launch order: a rung is launched once, with TILE 0.
  std::vector<std::pair<ts::KernelKind, int>> kernels;
  if (which != "rungs")
    for (ts::KernelKind kind : ts::kAllKernels)
      for (int tile : tiles) kernels.emplace_back(kind, tile);
  if (which != "textbook")
    for (ts::KernelKind kind : ts::kRungKernels) kernels.emplace_back(kind, 0);

  const ts::gpu::DeviceStatus gpu = ts::gpu::probe();
  if (!gpu.available) {
    std::fprintf(stderr, "ncu_launches: %s\n", gpu.reason.c_str());
    return 1;
  }
  nlohmann::json launches = nlohmann::json::array();
  try {
    ts::gpu::DeviceBuffer da, db, dc;
    std::mt19937_64 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (int n : sizes) {
      std::vector<float> a(std::size_t(n) * n), b(a.size());
      for (float& x : a) x = dist(rng);
      for (float& x : b) x = dist(rng);
      const std::vector<std::size_t> rows = checked_rows(n);
      const std::vector<double> reference = reference_rows(a, b, n, rows);
      for (const auto& [kind, tile] : kernels) {
        const std::string name(ts::kernel_info(kind).name);
        const bool rung = !ts::takes_tile(kind);
        if (const std::string why = ts::size_refusal(kind, n, n, n); !why.empty()) {
          std::fprintf(stderr, "ncu_launches: skipping %s at N %d: %s\n", name.c_str(), n, why.c_str());
          continue;
        }
        const double err = launch_once(kind, tile, n, a, b, rows, reference, da, db, dc);
        const double bound = name.find("tf32") != std::string::npos ? kMaxRelativeErrorTf32 : kMaxRelativeError;
        if (!(err < bound)) {
          const std::string what = rung ? name : name + " TILE " + std::to_string(tile);
          std::fprintf(stderr, "ncu_launches: %s N %d: relative error %.3g against the reference\n", what.c_str(), n,
                       err);
          return 1;
        }
        const ts::LaunchShape shape = ts::launch_shape(kind, tile, n, n);
        launches.push_back({{"id", launches.size()}, {"kernel", name}, {"kind", static_cast<int>(kind)},
                            {"rung", rung}, {"tile", tile}, {"n", n}, {"grid", dim3_json(shape.grid)},
                            {"block", dim3_json(shape.block)}, {"relative_error", err}});
      }
    }
  } catch (const ts::gpu::GpuError& e) {
    std::fprintf(stderr, "ncu_launches: %s\n", e.what());
    return 1;
  }
  if (const std::string error = ts::try_write_file_atomically(
          manifest_path, nlohmann::json{{"device", gpu.name}, {"launches", launches}}.dump(2) + "\n");
      !error.empty()) {
    std::fprintf(stderr, "ncu_launches: %s\n", error.c_str());
    return 1;
  }
  std::fprintf(stderr, "ncu_launches: %zu launches on %s, manifest %s\n", launches.size(), gpu.name.c_str(),
               manifest_path.c_str());
  return 0;
}
