// bench_results_file.cpp — the benchmark's results as JSON and CSV, checked on reading.
#include "app/core/bench_results_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <system_error>

#include "trace/json_integer.h"
#include "app/core/safe_file.h"

namespace ts {
namespace {

constexpr int kMaxDimension = 1 << 20;                     // no GEMM a GPU can hold is larger
constexpr std::size_t kMaxRows = 1'000'000;                // a sweep makes hundreds
constexpr std::uintmax_t kMaxFileBytes = 64u << 20;        // refuse before reading a hostile file
constexpr std::size_t kMaxStringLength = 4096;
const char* const kFamilies[] = {"visualized", "ladder", "cublas"};
const char* const kPrecisions[] = {"fp32", "tf32"};

constexpr double kInf = std::numeric_limits<double>::infinity();

bool one_of(const std::string& s, const char* const* names, std::size_t count) {
  return std::find(names, names + count, s) != names + count;
}

// --- validation shared by both readers -------------------------------------

void check_string(const std::string& s, const char* what) {
  if (s.size() > kMaxStringLength) throw BenchFileError(std::string(what) + " is longer than 4096 characters");
}

void check_row(const BenchRow& r, std::size_t index) {
  const std::string where = "row " + std::to_string(index + 1) + " (" + r.kernel + "): ";
  if (r.kernel.empty()) throw BenchFileError(where + "empty kernel name");
  check_string(r.kernel, "a kernel name");
  check_string(r.message, "a message");
  if (!one_of(r.family, kFamilies, std::size(kFamilies)))
    throw BenchFileError(where + "family must be visualized, ladder or cublas, not '" + r.family + "'");
  if (!one_of(r.precision, kPrecisions, std::size(kPrecisions)))
    throw BenchFileError(where + "precision must be fp32 or tf32, not '" + r.precision + "'");
  for (int d : {r.m, r.n, r.k})
    if (d < 1 || d > kMaxDimension) throw BenchFileError(where + "m, n and k must be in 1.." + std::to_string(kMaxDimension));
  if (r.runs < 0) throw BenchFileError(where + "negative run count");
  const double finite_fields[] = {r.time_ms, r.time_min_ms, r.time_max_ms, r.reference_ms, r.gflops,
                                  r.pct_cublas, r.pct_cublas_tf32, r.pct_peak, r.bytes, r.intensity};
  for (double v : finite_fields)
    if (!std::isfinite(v) || v < 0) throw BenchFileError(where + "a time or figure is negative or not a number");
  for (double v : {r.rel_err_ref, r.rel_err_cublas})
    if (std::isnan(v) || v < 0) throw BenchFileError(where + "an error figure is negative or not a number");
  if (r.status == RowStatus::Ok && (r.time_ms <= 0 || r.runs < 1))
    throw BenchFileError(where + "a timed row needs a positive time and at least one run");
}

void check_results(const BenchResults& r) {
  check_string(r.device.name, "the GPU name");
  check_string(r.device.driver, "the driver");
  check_string(r.device.date, "the date");
  check_string(r.timing, "the timing method");
  const double device_numbers[] = {r.device.sm_clock_max_mhz, r.device.sm_clock_mhz, r.device.mem_clock_mhz,
                                   r.ceilings.peak_fp32_gflops, r.ceilings.copy_gbytes_per_s,
                                   r.ceilings.cublas_fp32_gflops, r.ceilings.cublas_tf32_gflops};
  for (double v : device_numbers)
    if (!std::isfinite(v) || v < 0) throw BenchFileError("a clock or ceiling is negative or not a number");
  if (r.device.sm_count < 0 || r.device.fp32_lanes_per_sm < 0 || r.device.compute_capability < 0)
    throw BenchFileError("negative SM count, lanes or compute capability");
  if (r.rows.size() > kMaxRows) throw BenchFileError("more than a million rows");
  for (std::size_t i = 0; i < r.rows.size(); ++i) check_row(r.rows[i], i);
}

// --- JSON -------------------------------------------------------------------

// JSON has no infinity: an unbounded error (NaN in the output) is written as null.
nlohmann::json error_to_json(double e) { return std::isfinite(e) ? nlohmann::json(e) : nlohmann::json(nullptr); }
double error_from_json(const nlohmann::json& j) { return j.is_null() ? kInf : j.get<double>(); }

// --- CSV --------------------------------------------------------------------

const char* const kCsvColumns[] = {"kernel",      "family",      "precision",    "m",          "n",
                                   "k",           "status",      "runs",         "time_ms",    "time_min_ms",
                                   "time_max_ms", "gflops",      "pct_cublas",   "pct_cublas_tf32",
                                   "pct_peak",    "bytes",       "intensity",    "rel_err_ref", "rel_err_cublas",
                                   "reference_ms", "message"};
// Columns a file written before them lacks: read as 0.
const std::string_view kOptionalCsvColumns[] = {"reference_ms"};

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string csv_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// Splits RFC 4180 text into records of fields; quoted fields may hold commas,
// quotes and newlines.
std::vector<std::vector<std::string>> parse_csv_records(std::string_view text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false, field_started = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
      continue;
    }
    if (c == '"' && field.empty()) quoted = field_started = true;
    else if (c == ',') fields.push_back(std::move(field)), field.clear(), field_started = true;
    else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (field_started || !field.empty() || !fields.empty()) {
        fields.push_back(std::move(field));
        records.push_back(std::move(fields));
      }
      fields.clear(), field.clear(), field_started = false;
    } else field += c, field_started = true;
    if (records.size() > kMaxRows + 1) throw BenchFileError("more than a million rows");
  }
  if (quoted) throw BenchFileError("a quoted CSV field is not closed");
  if (field_started || !field.empty() || !fields.empty()) fields.push_back(std::move(field)), records.push_back(std::move(fields));
  return records;
}

