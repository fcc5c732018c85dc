// launch_json.cpp — the launch description as JSON.
#include "trace/launch_json.h"

#include <optional>

#include "trace/json_integer.h"

namespace ts {
namespace {

using nlohmann::json;

nlohmann::json dim_json(const Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); }

Dim3 dim_from(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 3) throw nlohmann::json::type_error::create(302, "a shape needs 3 numbers", &j);
  return {json_integer_or_throw<std::uint32_t>(j.at(0)), json_integer_or_throw<std::uint32_t>(j.at(1)),
          json_integer_or_throw<std::uint32_t>(j.at(2))};
}

nlohmann::json buffers_json(const LaunchInfo& L) {
  nlohmann::json out = nlohmann::json::array();
  for (const Buffer& b : L.buffers)
    out.push_back({{"name", b.name},
                   {"role", role_name(b.role)},
                   {"type", element_type_name(b.type)},
                   {"rows", b.rows},
                   {"cols", b.cols},
                   {"ld", b.ld},
                   {"order", b.order == MatrixOrder::RowMajor ? "row" : "col"},
                   {"base", b.base}});
  return out;
}

nlohmann::json regions_json(const LaunchInfo& L) {
  nlohmann::json out = nlohmann::json::array();
  for (const Region& r : L.regions)
    out.push_back({{"name", r.name},
                   {"offset", r.offset},
                   {"bytes", r.bytes},
                   {"type", element_type_name(r.type)},
                   {"rows", r.rows},
                   {"cols", r.cols},
                   {"ld", r.ld},
                   {"raw", r.raw}});
  return out;
}

// The five arrays of files of versions 1 and 2.
nlohmann::json arrays_json(const LaunchInfo& L) {
  nlohmann::json arrays = nlohmann::json::array();
  for (int a = 0; a < kArrayCount; ++a) {
    const ArrayLayout l = L.array(static_cast<ArrayId>(a));
    arrays.push_back({{"name", array_name(static_cast<ArrayId>(a))},
                      {"present", l.present},
                      {"base", l.base},
                      {"rows", l.rows},
                      {"cols", l.cols},
                      {"ld", l.ld}});
  }
  return arrays;
}

[[noreturn]] void bad(const nlohmann::json& j, const std::string& what) {
  throw nlohmann::json::type_error::create(302, what, &j);
}

std::string text_at(const nlohmann::json& j, const char* key) { return j.at(key).get<std::string>(); }

void read_tables(const nlohmann::json& j, LaunchInfo& L) {
  const auto& buffers = j.at("buffers");
  const auto& regions = j.at("regions");
  if (!buffers.is_array() || !regions.is_array()) bad(j, "buffers and regions: lists");
  if (buffers.size() + regions.size() > kMaxMemoryIds) bad(j, "more buffers and regions than an event can name");
  for (const auto& x : buffers) {
    Buffer b;
    b.name = text_at(x, "name");
    const auto role = parse_role(text_at(x, "role"));
    const auto type = parse_element_type(text_at(x, "type"));
    const std::string order = text_at(x, "order");
    if (!role || !type || (order != "row" && order != "col")) bad(x, "buffer " + b.name + ": role, type or order");
    b.role = *role;
    b.type = *type;
    b.order = order == "row" ? MatrixOrder::RowMajor : MatrixOrder::ColMajor;
    b.rows = json_integer_at<std::uint32_t>(x, "rows");
    b.cols = json_integer_at<std::uint32_t>(x, "cols");
    b.ld = json_integer_at<std::uint32_t>(x, "ld");
    b.base = json_integer_at<std::uint64_t>(x, "base");
    L.buffers.push_back(std::move(b));
  }
  for (const auto& x : regions) {
    Region r;
    r.name = text_at(x, "name");
    const auto type = parse_element_type(text_at(x, "type"));
    if (!type) bad(x, "region " + r.name + ": type");
    r.type = *type;
    r.offset = json_integer_at<std::uint32_t>(x, "offset");
    r.bytes = json_integer_at<std::uint32_t>(x, "bytes");
    r.rows = json_integer_at<std::uint32_t>(x, "rows");
    r.cols = json_integer_at<std::uint32_t>(x, "cols");
    r.ld = json_integer_at<std::uint32_t>(x, "ld");
    r.raw = x.at("raw").get<bool>();
    L.regions.push_back(std::move(r));
  }
}

