// kernel_resources.cpp — the two tables of kernel resources (this build's
// ptxas, the shipped data), their lookups, and the shipped data's CSV form.
#include "kernels/kernel_resources.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "app/render/embedded_files.h"
#include "kernels/catalog.h"

namespace ts {

// Defined in the generated kernel_resources_table.cpp (see cmake/KernelResources.cmake).
namespace generated {
extern const std::vector<CompiledResources> kCompiledResources;
extern const std::vector<int> kBinaryArches;
extern const char* const kCompiler;  // "" without CUDA
}  // namespace generated

namespace {

constexpr std::string_view kCsvColumns =
    "arch,kernel,tile,registers,static_shared_bytes,local_bytes,spill_bytes,barriers,max_threads_per_block";

ResourceTable make_build_table() {
  ResourceTable t;
  t.compiler = generated::kCompiler;
  t.rows = generated::kCompiledResources;
  SmLimits sm;
  for (CompiledResources& r : t.rows) {
    if (limits_for_compute_capability(r.arch, sm))
      r.max_threads_per_block = max_threads_for_registers(sm, r.registers, max_block_threads(r.kind));
  }
  return t;
}

ResourceTable make_shipped_table() {
  const embed::File* f = embed::find_file(embed::kernel_resource_data(), "kernel_resources.csv");
  if (!f) throw std::logic_error("kernel_resources.csv is not compiled in");
  ResourceTable t = parse_resource_csv(std::string(f->text));
  t.shipped = true;
  return t;
}

int to_int(const std::string& field, int line) {
  std::size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(field, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (field.empty() || used != field.size() || v < 0)
    throw std::runtime_error("kernel_resources.csv line " + std::to_string(line) + ": '" + field +
                             "' is not a count");
  return v;
}

std::string header_value(const std::string& line, std::string_view key) {
  const std::string prefix = "# " + std::string(key) + ": ";
  return line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : std::string();
}

}  // namespace

const ResourceTable& build_resource_table() {
  static const ResourceTable table = make_build_table();
  return table;
}

const ResourceTable& shipped_resource_table() {
  static const ResourceTable table = make_shipped_table();
  return table;
}

const ResourceTable& resource_table() {
  return build_resource_table().rows.empty() ? shipped_resource_table() : build_resource_table();
}

std::span<const CompiledResources> compiled_resources() { return resource_table().rows; }

std::vector<int> recorded_arches() {
  std::vector<int> arches;
  for (const CompiledResources& r : compiled_resources())
    if (std::find(arches.begin(), arches.end(), r.arch) == arches.end()) arches.push_back(r.arch);
  std::sort(arches.begin(), arches.end());
  return arches;
}

std::vector<int> binary_arches() { return generated::kBinaryArches; }

const CompiledResources* find_resources_in(const ResourceTable& table, int arch, KernelKind kind, int tile) {
  // The naive kernels' block edge is a run-time value and the rungs' tiles are fixed: one entry each, TILE 0.
  const int table_tile = is_naive(kind) || !takes_tile(kind) ? 0 : tile;
  for (const CompiledResources& r : table.rows)
    if (r.arch == arch && r.kind == kind && r.tile == table_tile) return &r;
  return nullptr;
}

const CompiledResources* find_compiled_resources(int arch, KernelKind kind, int tile) {
  return find_resources_in(resource_table(), arch, kind, tile);
}

std::string resource_origin(const ResourceTable& table) {
  if (table.rows.empty()) return "no compiler numbers";
  return "ptxas of " + table.compiler + (table.shipped ? ", shipped data taken " + table.taken : ", at build time");
}

std::optional<KernelResources> compiled_kernel_resources(int arch, KernelKind kind, int tile) {
  const CompiledResources* r = find_compiled_resources(arch, kind, tile);
  if (!r) return std::nullopt;
  KernelResources k;
  k.threads_per_block = static_cast<int>(launch_shape(kind, tile, tile, tile).block.count());
  k.registers_per_thread = r->registers;
  k.static_shared_bytes = r->static_shared_bytes;
  k.barriers = r->barriers;
  k.min_compute_capability = min_compute_capability(kind);
  k.source = resource_origin(resource_table()) + ", sm_" + std::to_string(arch);
  return k;
}

int max_threads_for_registers(const SmLimits& sm, int registers, int bound) {
  const int limit = std::min(bound, sm.max_threads_per_block);
  if (registers <= 0 || sm.warp_size <= 0 || sm.register_allocation_unit <= 0) return limit;
  const int unit = sm.register_allocation_unit;
  const int per_warp = (registers * sm.warp_size + unit - 1) / unit * unit;
  // A block's warps are checked as if spread over every sub-partition (as compute_occupancy does).
  const int parts = std::max(1, sm.register_sub_partitions);
  const int warps = sm.max_registers_per_block / per_warp / parts * parts;
  return std::min(limit, warps * sm.warp_size);
}

std::string resource_csv(const ResourceTable& table) {
  std::ostringstream out;
  out << "# kernel_resources.csv — what ptxas gave each plain kernel (kernels/cuda/plain_kernels.cu),\n"
         "# per architecture: the occupancy calculator's numbers in a build without the CUDA Toolkit.\n"
         "# Written by `cmake --build BUILD --target kernel-resources-data` in a CUDA build: do not edit.\n"
         "# A CUDA build's kernel_resources_test fails, naming the kernel, when its ptxas disagrees.\n"
      << "# compiler: " << table.compiler << "\n"
      << "# taken: " << table.taken << "\n"
      << kCsvColumns << "\n";
  std::vector<CompiledResources> rows = table.rows;
  std::stable_sort(rows.begin(), rows.end(), [](const CompiledResources& a, const CompiledResources& b) {
    return std::tie(a.arch, a.kind, a.tile) < std::tie(b.arch, b.kind, b.tile);
  });
  for (const CompiledResources& r : rows)
    out << r.arch << ',' << kernel_info(r.kind).name << ',' << r.tile << ',' << r.registers << ','
        << r.static_shared_bytes << ',' << r.stack_bytes << ',' << r.spill_bytes << ',' << r.barriers << ','
        << r.max_threads_per_block << '\n';
  return out.str();
}

ResourceTable parse_resource_csv(const std::string& text) {
  ResourceTable t;
  std::istringstream in(text);
  std::string line;
  bool columns = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (std::string v = header_value(line, "compiler"); !v.empty()) t.compiler = v;
      if (std::string v = header_value(line, "taken"); !v.empty()) t.taken = v;
      continue;
    }
    if (!columns) {
      if (line != kCsvColumns)
        throw std::runtime_error("kernel_resources.csv line " + std::to_string(number) + ": expected the columns " +
                                 std::string(kCsvColumns));
      columns = true;
      continue;
    }
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) f.push_back(field);
    if (f.size() != 9)
      throw std::runtime_error("kernel_resources.csv line " + std::to_string(number) + ": " + std::to_string(f.size()) +
                               " fields, expected 9");
    const auto kind = find_kernel(f[1]);
    if (!kind)
      throw std::runtime_error("kernel_resources.csv line " + std::to_string(number) + ": unknown kernel '" + f[1] + "'");
    CompiledResources r;
    r.arch = to_int(f[0], number);
    r.kind = *kind;
    r.tile = to_int(f[2], number);
    r.registers = to_int(f[3], number);
    r.static_shared_bytes = to_int(f[4], number);
    r.stack_bytes = to_int(f[5], number);
    r.spill_bytes = to_int(f[6], number);
    r.barriers = to_int(f[7], number);
    r.max_threads_per_block = to_int(f[8], number);
    t.rows.push_back(r);
  }
  if (!columns) throw std::runtime_error("kernel_resources.csv: no column line");
  if (t.compiler.empty() || t.taken.empty())
    throw std::runtime_error("kernel_resources.csv: the header must name the compiler and the date taken");
  return t;
}

}  // namespace ts