double parse_number(const std::string& s, const char* column, std::size_t line) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
    throw BenchFileError("line " + std::to_string(line) + ": " + column + " is not a number: '" + s.substr(0, 40) + "'");
  return v;
}

int parse_int(const std::string& s, const char* column, std::size_t line) {
  const double v = parse_number(s, column, line);
  if (v != std::floor(v) || std::fabs(v) > 2e9)
    throw BenchFileError("line " + std::to_string(line) + ": " + column + " is not a whole number");
  return static_cast<int>(v);
}

std::string read_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw BenchFileError("cannot open " + path.string() + ": " + ec.message());
  if (size > kMaxFileBytes) throw BenchFileError(path.string() + " is larger than 64 MiB: not a results file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BenchFileError("cannot open " + path.string());
  std::string text(size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (static_cast<std::uintmax_t>(in.gcount()) != size) throw BenchFileError("cannot read " + path.string());
  return text;
}

bool has_extension(const std::filesystem::path& p, const char* ext) {
  std::string e = p.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
  return e == ext;
}

}  // namespace

// --- JSON ---------------------------------------------------------------------

nlohmann::json results_to_json(const BenchResults& r) {
  const BenchDevice& d = r.device;
  nlohmann::json j;
  j["format"] = "tilescope-bench";
  j["version"] = kBenchResultsVersion;
  j["device"] = {{"name", d.name},
                 {"compute_capability", d.compute_capability},
                 {"sm_count", d.sm_count},
                 {"fp32_lanes_per_sm", d.fp32_lanes_per_sm},
                 {"sm_clock_max_mhz", d.sm_clock_max_mhz},
                 {"sm_clock_mhz", d.sm_clock_mhz},
                 {"mem_clock_mhz", d.mem_clock_mhz},
                 {"driver", d.driver},
                 {"cuda_runtime", d.cuda_runtime},
                 {"cublas", d.cublas},
                 {"date", d.date}};
  j["ceilings"] = {{"peak_fp32_gflops", r.ceilings.peak_fp32_gflops},
                   {"copy_gbytes_per_s", r.ceilings.copy_gbytes_per_s},
                   {"cublas_fp32_gflops", r.ceilings.cublas_fp32_gflops},
                   {"cublas_tf32_gflops", r.ceilings.cublas_tf32_gflops}};
  j["timing"] = r.timing;
  nlohmann::json rows = nlohmann::json::array();
  for (const BenchRow& x : r.rows)
    rows.push_back({{"kernel", x.kernel},
                    {"family", x.family},
                    {"precision", x.precision},
                    {"m", x.m},
                    {"n", x.n},
                    {"k", x.k},
                    {"status", row_status_name(x.status)},
                    {"message", x.message},
                    {"runs", x.runs},
                    {"time_ms", x.time_ms},
                    {"time_min_ms", x.time_min_ms},
                    {"time_max_ms", x.time_max_ms},
                    {"reference_ms", x.reference_ms},
                    {"gflops", x.gflops},
                    {"pct_cublas", x.pct_cublas},
                    {"pct_cublas_tf32", x.pct_cublas_tf32},
                    {"pct_peak", x.pct_peak},
                    {"bytes", x.bytes},
                    {"intensity", x.intensity},
                    {"rel_err_ref", error_to_json(x.rel_err_ref)},
                    {"rel_err_cublas", error_to_json(x.rel_err_cublas)}});
  j["rows"] = std::move(rows);
  return j;
}

