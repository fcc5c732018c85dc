// ncu_import.cpp — parse ncu's CSV and cuobjdump's SASS listing.
#include "app/core/analysis/ncu_import.h"

#include <charconv>
#include <regex>

namespace ts {
namespace {

// One CSV line: quoted fields with "" for a quote, or bare fields.
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') field += '"', ++i;
      else if (ch == '"') quoted = false;
      else field += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      out.push_back(std::move(field));
      field.clear();
    } else if (ch != '\r') {
      field += ch;
    }
  }
  out.push_back(std::move(field));
  return out;
}

std::optional<double> parse_number(std::string text) {
  std::erase(text, ',');
  if (text.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// "(16, 16, 1)"
std::optional<Dim3> parse_dim3(const std::string& text) {
  static_assert(sizeof(Dim3::x) == 4);
  std::smatch m;
  const std::regex shape(R"(\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\))");
  if (!std::regex_match(text, m, shape)) return std::nullopt;
  try {
    return Dim3{static_cast<std::uint32_t>(std::stoul(m[1])), static_cast<std::uint32_t>(std::stoul(m[2])),
                static_cast<std::uint32_t>(std::stoul(m[3]))};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<NcuLaunch> parse_ncu_csv(std::istream& in) {
  std::string line;
  std::vector<std::string> header;
  while (std::getline(in, line)) {
    if (line.rfind("\"ID\"", 0) == 0) {
      header = split_csv(line);
      break;
    }
  }
  if (header.empty()) throw NcuImportError("no ncu CSV table (no line starting with \"ID\")");
  auto column = [&](const char* name) -> std::size_t {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    throw NcuImportError(std::string("the ncu CSV has no \"") + name + "\" column");
  };
  const std::size_t c_id = column("ID"), c_kernel = column("Kernel Name"), c_block = column("Block Size"),
                    c_grid = column("Grid Size"), c_metric = column("Metric Name"), c_value = column("Metric Value");
  std::vector<NcuLaunch> launches;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line[0] != '"') continue;  // ==PROF== notes and the program's own output
    const std::vector<std::string> f = split_csv(line);
    auto fail = [&](const std::string& what) {
      return NcuImportError("ncu CSV row " + std::to_string(line_number) + ": " + what);
    };
    if (f.size() != header.size()) throw fail("has " + std::to_string(f.size()) + " fields, the header " +
                                              std::to_string(header.size()));
    const auto id = parse_number(f[c_id]);
    if (!id || *id < 0) throw fail("bad ID \"" + f[c_id] + "\"");
    if (launches.empty() || launches.back().id != static_cast<int>(*id)) {
      NcuLaunch l;
      l.id = static_cast<int>(*id);
      l.kernel_name = f[c_kernel];
      const auto block = parse_dim3(f[c_block]), grid = parse_dim3(f[c_grid]);
      if (!block || !grid) throw fail("bad block or grid size");
      l.block = *block;
      l.grid = *grid;
      launches.push_back(std::move(l));
    }
    // A metric ncu could not collect reads "n/a": leave it out.
    if (const auto v = parse_number(f[c_value])) launches.back().metrics[f[c_metric]] = *v;
  }
  return launches;
}

std::vector<SassCounts> parse_sass(std::istream& in) {
  // The plain kernels are plain_kernel<KernelKind, TILE> and, for the ladder's
  // rungs, plain_rung<KernelKind> (no TILE: kept as TILE 0): the mangled name
  // carries both as integers.
  const std::regex function(R"(Function\s*:\s*\S*plain_(?:kernelILNS_10KernelKindE(\d+)ELi(\d+)E|rungILNS_10KernelKindE(\d+)E))");
  const std::regex memory_op(R"(\b((?:LDGSTS|LDSM|LDS|STS|LDG|STG)(?:\.[A-Z0-9_]+)*)\b)");
  // "@!PT LDS RZ, [RZ]": a guard that is never true (the compiler pads cp.async with these).
  const std::regex never(R"(^\s*@!PT\s)");
  // "@!P0 STS [R17], RZ": a store of zero under a guard (the out-of-bounds branch of a copy).
  const std::regex guarded_zero_store(R"(^\s*@!?P\d\s+ST[SG][.A-Z0-9_]*\s+\[[^\]]*\]\s*,\s*RZ\s*$)");
  std::vector<SassCounts> out;
  std::string line;
  bool in_kernel = false;
  while (std::getline(in, line)) {
    std::smatch m;
    if (line.find("Function") != std::string::npos) {
      in_kernel = std::regex_search(line, m, function);
      const bool rung = in_kernel && m[3].matched;
      if (in_kernel) in_kernel = rung ? m[3].length() < 6 : m[1].length() < 6 && m[2].length() < 6;
      if (in_kernel) {
        SassCounts s;
        s.kind = std::stoi(rung ? m[3] : m[1]);  // short digit runs: stoi cannot fail
        s.tile = rung ? 0 : std::stoi(m[2]);
        out.push_back(std::move(s));
      }
      continue;
    }
    // Instructions look like "/*0120*/  LDS.128 R8, [R2+0x10] ;": skip the address comment.
    const std::size_t at = line.find("*/");
    if (!in_kernel || at == std::string::npos) continue;
    std::string text = line.substr(at + 2);
    text = text.substr(0, text.find(';'));
    if (!std::regex_search(text, m, memory_op)) continue;
    const std::string op = m[1];
    if (std::regex_search(text, never)) ++out.back().opcodes["@!PT " + op];  // never executes: not the op's count
    else ++out.back().opcodes[op];
    if (std::regex_search(text, guarded_zero_store)) ++out.back().opcodes["@P " + op + " RZ"];
  }
  return out;
}

std::optional<SassCounts> find_sass(const std::vector<SassCounts>& all, int kind, int tile) {
  for (int wanted : {tile, 0})
    for (const SassCounts& s : all)
      if (s.kind == kind && s.tile == wanted) return s;
  return std::nullopt;
}

}  // namespace ts