// Files of versions 1 and 2: the five arrays, onto the tables.
void read_arrays(const nlohmann::json& arrays, LaunchInfo& L) {
  if (!arrays.is_array() || arrays.size() != kArrayCount) bad(arrays, "arrays: one entry per array");
  for (int a = 0; a < kArrayCount; ++a) {
    const auto& x = arrays.at(a);
    ArrayLayout l;
    l.present = x.at("present").get<bool>();
    l.base = json_integer_at<std::uint64_t>(x, "base");
    l.rows = json_integer_at<std::uint32_t>(x, "rows");
    l.cols = json_integer_at<std::uint32_t>(x, "cols");
    l.ld = json_integer_at<std::uint32_t>(x, "ld");
    // An absent array adds nothing (a launch described without its memory, as
    // a timing recording's is; a trace without A, B or C fails validation).
    if (l.present) L.set_array(static_cast<ArrayId>(a), l);
  }
}

}  // namespace

nlohmann::json launch_to_json(const LaunchInfo& L) {
  const IterationRule& r = L.iteration_rule;
  nlohmann::json j = {{"kernel", L.kernel},
          {"tile", L.tile},
          {"m", L.m},
          {"n", L.n},
          {"k", L.k},
          {"grid", dim_json(L.grid)},
          {"block", dim_json(L.block)},
          {"iteration_rule",
           {{"barriers_per_iteration", r.barriers_per_iteration},
            {"tile", r.tile},
            {"k", r.k},
            {"n", r.n},
            {"iterations", r.iterations},
            {"barriers_before", r.barriers_before},
            {"global_by_k", r.global_by_k}}},
          {"recorder", L.recorder},
          {"device_name", L.device_name},
          {"date", L.date},
          {"seed", L.seed},
          {"buffers", buffers_json(L)},
          {"regions", regions_json(L)}};
  // Readers of files of versions 1 and 2 know the five arrays only.
  if (L.has_own_arrays_only()) j["arrays"] = arrays_json(L);
  const Tiling& t = L.tiling;
  j["tiling"] = {{"block_m", t.block_m}, {"block_n", t.block_n}, {"block_k", t.block_k},
                 {"thread_m", t.thread_m}, {"thread_n", t.thread_n}, {"warp_m", t.warp_m},
                 {"warp_n", t.warp_n},   {"stages", t.stages},     {"a_transposed", t.a_transposed}};
  if (L.focused()) j["traced_blocks"] = L.traced_blocks;  // absent: every block (files written before focused traces)
  if (const auto& u = L.user_kernel) {  // absent: one of tilescope's own kernels
    j["user_kernel"] = {{"file", u->file},
                        {"entry", u->entry},
                        {"defines", u->defines},
                        {"block_tile", nlohmann::json::array({u->tile_rows, u->tile_cols})}};
    if (!u->args.empty()) j["user_kernel"]["args"] = u->args;  // absent: none (and in files written before --arg)
  }
  if (const auto& t = L.tracer)  // absent: recorded by tilescope's own recorders
    j["tracer"] = {{"source", t->source},     {"program", t->program},   {"symbol", t->symbol},
                   {"launches", t->launches}, {"launch_index", t->launch_index}, {"limits", t->limits},
                   {"sass", t->sass},         {"source_file", t->source_file}};
  return j;
}