BenchResults results_from_json(const nlohmann::json& j) {
  BenchResults r;
  try {
    if (!j.is_object() || j.value("format", "") != "tilescope-bench")
      throw BenchFileError("not a tilescope bench results file (no \"format\": \"tilescope-bench\")");
    const int version = json_integer_at<int>(j, "version");
    if (version != kBenchResultsVersion)
      throw BenchFileError("results version " + std::to_string(version) + " is not supported (this build reads " +
                           std::to_string(kBenchResultsVersion) + ")");
    const auto& d = j.at("device");
    r.device.name = d.at("name").get<std::string>();
    r.device.compute_capability = json_integer_at<int>(d, "compute_capability");
    r.device.sm_count = json_integer_at<int>(d, "sm_count");
    r.device.fp32_lanes_per_sm = json_integer_at<int>(d, "fp32_lanes_per_sm");
    r.device.sm_clock_max_mhz = d.at("sm_clock_max_mhz").get<double>();
    r.device.sm_clock_mhz = d.at("sm_clock_mhz").get<double>();
    r.device.mem_clock_mhz = d.at("mem_clock_mhz").get<double>();
    r.device.driver = d.at("driver").get<std::string>();
    r.device.cuda_runtime = d.at("cuda_runtime").get<std::string>();
    r.device.cublas = d.at("cublas").get<std::string>();
    r.device.date = d.at("date").get<std::string>();
    const auto& c = j.at("ceilings");
    r.ceilings.peak_fp32_gflops = c.at("peak_fp32_gflops").get<double>();
    r.ceilings.copy_gbytes_per_s = c.at("copy_gbytes_per_s").get<double>();
    r.ceilings.cublas_fp32_gflops = c.at("cublas_fp32_gflops").get<double>();
    r.ceilings.cublas_tf32_gflops = c.at("cublas_tf32_gflops").get<double>();
    r.timing = j.value("timing", std::string());  // absent in files from before it was recorded
    const auto& rows = j.at("rows");
    if (!rows.is_array()) throw BenchFileError("\"rows\" is not an array");
    if (rows.size() > kMaxRows) throw BenchFileError("more than a million rows");
    for (const auto& x : rows) {
      BenchRow row;
      row.kernel = x.at("kernel").get<std::string>();
      row.family = x.at("family").get<std::string>();
      row.precision = x.at("precision").get<std::string>();
      row.m = json_integer_at<int>(x, "m");
      row.n = json_integer_at<int>(x, "n");
      row.k = json_integer_at<int>(x, "k");
      const std::string status = x.at("status").get<std::string>();
      const auto s = row_status_from_name(status);
      if (!s) throw BenchFileError("unknown row status '" + status.substr(0, 40) + "'");
      row.status = *s;
      row.message = x.at("message").get<std::string>();
      row.runs = json_integer_at<int>(x, "runs");
      row.time_ms = x.at("time_ms").get<double>();
      row.time_min_ms = x.at("time_min_ms").get<double>();
      row.time_max_ms = x.at("time_max_ms").get<double>();
      row.reference_ms = x.value("reference_ms", 0.0);  // absent in files from before paired timing
      row.gflops = x.at("gflops").get<double>();
      row.pct_cublas = x.at("pct_cublas").get<double>();
      row.pct_cublas_tf32 = x.at("pct_cublas_tf32").get<double>();
      row.pct_peak = x.at("pct_peak").get<double>();
      row.bytes = x.at("bytes").get<double>();
      row.intensity = x.at("intensity").get<double>();
      row.rel_err_ref = error_from_json(x.at("rel_err_ref"));
      row.rel_err_cublas = error_from_json(x.at("rel_err_cublas"));
      r.rows.push_back(std::move(row));
    }
  } catch (const nlohmann::json::exception& e) {
    throw BenchFileError(std::string("bad results file: ") + e.what());
  }
  check_results(r);
  return r;
}

