// ncu_table.cpp — the trace-vs-hardware table: JSON, comparison, Markdown.
#include "app/core/analysis/ncu_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "trace/json_integer.h"

namespace ts {
namespace {

// cp.async (LDGSTS) has metrics of its own: its global read (cached 4- and
// 8-byte copies go through L1, "access"; 16-byte .cg copies bypass it), and
// its write into shared memory.
constexpr std::string_view kLdgstsWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";
constexpr std::string_view kLdgstsConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum";
// Issued LDGSTS instructions, guard true or not (the three padding LDS before each follow them).
constexpr std::string_view kLdgstsInstructions = "smsp__inst_executed_op_ldgsts.sum";
// ldmatrix (LDSM, an mma A fragment: one request in the trace) is not an op_ld shared load for ncu.
constexpr std::string_view kLdsmInstructions = "smsp__sass_inst_executed_op_ldsm.sum";
constexpr std::string_view kLdsmWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum";
constexpr std::string_view kLdsmConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum";
// The hardware's shared wavefronts and bank conflicts of LDS and STS.
constexpr std::string_view kLoadWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr std::string_view kLoadConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr std::string_view kStoreWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr std::string_view kStoreConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
// The same wavefronts counted per executed instruction by patching the SASS:
// no traffic but the instructions' own enters them. Nsight Compute 2025.3.1 on
// an H100 (2026-11-25, textbook kernels at N = 4096, TILE 16 and 32) found the
// store ones equal to the trace's in every launch, and the hardware counters
// above them by exactly the conflicts the trace lacks. This ncu has no
// SASS-level bank-conflict metric for LDS and STS (only ldgsts, ldsm, stsm).
constexpr std::string_view kSassLoadWavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr std::string_view kSassStoreWavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr std::string_view kSassLdsmWavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum";
constexpr std::string_view kSassLdgstsWavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";

// The trace counts a cp.async as a global load request (its read) and a
// shared store request (its write). As Nsight Compute 2025.3 measured it on
// an H100 (double-buffer, 2026-11-23, assets/ncu/): op_ld's requests and
// sectors already hold LDGSTS's reads (its op_ldgsts_cache_* metrics count
// the 4-byte copies a second time), while the shared-store instructions
// leave LDGSTS out: its issued instructions are added there, and its
// wavefronts and conflicts to op_st's. An ldmatrix is a shared load request,
// which ncu counts under op_ldsm.
constexpr CounterPair kPairs[] = {
    {"global_load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global load requests"},
    {"global_load_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global load sectors"},
    {"global_store_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global store requests"},
    {"global_store_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global store sectors"},
    {"shared_load_requests", "smsp__sass_inst_executed_op_shared_ld.sum", "shared load instructions",
     {kLdsmInstructions}},
    {"shared_load_wavefronts", kLoadWavefronts, "shared load wavefronts", {kLdsmWavefronts}},
    {"shared_bank_conflicts_load", kLoadConflicts, "shared load bank conflicts", {kLdsmConflicts}},
    {"shared_store_requests", "smsp__sass_inst_executed_op_shared_st.sum", "shared store instructions",
     {kLdgstsInstructions}},
    {"shared_store_wavefronts", kStoreWavefronts, "shared store wavefronts", {kLdgstsWavefronts}},
    {"shared_bank_conflicts_store", kStoreConflicts, "shared store bank conflicts", {kLdgstsConflicts}},
};

// Instruction counts and per-instruction wavefronts that explain the
// differences; not compared on their own. An ncu that lacks one leaves it out
// of the table (scripts/gpu-checks.d/70-counters-vs-ncu.sh keeps the metrics
// it lists): what needs it is then shown as not measured.
constexpr std::string_view kExtraMetrics[] = {"smsp__sass_inst_executed_op_global_ld.sum",
                                              "smsp__sass_inst_executed_op_global_st.sum",
                                              kLdgstsInstructions,
                                              kSassLoadWavefronts,
                                              kSassStoreWavefronts,
                                              kSassLdsmWavefronts,
                                              kSassLdgstsWavefronts};

// One kind of shared-memory instruction of a pair: the hardware's wavefronts
// and conflicts, and its wavefronts counted per instruction. A pair's first
// is LDS or STS; the second what CounterPair::ncu_added adds to it.
struct SharedMetrics {
  std::string_view wavefronts, conflicts, sass_wavefronts;
};
constexpr SharedMetrics kSharedLoadMetrics[] = {{kLoadWavefronts, kLoadConflicts, kSassLoadWavefronts},
                                                {kLdsmWavefronts, kLdsmConflicts, kSassLdsmWavefronts}};
constexpr SharedMetrics kSharedStoreMetrics[] = {{kStoreWavefronts, kStoreConflicts, kSassStoreWavefronts},
                                                 {kLdgstsWavefronts, kLdgstsConflicts, kSassLdgstsWavefronts}};

std::string fixed(double v, int digits) {
  if (std::isnan(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Whether SASS key op (with its modifiers, "LDS.128") is the opcode prefix or one of its variants.
bool is_op(std::string_view op, std::string_view prefix) {
  return op.rfind(prefix, 0) == 0 && (op.size() == prefix.size() || op[prefix.size()] == '.');
}

// "LDS.128 x8, LDS x16" for the opcodes whose name starts with prefix.
std::string sass_summary(const NcuRow& row, std::string_view prefix) {
  std::string out;
  for (const auto& [op, count] : row.sass) {
    if (!is_op(op, prefix)) continue;
    if (!out.empty()) out += ", ";
    out += op + " x" + std::to_string(count);
  }
  return out.empty() ? "" : " (SASS: " + out + ")";
}

// Static count of the SASS keys that start with prefix ("@P STS" counts "@P STS RZ" and "@P STS.128 RZ").
int sass_count(const NcuRow& row, std::string_view prefix) {
  int n = 0;
  for (const auto& [op, count] : row.sass)
    if (std::string_view(op).rfind(prefix, 0) == 0) n += count;
  return n;
}

double value_or(const std::map<std::string, double>& m, std::string_view key, double fallback) {
  const auto it = m.find(std::string(key));
  return it == m.end() ? fallback : it->second;
}

// The trace's counter of a pair. Shared loads as compiled where the row has
// them (the key with "_compiled": adjacent 4-byte loads merged as ptxas merges
// them, compiled_loads.h), which is what ncu counts; tables made before
// 2026-11-26 have only the source's loads, one per float read.
double trace_value(const NcuRow& row, std::string_view key) {
  if (key == "shared_load_requests" || key == "shared_load_wavefronts" || key == "shared_bank_conflicts_load")
    if (const double v = value_or(row.trace, std::string(key) + "_compiled", std::nan("")); !std::isnan(v)) return v;
  return value_or(row.trace, key, std::nan(""));
}

// ncu's value of a pair: its metric plus the added ones the row has (NaN without the metric).
double hardware_value(const NcuRow& row, const CounterPair& p) {
  double v = value_or(row.hardware, p.ncu_metric, std::nan(""));
  for (std::string_view added : p.ncu_added)
    if (!added.empty()) v += value_or(row.hardware, added, 0);
  return v;
}

bool same(double a, double b) { return std::fabs(a - b) < 0.5; }

// The shared loads' or stores' wavefronts as ncu counts them per executed
// instruction; outside: the hardware counter's wavefronts beyond those;
// conflicts: the hardware's conflicts less those, what the instructions'
// own wavefronts leave if every outside wavefront is counted as a conflict
// (the hardware counter's wavefronts less its conflicts are then the
// instructions' ideal ones). NaN where a metric they need is absent: the
// LDS/STS ones, or those of an added kind (ldmatrix, cp.async) the launch used.
struct PerInstruction {
  double wavefronts = 0, outside = 0, conflicts = 0;
};
PerInstruction per_instruction(const NcuRow& row, bool load) {
  const double nan = std::nan("");
  PerInstruction p;
  bool first = true;
  for (const SharedMetrics& m : load ? kSharedLoadMetrics : kSharedStoreMetrics) {
    const double w = value_or(row.hardware, m.wavefronts, nan), c = value_or(row.hardware, m.conflicts, nan),
                 s = value_or(row.hardware, m.sass_wavefronts, nan);
    const bool used = first || w > 0 || c > 0 || s > 0;  // NaN > 0 is false
    first = false;
    if (!used) continue;
    p.wavefronts += s;
    p.outside += w - s;
    p.conflicts += c - (w - s);
  }
  return p;
}

struct Explanation {
  std::string why;
  bool explained = true;
};

// Where a launch's copies write shared memory at a cost the model does not
// give (docs/memory-analysis.md, "A sweep of copy patterns"): zero fills, where
// the tiles have edges; else 16-byte copies, which cost more in some layouts.
std::string copy_rule_limits(const NcuRow& row) {
  if (row.edges)
    return "; at this size part of its copies are zero fills, which took no fixed number of wavefronts when measured";
  if (sass_count(row, "LDGSTS.E.BYPASS.128") > 0)
    return "; its 16-byte copies (LDGSTS.E.BYPASS.128) take more wavefronts than a store where they land in padded "
           "rows, and no rule was found for them (measured on an H100 over 98 patterns)";
  return "";
}

// Why a pair differs, from what else the row says about the same launch.
Explanation explain(const NcuRow& row, const CounterPair& pair, double trace, double hardware) {
  const std::string_view key = pair.trace_key;
  const bool shared = key.rfind("shared_", 0) == 0;
  const bool load = key.find("load") != std::string_view::npos;
  const bool conflicts = key.find("conflicts") != std::string_view::npos;
  const bool wavefronts = key.find("wavefronts") != std::string_view::npos;
  const bool requests = key.find("requests") != std::string_view::npos;
  double trace_requests = trace_value(row, shared ? (load ? "shared_load_requests" : "shared_store_requests")
                                                  : (load ? "global_load_requests" : "global_store_requests"));
  if (std::isnan(trace_requests)) trace_requests = 0;
  // The hardware's instructions of the same kind; a cp.async is one global read and one shared write.
  double instructions = value_or(row.hardware,
                                 shared ? (load ? "smsp__sass_inst_executed_op_shared_ld.sum"
                                                : "smsp__sass_inst_executed_op_shared_st.sum")
                                        : (load ? "smsp__sass_inst_executed_op_global_ld.sum"
                                                : "smsp__sass_inst_executed_op_global_st.sum"),
                                 -1);
  const double ldgsts_issued = value_or(row.hardware, kLdgstsInstructions, 0);
  if (instructions >= 0 && shared != load) instructions += ldgsts_issued;  // global loads, shared stores
  if (instructions >= 0 && shared && load) instructions += value_or(row.hardware, kLdsmInstructions, 0);
  const std::string sass = sass_summary(row, shared ? (load ? "LDS" : "STS") : (load ? "LDG" : "STG"));
  const int ldgsts_static = sass_count(row, "LDGSTS"), padding_static = sass_count(row, "@!PT LDS");
  const std::string edges = row.edges ? "; at this size part of each block tile lies past the matrices, where the "
                                        "bounds tests switch lanes off and zero-fill slots"
                                      : "";

  // Shared wavefronts and conflicts per executed instruction, where the row
  // has them: whether the hardware counter's excess lies outside the
  // instructions, i.e. per instruction Nsight's conflicts are the trace's (and
  // on a wavefronts row its wavefronts too).
  const PerInstruction per = per_instruction(row, load);
  const bool per_measured = shared && (wavefronts || conflicts) && !std::isnan(per.conflicts);
  const double trace_w = trace_value(row, load ? "shared_load_wavefronts" : "shared_store_wavefronts");
  const double trace_c = trace_value(row, load ? "shared_bank_conflicts_load" : "shared_bank_conflicts_store");
  const bool outside_fits = per_measured && per.outside > 0.5 && same(per.conflicts, trace_c) &&
                            (conflicts || same(per.wavefronts, trace_w));
  // The reasons that use the per-instruction counts, built only where one is returned
  // (compare_row runs on every frame the Trace vs Nsight Compute panel draws).
  const std::string_view per_metric = load ? kSassLoadWavefronts : kSassStoreWavefronts;
  const auto outside_why = [&] {
    return "measured: Nsight's per-instruction count (" + std::string(per_metric) + ", SASS-patched) is " +
           fixed(per.wavefronts, 0) + " wavefronts" +
           (same(per.wavefronts, trace_w) ? ", the trace's"
                                          : " (the trace, counting 4-byte accesses: " + fixed(trace_w, 0) + ")") +
           "; the hardware counter's " + fixed(per.outside, 0) + " wavefronts beyond it, all counted as conflicts (" +
           fixed(per.conflicts + per.outside, 0) + " = the trace's " + fixed(trace_c, 0) + " + " +
           fixed(per.outside, 0) +
           "), come from outside this launch's instructions (other traffic on the shared-memory banks; which traffic "
           "was not measured)";
  };
  const auto per_unexplained = [&] {
    return "unexplained: per executed instruction (" + std::string(per_metric) + ", SASS-patched) Nsight counts " +
           fixed(per.wavefronts, 0) + " wavefronts and, less the hardware counter's " + fixed(per.outside, 0) +
           " beyond those, " + fixed(per.conflicts, 0) + " conflicts; the trace " + fixed(trace_w, 0) + " and " +
           fixed(trace_c, 0) + sass + edges;
  };
  // Where another rule explains a wavefronts row: the part of the hardware's count that no instruction made.
  const auto outside_note = [&]() -> std::string {
    if (!per_measured || per.outside <= 0.5) return "";
    return "; Nsight's per-instruction count (SASS-patched) is " + fixed(per.wavefronts, 0) +
           ", and the hardware counter's " + fixed(per.outside, 0) +
           " more wavefronts come from outside this launch's instructions";
  };
  constexpr std::string_view not_measured =
      "not measured for this launch (the table has no per-instruction, SASS-level wavefronts): Nsight's counter may "
      "also count wavefronts added by other traffic on the shared-memory banks (other warps, L1 fills), as it did "
      "in the textbook kernels on an H100 (docs/memory-analysis.md)";

  if (conflicts && hardware > trace && outside_fits) return {outside_why()};
  if (conflicts && trace == 0 && hardware > 0 && !per_measured)
    return {"conflicts the trace does not see: within each recorded instruction the lanes hit distinct banks (or "
            "the same word); " + std::string(not_measured)};

  // A kernel whose every shared store is a cp.async: ncu's op_st counters see none of its writes.
  const double sts_executed = instructions - ldgsts_issued;
  if (shared && !load && (wavefronts || conflicts) && hardware == 0 && trace > 0 && ldgsts_issued > 0 &&
      same(sts_executed, 0)) {
    const std::string all_copies = "every shared store of this kernel is a cp.async (LDGSTS, " +
                                   fixed(ldgsts_issued, 0) + " issued, no STS executed), and ncu's op_st wavefront "
                                   "and conflict counters stay at 0: they do not count LDGSTS's shared writes";
    if (wavefronts && !std::isnan(per.wavefronts)) {  // the SASS-level op_ldgsts wavefronts were measured
      std::string measured = all_copies + "; per executed instruction (" + std::string(kSassLdgstsWavefronts) +
                             ", SASS-patched) Nsight counts " + fixed(per.wavefronts, 0) + " wavefronts";
      if (same(per.wavefronts, trace)) return {measured + ", the trace's"};
      return {measured + ", the trace " + fixed(trace, 0) + copy_rule_limits(row)};
    }
    return {all_copies + ", and no hardware metric of this ncu does (..._op_ldgsts wavefronts: n/a), so the trace's "
            "figure, its copies' writes counted as a store's, cannot be checked against the hardware here"};
  }

  // 16-byte copies that bypass L1 (cp.async.cg) into padded shared rows: the
  // hardware counts more sectors than their bytes occupy (measured, not modelled).
  const bool sectors = key.find("sectors") != std::string_view::npos;
  const int bypass_static = sass_count(row, "LDGSTS.E.BYPASS.128");
  const int plain_loads_static = sass_count(row, "LDG") - ldgsts_static;  // LDG.E..., not LDGSTS
  const double extra_per_copy = ldgsts_issued > 0 ? (hardware - trace) / ldgsts_issued : 0;
  if (!shared && load && sectors && hardware > trace && bypass_static > 0 && plain_loads_static == 0 &&
      extra_per_copy <= 16) {
    return {"measured on an H100, not modelled (scripts/gpu-checks.d/76-copy-sectors.sh, docs/memory-analysis.md): "
            "a warp's 16-byte cp.async.cg copies (LDGSTS.E.BYPASS.128) count more sectors than their bytes occupy "
            "when they land in padded shared rows, by how the rows lie: 8 rows x 64 bytes into rows padded to 80 "
            "bytes (tf32-tensor-core's As) 20 sectors a copy, 2 x 256 bytes into 288-byte rows (its Bs) 16, other "
            "padded layouts 18 to 24; unpadded, or by cp.async.ca, 16 in every layout tried; the trace counts the "
            "sectors the bytes occupy. Here ncu counts " +
            fixed(hardware - trace, 0) + " more, " + fixed(extra_per_copy, 2) + " per copy executed (" +
            fixed(ldgsts_issued, 0) + ")" + edges};
  }

  // cp.async's padding: before each LDGSTS the compiler puts LDS instructions whose guard is never true.
  if (shared && load && requests && hardware > trace && ldgsts_issued > 0) {
    const double per = ldgsts_static > 0 && padding_static > 0 ? double(padding_static) / ldgsts_static : 3.0;
    if (same(hardware - trace, per * ldgsts_issued))
      return {"the compiler pads each cp.async (LDGSTS, " + fixed(ldgsts_issued, 0) + " issued) with " + fixed(per, 0) +
              " shared loads that never execute (`@!PT LDS RZ, [RZ]`" +
              (padding_static > 0 ? ", " + std::to_string(padding_static) + " in the SASS" : std::string()) +
              "); ncu counts them as executed shared-load instructions, " + fixed(hardware - trace, 0) +
              " = " + fixed(per, 0) + " x " + fixed(ldgsts_issued, 0) + " more than the kernel's own loads, with no lanes and no wavefronts"};
  }

  // A store of the zero register under a guard, beside the store or copy of the value.
  const int zero_stores = sass_count(row, "@P STS");
  if (shared && !load && requests && hardware > trace && zero_stores > 0) {
    return {"the plain build writes an out-of-bounds slot's zero with a separate STS under the bounds test (SASS: " +
            std::to_string(zero_stores) + " guarded `STS [..], RZ`)" +
            ", next to the store or cp.async of the value; the numbers fit ncu counting such an instruction for every "
            "warp that issues it, even when its guard is false on all lanes: " + fixed(hardware / trace, 2) +
            " instructions per recorded request, where the trace records one store per element" + edges};
  }

  const bool merged = instructions > 0 && instructions < trace_requests - 0.5;

  // Merging makes fewer requests, sectors and wavefronts, never more: where
  // ncu counts more (cp.async's copies counted apart), no rule here applies.
  if (merged && (conflicts || (hardware < trace && hardware > 0))) {
    const std::string per = fixed(trace_requests / instructions, 2);
    if (requests)
      return {"the compiler merged accesses: " + per + " of the trace's 4-byte accesses per executed instruction" +
              sass + "; the trace records each float the source reads"};
    if (wavefronts)
      return {"wider accesses (" + per + " floats per instruction on average) are counted per instruction: a 128-bit "
              "shared load of 32 lanes takes 4 wavefronts when they read 512 distinct bytes, 2 when they all read the "
              "same 16 bytes; the trace counts wavefronts of 4-byte accesses" + outside_note()};
    if (conflicts)
      return {"Nsight counts conflicts as wavefronts beyond a wide access's own minimum (4 for 128-bit); the trace "
              "counts them per 4-byte access: the same layout, counted over different instructions"};
    return {"the compiler merged accesses into wider ones" + sass + ": sectors are counted per instruction"};
  }
  if (instructions > trace_requests + 0.5 && requests)
    return {"the hardware executed more instructions than the trace has warp-level accesses" + sass +
            ": an access the source makes once may be issued twice (e.g. split at a predicate)" + edges};
  // Copies whose wavefronts per instruction are the trace's: ncu has no per-instruction LDGSTS conflicts.
  if (shared && !load && conflicts && hardware > trace && ldgsts_issued > 0 && same(sts_executed, 0) &&
      !std::isnan(per.wavefronts) && same(per.wavefronts, trace_w))
    return {"every shared store of this kernel is a cp.async (LDGSTS, " + fixed(ldgsts_issued, 0) +
            " issued); per executed instruction Nsight's wavefronts are the trace's (" + fixed(trace_w, 0) +
            ", SASS-patched), but ncu has no per-instruction conflict metric for LDGSTS, so where the hardware "
            "counter's " + fixed(hardware - trace, 0) + " conflicts beyond the trace's come from was not measured: "
            "other traffic on the shared-memory banks added to the counter in the textbook kernels on an H100 "
            "(docs/memory-analysis.md)"};
  if (conflicts && hardware > trace) {
    if (per_measured) return {per_unexplained(), false};
    return {"more conflicts than the trace's instructions make; " + std::string(not_measured)};
  }
  if (wavefronts && hardware > trace && per_measured)
    return outside_fits ? Explanation{outside_why()} : Explanation{per_unexplained(), false};
  // Extra wavefronts that ncu also counts as conflicts: the conflicts row says why.
  if (wavefronts && hardware > trace) {
    const std::string_view conflicts_key = load ? "shared_bank_conflicts_load" : "shared_bank_conflicts_store";
    for (const CounterPair& p : kPairs)
      if (p.trace_key == conflicts_key) {
        const double trace_c = trace_value(row, conflicts_key), hw_c = hardware_value(row, p);
        if (!std::isnan(trace_c) && !std::isnan(hw_c) && same(hw_c - trace_c, hardware - trace))
          return {"as many extra wavefronts as extra bank conflicts (" + fixed(hardware - trace, 0) +
                  "): ncu counts each as a conflict, see that row"};
      }
  }
  return {"unexplained: both count the same warp-level instructions of the same launch" + sass + edges, false};
}

// ncu's counters are exact counts: equal, or within 1% (close), or not.
Agreement agreement_of(double trace, double ncu) {
  const double diff = std::fabs(trace - ncu), scale = std::max(std::fabs(trace), std::fabs(ncu));
  if (diff < 0.5) return Agreement::Equal;
  return diff <= 0.01 * scale ? Agreement::Close : Agreement::Differs;
}

// A shared wavefronts or conflicts pair's per-instruction count (NaN for other pairs, or where not measured).
double per_instruction_value(const NcuRow& row, const CounterPair& p) {
  const std::string_view key = p.trace_key;
  const bool wavefronts = key == "shared_load_wavefronts" || key == "shared_store_wavefronts";
  if (!wavefronts && key.rfind("shared_bank_conflicts_", 0) != 0) return std::nan("");
  const PerInstruction per = per_instruction(row, key.find("load") != std::string_view::npos);
  return wavefronts ? per.wavefronts : per.conflicts;
}

}  // namespace

std::span<const CounterPair> compared_counters() { return kPairs; }

std::vector<std::string> ncu_metrics() {
  std::vector<std::string> out;
  auto add = [&](std::string_view m) {
    if (!m.empty() && std::find(out.begin(), out.end(), m) == out.end()) out.emplace_back(m);
  };
  for (const CounterPair& p : kPairs) {
    add(p.ncu_metric);
    for (std::string_view m : p.ncu_added) add(m);
  }
  for (std::string_view m : kExtraMetrics) add(m);
  return out;
}

const NcuRow* NcuTable::find(std::string_view kernel, int tile, int n) const {
  for (const NcuRow& r : rows)
    if (r.kernel == kernel && (r.tile == tile || r.tile == 0) && r.n == n) return &r;
  return nullptr;
}

nlohmann::json ncu_table_to_json(const NcuTable& t) {
  nlohmann::json rows = nlohmann::json::array();
  for (const NcuRow& r : t.rows)
    rows.push_back({{"kernel", r.kernel}, {"tile", r.tile}, {"n", r.n}, {"edges", r.edges}, {"trace", r.trace},
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
      row.edges = r.value("edges", false);
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
    c.trace = trace_value(row, p.trace_key);
    c.hardware = hardware_value(row, p);
    c.per_instruction = per_instruction_value(row, p);
    if (!std::isnan(c.per_instruction) && !std::isnan(c.trace))
      c.per_instruction_agreement = agreement_of(c.trace, c.per_instruction);
    if (std::isnan(c.trace) || std::isnan(c.hardware)) {
      c.why = std::isnan(c.hardware) ? "ncu did not measure it" : "the trace has no such counter";
      out.push_back(c);
      continue;
    }
    c.agreement = agreement_of(c.trace, c.hardware);
    if (c.agreement != Agreement::Equal) {
      Explanation e = explain(row, p, c.trace, c.hardware);
      c.why = std::move(e.why);
      c.explained = e.explained;
    }
    out.push_back(std::move(c));
  }
  return out;
}

bool has_per_instruction_counts(const NcuTable& table) {
  for (const NcuRow& r : table.rows)
    for (const CounterPair& p : kPairs)
      if (!std::isnan(per_instruction_value(r, p))) return true;
  return false;
}

std::string ncu_table_markdown(const NcuTable& t) {
  std::string md = "# Memory counters: trace vs Nsight Compute\n\n";
  md += "GPU: " + t.gpu + "  \nprofiled: " + t.date + " (" + t.ncu_version + ", commit " + t.commit + ")  \n";
  md += "traces recorded by: " + t.trace_device + "\n\n";
  md += "TILE - : a rung of the ladder (fixed tiles). ncu's global load and shared store counts include cp.async "
        "(LDGSTS): op_ld's requests and sectors hold its reads, and its issued instructions, wavefronts and "
        "conflicts are added to op_st's, as the trace counts a copy as a global load and a shared store; its shared "
        "loads include ldmatrix (op_ldsm). The trace's shared loads are counted as compiled where the row has them "
        "(adjacent 4-byte loads of a thread merged into 8- and 16-byte ones as ptxas merges them, "
        "app/core/analysis/compiled_loads.h), as one request per float read where it does not (rows recorded before "
        "2026-11-26).";
  std::vector<std::vector<CounterComparison>> compared;
  int unexplained = 0;
  for (const NcuRow& r : t.rows) {
    compared.push_back(compare_row(r));
    for (const CounterComparison& c : compared.back()) unexplained += !c.explained;
  }
  const bool per_instruction = has_per_instruction_counts(t);  // show their columns
  md += " Differences no rule explains: " + std::to_string(unexplained) + " (marked \"unexplained\").\n\n";
  if (per_instruction)
    md += "ncu per instruction: shared wavefronts as Nsight counts them per executed instruction by patching the "
          "SASS (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld/_st, no other traffic enters them); for "
          "bank conflicts, which no SASS-level metric counts for LDS and STS, those wavefronts less the ones the "
          "hardware counter did not count as conflicts. \"-\": not measured.\n\n";
  md += per_instruction ? "| kernel | TILE | N | counter | trace | ncu | agreement | ncu per instruction | agreement "
                          "per instruction | why |\n|---|---|---|---|---|---|---|---|---|---|\n"
                        : "| kernel | TILE | N | counter | trace | ncu | agreement | why |\n|---|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const NcuRow& r = t.rows[i];
    for (const CounterComparison& c : compared[i]) {
      md += "| " + r.kernel + " | " + (r.tile == 0 ? std::string("-") : std::to_string(r.tile)) + " | " + std::to_string(r.n) + " | " +
            std::string(c.pair->label) + " | " + fixed(c.trace, 0) + " | " + fixed(c.hardware, 0) + " | " +
            agreement_name(c.agreement) + " | ";
      if (per_instruction)
        md += fixed(c.per_instruction, 0) + " | " +
              (std::isnan(c.per_instruction) ? std::string("-") : agreement_name(c.per_instruction_agreement)) + " | ";
      md += c.why + " |\n";
    }
  }
  return md;
}

}  // namespace ts
