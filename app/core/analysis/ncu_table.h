// ncu_table.h — the trace's memory counters next to Nsight Compute's for the
// same kernel, TILE and size, and why they differ where they do.
//
// A table is recorded on a GPU by scripts/gpu-checks.d/60-memory-vs-ncu.sh,
// committed under assets/ncu/, and shown by the app next to the trace.
#pragma once

#include <array>
#include <filesystem>
#include <limits>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts {

class NcuTableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A counter of the trace (as in `tilescope stats --json`) and the Nsight
// Compute metric that counts the same thing on the hardware, plus the metrics
// added to it: the trace counts a cp.async copy (LDGSTS) as a global load and
// a shared store, ncu under op_ldgsts metrics of their own, apart from op_ld
// and op_st. An added metric a table lacks (one profiled before they were
// asked for, when no kernel used cp.async) counts as absent, not as zero.
struct CounterPair {
  std::string_view trace_key;
  std::string_view ncu_metric;
  std::string_view label;
  std::array<std::string_view, 2> ncu_added{};  // empty: none
};
std::span<const CounterPair> compared_counters();
// Every metric the table asks ncu for: the compared ones and the instruction counts.
std::vector<std::string> ncu_metrics();

struct NcuRow {
  std::string kernel;  // catalog name, e.g. "tiled-transposed"
  int tile = 0, n = 0;  // M = N = K = n; TILE 0: a rung of the ladder (fixed tiles, no TILE)
  bool edges = false;   // some block tiles reach past the matrices (zero-filled slots, guarded stores)
  std::map<std::string, double> trace;     // trace_key -> value
  std::map<std::string, double> hardware;  // ncu metric -> value
  std::map<std::string, int> sass;         // static memory instructions of the kernel, by opcode
};

struct NcuTable {
  std::string gpu;            // the GPU ncu profiled
  std::string date;           // ISO 8601, UTC
  std::string ncu_version;
  std::string commit;         // of the profiled build
  std::string trace_device;   // what recorded the traces: the GPU's name or "CPU emulator"
  std::vector<NcuRow> rows;

  // A rung's row (TILE 0) is found for any tile asked: its traces carry their k-step as TILE.
  const NcuRow* find(std::string_view kernel, int tile, int n) const;
};

nlohmann::json ncu_table_to_json(const NcuTable& table);
NcuTable ncu_table_from_json(const nlohmann::json& j);  // throws NcuTableError
NcuTable load_ncu_table(const std::filesystem::path& path);  // throws NcuTableError

enum class Agreement { Equal, Close, Differs, Missing };
const char* agreement_name(Agreement a);

struct CounterComparison {
  const CounterPair* pair = nullptr;
  double trace = 0, hardware = 0;  // NaN where not measured; hardware: the metric plus the added ones
  Agreement agreement = Agreement::Missing;
  std::string why;        // empty when they agree
  bool explained = true;  // false: they differ and no rule says why (why starts with "unexplained")
  // Shared wavefronts and bank conflicts only: ncu's count per executed
  // instruction (SASS-patched smsp__sass_l1tex_data_pipe_lsu_wavefronts_*,
  // which no traffic but the instructions' own enters). No such metric counts
  // LDS/STS conflicts: for them it is those wavefronts less the ones the
  // hardware counter did not call conflicts. NaN (Missing) where the row
  // lacks the SASS-level metrics, as tables profiled before they were asked for do.
  double per_instruction = std::numeric_limits<double>::quiet_NaN();
  Agreement per_instruction_agreement = Agreement::Missing;
};
// ncu's counters are exact counts, so agreement means equal; a difference
// under 1% is shown as close rather than hidden.
std::vector<CounterComparison> compare_row(const NcuRow& row);

// Whether some row has Nsight's per-instruction (SASS-level) shared
// wavefronts, i.e. some comparison's per_instruction is a number.
bool has_per_instruction_counts(const NcuTable& table);

// The whole table as Markdown: one line per launch and counter pair.
std::string ncu_table_markdown(const NcuTable& table);

}  // namespace ts
