// ncu_table.cpp — the trace-vs-hardware table: JSON, comparison, Markdown.
#include "app/core/analysis/ncu_table.h"

#include <cmath>
#include <cstdio>
#include <fstream>

#include "app/core/json_integer.h"

namespace ts {
namespace {

constexpr CounterPair kPairs[] = {
    {"global_load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global load requests"},
    {"global_load_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global load sectors"},
    {"global_store_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global store requests"},
    {"global_store_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global store sectors"},
    {"shared_load_requests", "smsp__sass_inst_executed_op_shared_ld.sum", "shared load instructions"},
    {"shared_load_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared load wavefronts"},
    {"shared_bank_conflicts_load", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared load bank conflicts"},
    {"shared_store_requests", "smsp__sass_inst_executed_op_shared_st.sum", "shared store instructions"},
    {"shared_store_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared store wavefronts"},
    {"shared_bank_conflicts_store", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared store bank conflicts"},
};

// Instruction counts that explain the differences; not compared on their own.
constexpr std::string_view kExtraMetrics[] = {"smsp__sass_inst_executed_op_global_ld.sum",
                                              "smsp__sass_inst_executed_op_global_st.sum"};

std::string fixed(double v, int digits) {
  if (std::isnan(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// "LDS.128 x8, LDS x16" for the opcodes whose name starts with prefix.
std::string sass_summary(const NcuRow& row, std::string_view prefix) {
  std::string out;
  for (const auto& [op, count] : row.sass) {
    if (op.rfind(prefix, 0) != 0 || (op.size() > prefix.size() && op[prefix.size()] != '.')) continue;
    if (!out.empty()) out += ", ";
    out += op + " x" + std::to_string(count);
  }
  return out.empty() ? "" : " (SASS: " + out + ")";
}

double value_or(const std::map<std::string, double>& m, std::string_view key, double fallback) {
  const auto it = m.find(std::string(key));
  return it == m.end() ? fallback : it->second;
}

// Why a pair differs, from what else the row says about the same launch.
std::string explain(const NcuRow& row, const CounterPair& pair, double trace, double hardware) {
  const std::string_view key = pair.trace_key;
  const bool shared = key.rfind("shared_", 0) == 0;
  const bool load = key.find("load") != std::string_view::npos;
  const double trace_requests = value_or(row.trace, shared ? (load ? "shared_load_requests" : "shared_store_requests")
                                                           : (load ? "global_load_requests" : "global_store_requests"), 0);
  const double instructions = value_or(row.hardware,
                                       shared ? (load ? "smsp__sass_inst_executed_op_shared_ld.sum"
                                                      : "smsp__sass_inst_executed_op_shared_st.sum")
                                              : (load ? "smsp__sass_inst_executed_op_global_ld.sum"
                                                      : "smsp__sass_inst_executed_op_global_st.sum"),
                                       -1);
  const std::string sass = sass_summary(row, shared ? (load ? "LDS" : "STS") : (load ? "LDG" : "STG"));
  const bool conflicts = key.find("conflicts") != std::string_view::npos;
  if (conflicts && trace == 0 && hardware > 0)
    return "conflicts the trace does not see: within each recorded instruction the lanes hit distinct banks (or "
           "the same word); untested hypothesis: Nsight's counter also counts wavefronts added by other traffic "
           "on the shared-memory banks (other warps, L1 fills)";
  const bool merged = instructions > 0 && instructions < trace_requests;
  if (merged) {
    const std::string per = fixed(trace_requests / instructions, 2);
    if (key.find("requests") != std::string_view::npos)
      return "the compiler merged accesses: " + per + " of the trace's 4-byte accesses per executed instruction" +
             sass + "; the trace records each float the source reads";
    if (key.find("wavefronts") != std::string_view::npos)
      return "wider accesses (" + per + " floats per instruction on average) move more bytes each: a 128-bit "
             "shared load of 32 lanes is 512 bytes, at least 4 wavefronts; the trace counts wavefronts of 4-byte accesses";
    if (conflicts)
      return "Nsight counts conflicts as wavefronts beyond a wide access's own minimum (4 for 128-bit); the trace "
             "counts them per 4-byte access: the same layout, counted over different instructions";
    return "the compiler merged accesses into wider ones" + sass + ": sectors are counted per instruction";
  }
  if (instructions > trace_requests && key.find("requests") != std::string_view::npos)
    return "the hardware executed more instructions than the trace has warp-level accesses" + sass +
           ": an access the source makes once may be issued twice (e.g. split at a predicate)";
  if (conflicts && hardware > trace)
    return "more conflicts than the trace's instructions make; untested hypothesis: Nsight's counter also counts "
           "wavefronts added by other traffic on the shared-memory banks (other warps, L1 fills)";
  return "not explained: both count the same warp-level instructions of the same launch" + sass;
}

}  // namespace

std::span<const CounterPair> compared_counters() { return kPairs; }

std::vector<std::string> ncu_metrics() {
  std::vector<std::string> out;
  for (const CounterPair& p : kPairs) out.emplace_back(p.ncu_metric);
  for (std::string_view m : kExtraMetrics) out.emplace_back(m);
  return out;
}

const NcuRow* NcuTable::find(std::string_view kernel, int tile, int n) const {
  for (const NcuRow& r : rows)
    if (r.kernel == kernel && r.tile == tile && r.n == n) return &r;
  return nullptr;
}

nlohmann::json ncu_table_to_json(const NcuTable& t) {
  nlohmann::json rows = nlohmann::json::array();
  for (const NcuRow& r : t.rows)
    rows.push_back({{"kernel", r.kernel}, {"tile", r.tile}, {"n", r.n}, {"trace", r.trace},
                    {"hardware", r.hardware}, {"sass", r.sass}});
  return {{"gpu", t.gpu},         {"date", t.date},   {"ncu_version", t.ncu_version},
          {"commit", t.commit},   {"trace_device", t.trace_device}, {"rows", rows}};
}

NcuTable ncu_table_from_json(const nlohmann::json& j) {
  try {
    NcuTable t;
    t.gpu = j.at("gpu").get<std::string>();
    t.date = j.at("date").get<std::string>();
    t.ncu_version = j.value("ncu_version", "");
    t.commit = j.value("commit", "");
    t.trace_device = j.value("trace_device", "");
    for (const nlohmann::json& r : j.at("rows")) {
      NcuRow row;
      row.kernel = r.at("kernel").get<std::string>();
      row.tile = json_integer_at<int>(r, "tile");
      row.n = json_integer_at<int>(r, "n");
      row.trace = r.at("trace").get<std::map<std::string, double>>();
      row.hardware = r.at("hardware").get<std::map<std::string, double>>();
      if (r.contains("sass"))
        for (const auto& [name, count] : r.at("sass").items()) row.sass[name] = json_integer_or_throw<int>(count);
      t.rows.push_back(std::move(row));
    }
    return t;
  } catch (const nlohmann::json::exception& e) {
    throw NcuTableError(std::string("not an ncu comparison table: ") + e.what());
  }
}

NcuTable load_ncu_table(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw NcuTableError("cannot open " + path.string());
  try {
    return ncu_table_from_json(nlohmann::json::parse(in));
  } catch (const nlohmann::json::exception& e) {
    throw NcuTableError(path.string() + ": not JSON: " + e.what());
  } catch (const NcuTableError& e) {
    throw NcuTableError(path.string() + ": " + e.what());
  }
}

const char* agreement_name(Agreement a) {
  switch (a) {
    case Agreement::Equal: return "equal";
    case Agreement::Close: return "close";
    case Agreement::Differs: return "differs";
    case Agreement::Missing: return "missing";
  }
  return "?";
}

std::vector<CounterComparison> compare_row(const NcuRow& row) {
  std::vector<CounterComparison> out;
  for (const CounterPair& p : kPairs) {
    CounterComparison c;
    c.pair = &p;
    c.trace = value_or(row.trace, p.trace_key, std::nan(""));
    c.hardware = value_or(row.hardware, p.ncu_metric, std::nan(""));
    if (std::isnan(c.trace) || std::isnan(c.hardware)) {
      c.why = std::isnan(c.hardware) ? "ncu did not measure it" : "the trace has no such counter";
      out.push_back(c);
      continue;
    }
    const double diff = std::fabs(c.trace - c.hardware), scale = std::max(std::fabs(c.trace), std::fabs(c.hardware));
    if (diff < 0.5) c.agreement = Agreement::Equal;
    else c.agreement = diff <= 0.01 * scale ? Agreement::Close : Agreement::Differs;
    if (c.agreement != Agreement::Equal) c.why = explain(row, p, c.trace, c.hardware);
    out.push_back(std::move(c));
  }
  return out;
}

std::string ncu_table_markdown(const NcuTable& t) {
  std::string md = "# Memory counters: trace vs Nsight Compute\n\n";
  md += "GPU: " + t.gpu + "  \nprofiled: " + t.date + " (" + t.ncu_version + ", commit " + t.commit + ")  \n";
  md += "traces recorded by: " + t.trace_device + "\n\n";
  md += "| kernel | TILE | N | counter | trace | ncu | agreement | why |\n|---|---|---|---|---|---|---|---|\n";
  for (const NcuRow& r : t.rows)
    for (const CounterComparison& c : compare_row(r)) {
      md += "| " + r.kernel + " | " + std::to_string(r.tile) + " | " + std::to_string(r.n) + " | " +
            std::string(c.pair->label) + " | " + fixed(c.trace, 0) + " | " + fixed(c.hardware, 0) + " | " +
            agreement_name(c.agreement) + " | " + c.why + " |\n";
    }
  return md;
}

}  // namespace ts
