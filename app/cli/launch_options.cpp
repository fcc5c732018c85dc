// launch_options.cpp — parse the launch flags, and write them back out.
#include "app/cli/launch_options.h"

#include "kernels/catalog.h"
#include "kernels/user/user_kernel.h"

namespace ts::cli {

void add_launch_flags(CLI::App& app, LaunchFlags& f, bool with_layout) {
  app.add_option("--cuda-file", f.cuda_file,
                 "A CUDA file as written (raw pointers, __shared__ arrays, float4): NVRTC compiles it and its --entry "
                 "runs once on --grid x --block, pointers bound with --arg NAME=@A (or @B, @C; parameters named A, B, "
                 "C, M, N, K bind themselves)");
  app.add_option("--grid", f.grid, "With --cuda-file: blocks, X,Y[,Z] (or XxY)");
  app.add_option("--dynamic-shared", f.dynamic_shared, "With --cuda-file: bytes of dynamic shared memory")
      ->capture_default_str();
  app.add_option("--library", f.library, "cublas: cuBLAS's own GEMM of M x K by K x N");
  app.add_option("--math", f.math, "With --library cublas: fp32 (SGEMM) or tf32 (tensor cores)")->capture_default_str();
  if (with_layout)
    app.add_option("--layout", f.layout,
                 "With --cuda-file or --library: A, B and C in memory, row or col (default: col for cuBLAS, row else)");
}

std::string to_launch_request(const RecordOptions& o, const LaunchFlags& f, gpu::LaunchRequest& q) {
  q = {};
  q.m = o.m.value_or(o.size);
  q.n = o.n.value_or(o.size);
  q.k = o.k.value_or(o.size);
  q.seed = o.seed;
  if (!f.cuda_file.empty() && !f.library.empty()) return "--cuda-file and --library name two launches: give one";
  if (!o.kernel_file.empty()) return "--kernel-file records a kernel written for tilescope; it is not launched plain";
  if (f.library.empty() && (f.math != "fp32")) return "--math goes with --library cublas";
  const std::string layout = f.layout.empty() ? (f.library.empty() ? "row" : "col") : f.layout;
  if (layout != "row" && layout != "col") return "unknown --layout '" + layout + "' (choose row or col)";
  q.order = layout == "col" ? MatrixOrder::ColMajor : MatrixOrder::RowMajor;
  if (!f.cuda_file.empty()) {
    q.source = gpu::LaunchSource::CudaFile;
    q.file.file = f.cuda_file;
    q.file.entry = o.entry;
    if (o.entry.empty()) return "--cuda-file needs --entry NAME, the __global__ function to launch";
    if (f.grid.empty()) return "--cuda-file needs --grid X,Y[,Z]: the launch's blocks";
    const auto grid = parse_dims(f.grid), block = parse_dims(o.block);
    if (!grid) return "--grid " + f.grid + ": X,Y[,Z] (or XxY), each at least 1";
    if (!block) return "--block " + o.block + ": X,Y[,Z] (or XxY), each at least 1";
    if (block->count() > 1024) return "--block " + o.block + ": more than 1024 threads";
    q.file.grid = *grid, q.file.block = *block;
    q.file.dynamic_shared = f.dynamic_shared;
    q.file.defines = o.defines;
    q.file.args = o.args;
    try {  // a parameter left unbound is a usage error, found before any GPU work
      bind_plain_kernel(q.file, q.m, q.n, q.k);
    } catch (const UserKernelError& e) {
      return e.what();
    }
    return {};
  }
  if (!o.entry.empty() || !o.args.empty() || !o.defines.empty() || !f.grid.empty() || f.dynamic_shared)
    return "--entry, --grid, --dynamic-shared, -D and --arg go with --cuda-file FILE";
  if (!f.library.empty()) {
    if (f.library != "cublas") return "unknown --library '" + f.library + "' (tilescope knows cublas)";
    if (f.math != "fp32" && f.math != "tf32") return "unknown --math '" + f.math + "' (choose fp32 or tf32)";
    q.source = gpu::LaunchSource::Cublas;
    q.tf32 = f.math == "tf32";
    return {};
  }
  const auto kind = find_kernel(o.kernel);
  if (!kind) return "unknown kernel '" + o.kernel + "' (choose one of " + kernel_names() + ")";
  if (q.order != MatrixOrder::RowMajor) return "tilescope's kernels take row-major A, B and C (--layout row)";
  q.source = gpu::LaunchSource::Catalog;
  q.kernel = *kind;
  q.tile = o.tile;
  return {};
}

std::vector<std::string> launch_arguments(const gpu::LaunchRequest& q) {
  std::vector<std::string> v = {"--m", std::to_string(q.m), "--n",    std::to_string(q.n),
                                "--k", std::to_string(q.k), "--seed", std::to_string(q.seed)};
  const std::string layout = q.order == MatrixOrder::ColMajor ? "col" : "row";
  auto dims = [](const Dim3& d) {
    return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
  };
  switch (q.source) {
    case gpu::LaunchSource::Catalog:
      v.insert(v.end(), {"--kernel", std::string(kernel_info(q.kernel).name), "--tile", std::to_string(q.tile)});
      break;
    case gpu::LaunchSource::CudaFile:
      v.insert(v.end(), {"--cuda-file", q.file.file, "--entry", q.file.entry, "--grid", dims(q.file.grid), "--block",
                         dims(q.file.block), "--dynamic-shared", std::to_string(q.file.dynamic_shared), "--layout",
                         layout});
      for (const std::string& d : q.file.defines) v.insert(v.end(), {"-D", d});
      for (const std::string& a : q.file.args) v.insert(v.end(), {"--arg", a});
      break;
    case gpu::LaunchSource::Cublas:
      v.insert(v.end(), {"--library", "cublas", "--math", q.tf32 ? "tf32" : "fp32", "--layout", layout});
      break;
  }
  return v;
}

}  // namespace ts::cli