// --- CSV ----------------------------------------------------------------------

std::string results_to_csv(const BenchResults& r) {
  const BenchDevice& d = r.device;
  std::ostringstream out;
  // The device and ceilings ride along as comments so one CSV says where it was measured.
  out << "# tilescope bench results, version " << kBenchResultsVersion << "\n";
  out << "# gpu: " << d.name << "\n# compute_capability: " << d.compute_capability << "\n# sm_count: " << d.sm_count
      << "\n# fp32_lanes_per_sm: " << d.fp32_lanes_per_sm << "\n# sm_clock_max_mhz: " << csv_number(d.sm_clock_max_mhz)
      << "\n# sm_clock_mhz: " << csv_number(d.sm_clock_mhz) << "\n# mem_clock_mhz: " << csv_number(d.mem_clock_mhz)
      << "\n# driver: " << d.driver << "\n# cuda_runtime: " << d.cuda_runtime << "\n# cublas: " << d.cublas
      << "\n# date: " << d.date << "\n";
  const BenchCeilings& c = r.ceilings;
  out << "# peak_fp32_gflops: " << csv_number(c.peak_fp32_gflops)
      << "\n# copy_gbytes_per_s: " << csv_number(c.copy_gbytes_per_s)
      << "\n# cublas_fp32_gflops: " << csv_number(c.cublas_fp32_gflops)
      << "\n# cublas_tf32_gflops: " << csv_number(c.cublas_tf32_gflops) << "\n";
  if (!r.timing.empty()) {  // one line, whatever a file read before held
    std::string timing = r.timing;
    std::replace_if(timing.begin(), timing.end(), [](char ch) { return ch == '\n' || ch == '\r'; }, ' ');
    out << "# timing: " << timing << "\n";
  }
  for (std::size_t i = 0; i < std::size(kCsvColumns); ++i) out << (i ? "," : "") << kCsvColumns[i];
  out << "\n";
  for (const BenchRow& x : r.rows) {
    out << csv_field(x.kernel) << ',' << x.family << ',' << x.precision << ',' << x.m << ',' << x.n << ',' << x.k
        << ',' << row_status_name(x.status) << ',' << x.runs;
    for (double v : {x.time_ms, x.time_min_ms, x.time_max_ms, x.gflops, x.pct_cublas, x.pct_cublas_tf32, x.pct_peak,
                     x.bytes, x.intensity, x.rel_err_ref, x.rel_err_cublas, x.reference_ms})
      out << ',' << csv_number(v);
    out << ',' << csv_field(x.message) << "\n";
  }
  return out.str();
}

