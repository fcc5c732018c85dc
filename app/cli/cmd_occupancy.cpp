// cmd_occupancy.cpp — `tilescope occupancy`: blocks per SM, the binding
// limit and the theoretical occupancy of each kernel and TILE, on the GPU
// present (numbers from the CUDA runtime) or on a preset (its compute
// capability's limits; registers from this build's ptxas, or in a build
// without the CUDA Toolkit from the shipped data: kernels/kernel_resources.h).
//
//   tilescope occupancy --gpu list
//   tilescope occupancy --gpu rtx5070ti --kernel tiled --tile 32 --json
//   tilescope occupancy --gpu live --kernel all --tile all
//   tilescope occupancy --gpu all --kernel tiled --tile 16
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "trace/model/gpu_presets.h"
#include "app/core/occupancy_json.h"
#include "kernels/catalog.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/kernel_resources.h"

namespace ts::cli {
namespace {

struct OccupancyOptions {
  std::string gpu = "live";
  std::string kernel = "tiled";
  std::string tile = "16";
  int registers = -1;     // what-if: registers per thread instead of the compiler's
  int shared_bytes = -1;  // what-if: static shared bytes per block instead of the kernel's
  int carveout_kib = -1;  // preferred shared-memory carve-out
  bool json = false;
};

// One GPU to compute for: a preset, or the one in this machine.
struct Target {
  std::string short_name, name, limits_source;
  SmLimits limits;
  bool live = false;
};

struct Row {
  const Target* gpu;
  KernelKind kind;
  int tile;
  KernelResources resources;
  Occupancy occupancy;
  std::optional<int> api_blocks_per_sm;  // live only: cudaOccupancyMaxActiveBlocksPerMultiprocessor
};

// Thrown for a request that cannot be answered; the message is the one line the user sees.
struct Refusal {
  std::string message;
};

Target live_target() {
  const gpu::DeviceStatus st = gpu::probe();
  if (!st.available)
    throw Refusal{"no GPU to ask (" + st.reason + "); choose a preset with --gpu: " + gpu_preset_names()};
  Target t;
  t.short_name = "live";
  t.name = st.name;
  t.limits = gpu::live_sm_limits();
  t.limits_source = "CUDA runtime (cudaDeviceProp); allocation units and carve-out steps of compute capability " +
                    std::to_string(t.limits.compute_capability);
  t.live = true;
  return t;
}

Target preset_target(const GpuPreset& p) {
  Target t;
  t.short_name = std::string(p.short_name);
  t.name = std::string(p.name);
  t.limits = preset_limits(p);
  t.limits_source = "preset: documented limits of compute capability " + std::to_string(p.compute_capability / 10) +
                    "." + std::to_string(p.compute_capability % 10) + ", " + std::to_string(p.sm_count) + " SMs";
  return t;
}

std::vector<Target> targets(const std::string& gpu) {
  std::vector<Target> out;
  if (gpu == "live") {
    out.push_back(live_target());
  } else if (gpu == "all") {
    if (gpu::probe().available) out.push_back(live_target());
    for (const GpuPreset& p : gpu_presets()) out.push_back(preset_target(p));
  } else if (const auto p = find_gpu_preset(gpu)) {
    out.push_back(preset_target(*p));
  } else {
    throw Refusal{"unknown GPU '" + gpu + "' (choose live, all, list or a preset: " + gpu_preset_names() + ")"};
  }
  return out;
}

std::vector<KernelKind> kernels(const std::string& name) {
  if (name == "all") {
    std::vector<KernelKind> all(std::begin(kAllKernels), std::end(kAllKernels));
    all.insert(all.end(), std::begin(kRungKernels), std::end(kRungKernels));
    return all;
  }
  if (const auto k = find_kernel(name)) return {*k};
  throw Refusal{"unknown kernel '" + name + "' (choose all or one of " + kernel_names() + ")"};
}

std::vector<int> tiles(const std::string& tile) {
  if (tile == "all") return {std::begin(kAllTiles), std::end(kAllTiles)};
  std::size_t used = 0;
  int t = 0;
  try {
    t = std::stoi(tile, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != tile.size() || !is_valid_tile(t))
    throw Refusal{"TILE must be 2, 4, 8, 16, 32 or all, got '" + tile + "'"};
  return {t};
}

Row compute_row(const Target& gpu, KernelKind kind, int tile, const OccupancyOptions& o) {
  Row row{&gpu, kind, tile, {}, {}, std::nullopt};
  const int arch = gpu.limits.compute_capability;
  if (gpu.live) {
    const gpu::LiveKernelOccupancy live = gpu::live_plain_occupancy(kind, tile);
    row.resources = live.resources;
    row.api_blocks_per_sm = live.api_blocks_per_sm;
  } else if (auto compiled = compiled_kernel_resources(arch, kind, tile)) {
    row.resources = *compiled;
  } else if (o.registers >= 0) {
    row.resources.threads_per_block = static_cast<int>(launch_shape(kind, tile, tile, tile).block.count());
    row.resources.static_shared_bytes = static_cast<int>(shared_bytes(kind, tile));
    row.resources.barriers = kernel_info(kind).barriers_per_iteration > 0 ? 1 : 0;
    row.resources.min_compute_capability = min_compute_capability(kind);
  } else {
    throw Refusal{"no compiler resource usage for sm_" + std::to_string(arch) + " (" +
                  resource_origin(resource_table()) +
                  " covers the presets' architectures); give --registers N to assume N registers per thread"};
  }
  if (o.registers >= 0) {
    row.resources.registers_per_thread = o.registers;
    row.resources.source = "assumed (--registers " + std::to_string(o.registers) + ")";
    row.api_blocks_per_sm.reset();  // the API answered for the real kernel, not this one
  }
  if (o.shared_bytes >= 0) {
    row.resources.static_shared_bytes = o.shared_bytes;
    row.resources.source += ", shared memory assumed (--shared-bytes)";
    row.api_blocks_per_sm.reset();
  }
  row.occupancy = compute_occupancy(gpu.limits, row.resources, o.carveout_kib < 0 ? -1 : o.carveout_kib * 1024);
  return row;
}

nlohmann::json row_json(const Row& r) {
  nlohmann::json j{{"gpu",
                    {{"name", r.gpu->short_name},
                     {"full_name", r.gpu->name},
                     {"source", r.gpu->live ? "live" : "preset"},
                     {"limits_source", r.gpu->limits_source},
                     {"limits", sm_limits_to_json(r.gpu->limits)}}},
                   {"kernel", kernel_info(r.kind).name},
                   {"tile", takes_tile(r.kind) ? nlohmann::json(r.tile) : nlohmann::json()},  // null: fixed tiles
                   {"resources", kernel_resources_to_json(r.resources)}};
  j.update(occupancy_to_json(r.occupancy));
  if (r.api_blocks_per_sm) {
    j["api_blocks_per_sm"] = *r.api_blocks_per_sm;
    j["api_agrees"] = *r.api_blocks_per_sm == r.occupancy.blocks_per_sm;
  }
  return j;
}

std::string limit_cell(int blocks) { return blocks >= Occupancy::kUnlimited ? "-" : std::to_string(blocks); }

void print_rows(const std::vector<Row>& rows) {
  const Target* current = nullptr;
  for (const Row& r : rows) {
    if (r.gpu != current) {
      current = r.gpu;
      std::printf("%s%s (%s)\n  limits: %s\n", current == rows.front().gpu ? "" : "\n", current->name.c_str(),
                  current->short_name.c_str(), current->limits_source.c_str());
      std::printf("  %-16s %4s %7s %4s %6s | blocks/SM by: %7s %5s %4s %6s %6s %4s | %6s %9s %9s  %s\n", "kernel",
                  "TILE", "threads", "regs", "smem", "threads", "warps", "regs", "smem", "blocks", "bars", "blocks",
                  "warps/SM", "occupancy", "binding");
    }
    const Occupancy& o = r.occupancy;
    std::string binding;
    for (OccupancyLimit l : o.binding) binding += std::string(binding.empty() ? "" : "+") + limit_name(l);
    std::printf("  %-16s %4s %7d %4d %6d | %22s %5s %4s %6s %6s %4s | %6d %5d/%-3d %8.1f%%  %s\n",
                std::string(kernel_info(r.kind).name).c_str(), takes_tile(r.kind) ? std::to_string(r.tile).c_str() : "-",
                r.resources.threads_per_block,
                r.resources.registers_per_thread, r.resources.static_shared_bytes + r.resources.dynamic_shared_bytes,
                limit_cell(o.by_threads).c_str(), limit_cell(o.by_warps).c_str(), limit_cell(o.by_registers).c_str(),
                limit_cell(o.by_shared).c_str(), limit_cell(o.by_blocks).c_str(), limit_cell(o.by_barriers).c_str(),
                o.blocks_per_sm, o.active_warps_per_sm, o.max_warps_per_sm, 100.0 * o.occupancy, binding.c_str());
    if (!o.unlaunchable.empty()) std::printf("      does not launch: %s\n", o.unlaunchable.c_str());
    if (r.api_blocks_per_sm && *r.api_blocks_per_sm != o.blocks_per_sm)
      std::printf("      the CUDA occupancy API says %d blocks per SM\n", *r.api_blocks_per_sm);
  }
  if (!rows.empty())
    std::printf("\nregisters and shared memory from: %s%s\n", rows.front().resources.source.c_str(),
                rows.front().gpu->live ? "; blocks per SM checked against cudaOccupancyMaxActiveBlocksPerMultiprocessor" : "");
}

int list_presets(bool json) {
  nlohmann::json out = nlohmann::json::array();
  for (const GpuPreset& p : gpu_presets()) {
    if (json) {
      out.push_back({{"name", p.short_name},
                     {"full_name", p.name},
                     {"chip", p.chip},
                     {"compute_capability", p.compute_capability},
                     {"sm_count", p.sm_count}});
    } else {
      std::printf("%-10s %-32s %-6s compute capability %d.%d, %3d SMs\n", std::string(p.short_name).c_str(),
                  std::string(p.name).c_str(), std::string(p.chip).c_str(), p.compute_capability / 10,
                  p.compute_capability % 10, p.sm_count);
    }
  }
  if (json) std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

int run(const OccupancyOptions& o) {
  if (o.gpu == "list") return list_presets(o.json);
  std::vector<Row> rows;
  try {
    const std::vector<KernelKind> ks = kernels(o.kernel);
    const std::vector<int> ts = tiles(o.tile);
    const std::vector<Target> gpus = targets(o.gpu);
    for (const Target& g : gpus)
      for (KernelKind k : ks) {
        if (!takes_tile(k)) rows.push_back(compute_row(g, k, 0, o));  // a rung: fixed tiles, one row
        else
          for (int t : ts) rows.push_back(compute_row(g, k, t, o));
      }
    if (o.json) {
      nlohmann::json out = nlohmann::json::array();
      for (const Row& r : rows) out.push_back(row_json(r));
      std::printf("%s\n", (rows.size() == 1 ? out.front() : out).dump(2).c_str());
    } else {
      print_rows(rows);
    }
  } catch (const Refusal& r) {
    return fail(r.message);
  } catch (const gpu::GpuError& e) {
    return fail(std::string("GPU error: ") + e.what());
  }
  return 0;
}

}  // namespace

Command add_occupancy_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("occupancy", "Blocks per SM, the binding limit and theoretical occupancy");
  auto o = std::make_shared<OccupancyOptions>();
  app->add_option("--gpu", o->gpu, "live (this machine's GPU), all, list, or a preset: " + gpu_preset_names())
      ->capture_default_str();
  app->add_option("--kernel", o->kernel, "Kernel, or all: " + kernel_names())->capture_default_str();
  app->add_option("--tile", o->tile, "TILE: 2, 4, 8, 16, 32 or all (the ladder's rungs have fixed tiles and ignore it)")
      ->capture_default_str();
  app->add_option("--registers", o->registers, "Assume this many registers per thread (what-if)")
      ->check(CLI::Range(0, 255));
  app->add_option("--shared-bytes", o->shared_bytes, "Assume this much static shared memory per block (what-if)")
      ->check(CLI::Range(0, 1 << 20));
  app->add_option("--carveout", o->carveout_kib, "Preferred shared-memory carve-out in KiB (default: the largest)")
      ->check(CLI::Range(0, 1024));
  app->add_flag("--json", o->json, "Print JSON");
  return {app, [o]() { return run(*o); }};
}

}  // namespace ts::cli