LaunchInfo launch_from_json(const nlohmann::json& j) {
  LaunchInfo L;
  L.kernel = j.at("kernel").get<std::string>();
  L.tile = json_integer_at<int>(j, "tile");
  L.m = json_integer_at<int>(j, "m");
  L.n = json_integer_at<int>(j, "n");
  L.k = json_integer_at<int>(j, "k");
  L.grid = dim_from(j.at("grid"));
  L.block = dim_from(j.at("block"));
  const auto& r = j.at("iteration_rule");
  L.iteration_rule.barriers_per_iteration = json_integer_at<std::uint32_t>(r, "barriers_per_iteration");
  L.iteration_rule.tile = json_integer_at<std::uint32_t>(r, "tile");
  L.iteration_rule.k = json_integer_at<std::uint32_t>(r, "k");
  L.iteration_rule.n = json_integer_at<std::uint32_t>(r, "n");
  L.iteration_rule.iterations = json_integer_at<std::uint32_t>(r, "iterations");
  // Traces written before pipelined kernels existed have neither: 0 is their rule.
  if (r.contains("barriers_before")) L.iteration_rule.barriers_before = json_integer_at<std::uint32_t>(r, "barriers_before");
  if (r.contains("global_by_k")) L.iteration_rule.global_by_k = json_integer_at<std::uint32_t>(r, "global_by_k");
  // Files written before the ladder's rungs were recorded have no tiling: zeros.
  if (const auto it = j.find("tiling"); it != j.end()) {
    Tiling& t = L.tiling;
    t.block_m = json_integer_at<std::uint32_t>(*it, "block_m");
    t.block_n = json_integer_at<std::uint32_t>(*it, "block_n");
    t.block_k = json_integer_at<std::uint32_t>(*it, "block_k");
    t.thread_m = json_integer_at<std::uint32_t>(*it, "thread_m");
    t.thread_n = json_integer_at<std::uint32_t>(*it, "thread_n");
    t.warp_m = json_integer_at<std::uint32_t>(*it, "warp_m");
    t.warp_n = json_integer_at<std::uint32_t>(*it, "warp_n");
    t.stages = json_integer_at<std::uint32_t>(*it, "stages");
    t.a_transposed = it->at("a_transposed").get<bool>();
  }
  L.recorder = j.at("recorder").get<std::string>();
  L.device_name = j.at("device_name").get<std::string>();
  L.date = j.at("date").get<std::string>();
  L.seed = json_integer_at<std::uint64_t>(j, "seed");
  if (j.contains("buffers")) read_tables(j, L);
  else read_arrays(j.at("arrays"), L);
  if (const auto it = j.find("traced_blocks"); it != j.end()) {
    if (!it->is_array()) throw nlohmann::json::type_error::create(302, "traced_blocks: a list of blocks", &*it);
    const std::uint64_t blocks = L.grid.count();
    for (const auto& b : *it) {
      const auto block = json_integer_or_throw<std::uint32_t>(b);
      if (block >= blocks || (!L.traced_blocks.empty() && block <= L.traced_blocks.back()))
        throw nlohmann::json::type_error::create(302, "traced_blocks: ascending blocks of the grid", &*it);
      L.traced_blocks.push_back(block);
    }
  }
  if (const auto it = j.find("user_kernel"); it != j.end()) {
    UserKernelInfo u;
    u.file = it->at("file").get<std::string>();
    u.entry = it->at("entry").get<std::string>();
    const auto& defines = it->at("defines");
    if (!defines.is_array()) throw nlohmann::json::type_error::create(302, "user_kernel.defines: a list", &defines);
    for (const auto& d : defines) u.defines.push_back(d.get<std::string>());
    if (const auto args = it->find("args"); args != it->end()) {
      if (!args->is_array()) throw nlohmann::json::type_error::create(302, "user_kernel.args: a list", &*args);
      for (const auto& a : *args) u.args.push_back(a.get<std::string>());
    }
    const auto& tile = it->at("block_tile");
    if (!tile.is_array() || tile.size() != 2)
      throw nlohmann::json::type_error::create(302, "user_kernel.block_tile: [rows, cols]", &tile);
    u.tile_rows = json_integer_or_throw<std::uint32_t>(tile.at(0));
    u.tile_cols = json_integer_or_throw<std::uint32_t>(tile.at(1));
    L.user_kernel = std::move(u);
  }
  if (const auto it = j.find("tracer"); it != j.end()) {
    TracerInfo t;
    t.source = it->at("source").get<std::string>();
    t.program = it->at("program").get<std::string>();
    t.symbol = it->at("symbol").get<std::string>();
    for (const char* list : {"launches", "limits", "sass"})
      if (!it->at(list).is_array())
        throw nlohmann::json::type_error::create(302, std::string("tracer.") + list + ": a list", &it->at(list));
    for (const auto& l : it->at("launches")) t.launches.push_back(l.get<std::string>());
    for (const auto& l : it->at("limits")) t.limits.push_back(l.get<std::string>());
    for (const auto& l : it->at("sass")) t.sass.push_back(l.get<std::string>());
    t.source_file = it->at("source_file").get<std::string>();
    t.launch_index = json_integer_at<std::uint32_t>(*it, "launch_index");
    if (!t.launches.empty() && t.launch_index >= t.launches.size())
      throw nlohmann::json::type_error::create(302, "tracer.launch_index: past its launches", &*it);
    L.tracer = std::move(t);
  }
  return L;
}

}  // namespace ts