BenchResults results_from_csv(std::string_view text) {
  // Comment lines first ("# key: value"), then the header and the rows.
  std::map<std::string, std::string> meta;
  std::size_t pos = 0, line = 0;
  while (pos < text.size() && text[pos] == '#') {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view l = text.substr(pos, end - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (const std::size_t colon = l.find(": "); colon != std::string_view::npos) {
      std::string key(l.substr(1, colon - 1));
      key.erase(0, key.find_first_not_of(' '));
      meta[key] = std::string(l.substr(colon + 2));
    }
    pos = end + 1, ++line;
  }
  if (!meta.count("gpu")) throw BenchFileError("not a tilescope bench CSV (no '# gpu:' line)");
  const auto get_num = [&](const char* key) {
    auto it = meta.find(key);
    return it == meta.end() ? 0.0 : parse_number(it->second, key, 0);
  };
  const auto get_str = [&](const char* key) {
    auto it = meta.find(key);
    return it == meta.end() ? std::string() : it->second;
  };
  BenchResults r;
  r.device.name = get_str("gpu");
  r.device.compute_capability = static_cast<int>(get_num("compute_capability"));
  r.device.sm_count = static_cast<int>(get_num("sm_count"));
  r.device.fp32_lanes_per_sm = static_cast<int>(get_num("fp32_lanes_per_sm"));
  r.device.sm_clock_max_mhz = get_num("sm_clock_max_mhz");
  r.device.sm_clock_mhz = get_num("sm_clock_mhz");
  r.device.mem_clock_mhz = get_num("mem_clock_mhz");
  r.device.driver = get_str("driver");
  r.device.cuda_runtime = get_str("cuda_runtime");
  r.device.cublas = get_str("cublas");
  r.device.date = get_str("date");
  r.ceilings.peak_fp32_gflops = get_num("peak_fp32_gflops");
  r.ceilings.copy_gbytes_per_s = get_num("copy_gbytes_per_s");
  r.ceilings.cublas_fp32_gflops = get_num("cublas_fp32_gflops");
  r.ceilings.cublas_tf32_gflops = get_num("cublas_tf32_gflops");
  r.timing = get_str("timing");

  const auto records = parse_csv_records(pos < text.size() ? text.substr(pos) : std::string_view());
  if (records.empty()) throw BenchFileError("the CSV has no header line");
  // Columns are found by name, so a file with extra or reordered columns still reads.
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < records[0].size(); ++i) col[records[0][i]] = i;
  for (const char* name : kCsvColumns)
    if (!col.count(name) && std::find(std::begin(kOptionalCsvColumns), std::end(kOptionalCsvColumns), name) ==
                                std::end(kOptionalCsvColumns))
      throw BenchFileError(std::string("the CSV has no column '") + name + "'");
  for (std::size_t i = 1; i < records.size(); ++i) {
    const auto& f = records[i];
    const std::size_t ln = line + i + 1;
    if (f.size() != records[0].size())
      throw BenchFileError("line " + std::to_string(ln) + " has " + std::to_string(f.size()) + " fields, the header " +
                           std::to_string(records[0].size()));
    const auto at = [&](const char* name) -> const std::string& { return f[col.at(name)]; };
    BenchRow x;
    x.kernel = at("kernel");
    x.family = at("family");
    x.precision = at("precision");
    x.m = parse_int(at("m"), "m", ln);
    x.n = parse_int(at("n"), "n", ln);
    x.k = parse_int(at("k"), "k", ln);
    const auto s = row_status_from_name(at("status"));
    if (!s) throw BenchFileError("line " + std::to_string(ln) + ": unknown status '" + at("status").substr(0, 40) + "'");
    x.status = *s;
    x.runs = parse_int(at("runs"), "runs", ln);
    x.time_ms = parse_number(at("time_ms"), "time_ms", ln);
    x.time_min_ms = parse_number(at("time_min_ms"), "time_min_ms", ln);
    x.time_max_ms = parse_number(at("time_max_ms"), "time_max_ms", ln);
    x.gflops = parse_number(at("gflops"), "gflops", ln);
    x.pct_cublas = parse_number(at("pct_cublas"), "pct_cublas", ln);
    x.pct_cublas_tf32 = parse_number(at("pct_cublas_tf32"), "pct_cublas_tf32", ln);
    x.pct_peak = parse_number(at("pct_peak"), "pct_peak", ln);
    x.bytes = parse_number(at("bytes"), "bytes", ln);
    x.intensity = parse_number(at("intensity"), "intensity", ln);
    x.rel_err_ref = parse_number(at("rel_err_ref"), "rel_err_ref", ln);
    x.rel_err_cublas = parse_number(at("rel_err_cublas"), "rel_err_cublas", ln);
    x.reference_ms = col.count("reference_ms") ? parse_number(at("reference_ms"), "reference_ms", ln) : 0.0;
    x.message = at("message");
    r.rows.push_back(std::move(x));
  }
  check_results(r);
  return r;
}

// --- files ----------------------------------------------------------------------

void save_results(const BenchResults& r, const std::filesystem::path& path) {
  std::string text;
  if (has_extension(path, ".json")) text = results_to_json(r).dump(1) + "\n";
  else if (has_extension(path, ".csv")) text = results_to_csv(r);
  else throw BenchFileError("cannot tell the format of " + path.string() + ": name it .json or .csv");
  try {
    write_file_atomically(path, text);
  } catch (const SafeFileError& e) {
    throw BenchFileError(e.what());
  }
}

BenchResults load_results(const std::filesystem::path& path) {
  const std::string text = read_file(path);
  if (has_extension(path, ".csv")) return results_from_csv(text);
  if (!has_extension(path, ".json")) throw BenchFileError("cannot tell the format of " + path.string() + ": .json or .csv");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw BenchFileError(path.string() + " is not valid JSON: " + e.what());
  }
  return results_from_json(j);
}

}  // namespace ts
