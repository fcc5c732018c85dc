// The benchmark's results model: the arithmetic the figures come from, the
// roofline, JSON and CSV files both ways, hostile files refused with a
// BenchFileError, and the results shipped in assets/bench/ still loading.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "app/core/bench_results_file.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

fs::path temp(const std::string& name) { return fs::temp_directory_path() / (std::to_string(::getpid()) + "_" + name); }

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

BenchRow timed(const std::string& kernel, const std::string& family, const std::string& precision, int e, double ms) {
  BenchRow r;
  r.kernel = kernel;
  r.family = family;
  r.precision = precision;
  r.m = r.n = r.k = e;
  r.runs = 20;
  r.time_ms = r.time_min_ms = r.time_max_ms = ms;
  r.bytes = gemm_bytes_tiled(e, e, e, 128, 128);
  r.rel_err_ref = 1e-6;
  r.rel_err_cublas = 2e-6;
  return r;
}

BenchResults sample() {
  BenchResults r;
  r.device = {"NVIDIA H200", 90, 132, 128, 1980, 1755, 3201, "580.159.04", "13.0", "13.0.2", "2026-11-21T10:00:00Z"};
  r.ceilings = {fp32_peak_gflops(r.device), 4300, 51000, 350000};
  r.timing = "each kernel in alternating rounds with the cuBLAS of its precision; the L2 cache overwritten";
  r.rows.push_back(timed("cublas-fp32", "cublas", "fp32", 4096, 2.7));
  r.rows.push_back(timed("cublas-tf32", "cublas", "tf32", 4096, 0.4));
  r.rows.push_back(timed("warptile", "ladder", "fp32", 4096, 3.0));
  r.rows.push_back(timed("tiled/16", "visualized", "fp32", 4096, 27.0));
  BenchRow paired = timed("tf32-wgmma-ws", "ladder", "tf32", 4096, 0.44);
  paired.reference_ms = 0.41;  // cuBLAS TF32 in the rounds alternating with it
  r.rows.push_back(paired);
  BenchRow failed = timed("broken", "ladder", "fp32", 4096, 0);
  failed.status = RowStatus::Failed;
  failed.runs = 0;
  failed.message = "1024 of 16777216 cells of C not written, first at row 0, column 3";
  failed.rel_err_ref = failed.rel_err_cublas = std::numeric_limits<double>::infinity();
  r.rows.push_back(failed);
  BenchRow refused = timed("vectorized", "ladder", "fp32", 4096, 0);
  refused.k = 45;
  refused.status = RowStatus::Refused;
  refused.runs = 0;
  refused.message = "k and n must be multiples of 4, \"quoted\", and a comma,\nand a newline";
  r.rows.push_back(refused);
  derive_figures(r);
  return r;
}

// read() must throw a BenchFileError whose message contains needle.
template <class Read>
void expect_refused(Read&& read, const std::string& needle) {
  try {
    read();
    ADD_FAILURE() << "accepted: " << needle;
  } catch (const BenchFileError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

// CSV keeps 10 significant digits: compare relative to the size of the values.
void expect_close(double x, double y) { EXPECT_NEAR(x, y, 1e-9 * std::max({1e-300, std::fabs(x), std::fabs(y)})); }

void expect_same(const BenchResults& a, const BenchResults& b) {
  EXPECT_EQ(a.device.name, b.device.name);
  EXPECT_EQ(a.device.compute_capability, b.device.compute_capability);
  EXPECT_EQ(a.device.sm_count, b.device.sm_count);
  EXPECT_EQ(a.device.fp32_lanes_per_sm, b.device.fp32_lanes_per_sm);
  EXPECT_DOUBLE_EQ(a.device.sm_clock_max_mhz, b.device.sm_clock_max_mhz);
  EXPECT_DOUBLE_EQ(a.device.sm_clock_mhz, b.device.sm_clock_mhz);
  EXPECT_EQ(a.device.driver, b.device.driver);
  EXPECT_EQ(a.device.cublas, b.device.cublas);
  EXPECT_EQ(a.device.date, b.device.date);
  EXPECT_EQ(a.timing, b.timing);
  expect_close(a.ceilings.copy_gbytes_per_s, b.ceilings.copy_gbytes_per_s);
  expect_close(a.ceilings.cublas_tf32_gflops, b.ceilings.cublas_tf32_gflops);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    const BenchRow &x = a.rows[i], &y = b.rows[i];
    EXPECT_EQ(x.kernel, y.kernel);
    EXPECT_EQ(x.family, y.family);
    EXPECT_EQ(x.precision, y.precision);
    EXPECT_EQ(x.m, y.m);
    EXPECT_EQ(x.k, y.k);
    EXPECT_EQ(x.status, y.status);
    EXPECT_EQ(x.message, y.message);
    EXPECT_EQ(x.runs, y.runs);
    expect_close(x.time_ms, y.time_ms);
    expect_close(x.reference_ms, y.reference_ms);
    expect_close(x.gflops, y.gflops);
    expect_close(x.pct_cublas, y.pct_cublas);
    expect_close(x.bytes, y.bytes);
    EXPECT_EQ(std::isinf(x.rel_err_ref), std::isinf(y.rel_err_ref));
    if (!std::isinf(x.rel_err_ref)) expect_close(x.rel_err_ref, y.rel_err_ref);
  }
}

TEST(BenchResults, Arithmetic) {
  EXPECT_DOUBLE_EQ(gemm_flops(4096, 4096, 4096), 2.0 * 4096.0 * 4096.0 * 4096.0);
  EXPECT_DOUBLE_EQ(gemm_bytes_compulsory(2, 3, 4), 4.0 * (8 + 12 + 6));
  // 32 x 32 blocks of 128: A read once per block column, B once per block row.
  EXPECT_DOUBLE_EQ(gemm_bytes_tiled(4096, 4096, 4096, 128, 128), 4.0 * (4096.0 * 4096 * 32 * 2 + 4096.0 * 4096));
  // Ragged: 300 columns need 3 block columns of 128.
  EXPECT_DOUBLE_EQ(gemm_bytes_tiled(100, 300, 50, 128, 128), 4.0 * (100.0 * 50 * 3 + 50.0 * 300 * 1 + 100.0 * 300));
  BenchDevice h200{"NVIDIA H200", 90, 132, 128, 1980, 0, 0, "", "", "", ""};
  EXPECT_NEAR(fp32_peak_gflops(h200), 66908.16, 1e-6);  // 132 SMs x 128 lanes x 2 x 1.98 GHz
}

TEST(BenchResults, DerivedFigures) {
  const BenchResults r = sample();
  const BenchRow* cublas = find_row(r, "cublas-fp32", 4096, 4096, 4096);
  const BenchRow* warp = find_row(r, "warptile", 4096, 4096, 4096);
  ASSERT_TRUE(cublas && warp);
  EXPECT_NEAR(cublas->gflops, gemm_flops(4096, 4096, 4096) / 2.7e6, 1e-6);
  EXPECT_NEAR(cublas->pct_cublas, 100.0, 1e-9);
  EXPECT_NEAR(warp->pct_cublas, 100.0 * 2.7 / 3.0, 1e-9);
  EXPECT_NEAR(warp->pct_cublas_tf32, 100.0 * 0.4 / 3.0, 1e-9);
  EXPECT_NEAR(warp->pct_peak, 100.0 * warp->gflops / r.ceilings.peak_fp32_gflops, 1e-9);
  EXPECT_NEAR(warp->intensity, gemm_flops(4096, 4096, 4096) / warp->bytes, 1e-9);
  const BenchRow* broken = find_row(r, "broken", 4096, 4096, 4096);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->gflops, 0);
  EXPECT_EQ(broken->pct_cublas, 0);
  EXPECT_EQ(find_row(r, "warptile", 4096, 4096, 1024), nullptr);
}

TEST(BenchResults, PairedReferenceSetsTheSamePrecisionPercentage) {
  // Timed in alternating rounds with cuBLAS TF32 (0.41 ms there, 0.40 ms in its own row):
  // the TF32 percentage is against the paired time, the FP32 one against cuBLAS FP32's row.
  const BenchResults r = sample();
  const BenchRow* ws = find_row(r, "tf32-wgmma-ws", 4096, 4096, 4096);
  ASSERT_TRUE(ws);
  EXPECT_NEAR(ws->pct_cublas_tf32, 100.0 * 0.41 / 0.44, 1e-9);
  EXPECT_NEAR(ws->pct_cublas, 100.0 * 2.7 / 0.44, 1e-9);
  // An FP32 row's reference is cuBLAS FP32.
  BenchResults fp = sample();
  for (BenchRow& row : fp.rows)
    if (row.kernel == "warptile") row.reference_ms = 2.85;
  derive_figures(fp);
  const BenchRow* warp = find_row(fp, "warptile", 4096, 4096, 4096);
  EXPECT_NEAR(warp->pct_cublas, 100.0 * 2.85 / 3.0, 1e-9);
  EXPECT_NEAR(warp->pct_cublas_tf32, 100.0 * 0.4 / 3.0, 1e-9);
}

TEST(BenchResults, FilesWithoutReferenceTimesStillRead) {
  // Written before paired timing: no reference_ms key in JSON, no column in CSV.
  BenchResults r = sample();
  std::erase_if(r.rows, [](const BenchRow& x) { return x.message.find('\n') != std::string::npos; });  // one line a row
  nlohmann::json j = results_to_json(r);
  for (auto& row : j["rows"]) row.erase("reference_ms");
  const BenchResults from_json = results_from_json(j);
  std::string csv = results_to_csv(r);
  const auto header = csv.find("kernel,family");
  std::string out = csv.substr(0, header);
  std::size_t pos = header;
  while (pos < csv.size()) {  // drop the 20th field (reference_ms) of every line: the message comes after it
    const std::size_t end = csv.find('\n', pos);
    std::string line = csv.substr(pos, end - pos);
    std::size_t cut = 0;
    for (int f = 0; f < 19; ++f) cut = line.find(',', cut) + 1;
    const std::size_t next = line.find(',', cut);
    out += line.substr(0, cut) + line.substr(next + 1) + "\n";
    pos = end + 1;
  }
  ASSERT_EQ(out.find("reference_ms"), std::string::npos);
  const BenchResults from_csv = results_from_csv(out);
  BenchResults untimed = r;  // and no timing method in either
  untimed.timing.clear();
  nlohmann::json old_json = results_to_json(untimed);
  old_json.erase("timing");
  EXPECT_EQ(results_from_json(old_json).timing, "");
  EXPECT_EQ(results_to_csv(untimed).find("# timing"), std::string::npos);
  for (const BenchResults* back : {&from_json, &from_csv}) {
    ASSERT_EQ(back->rows.size(), r.rows.size());
    for (const BenchRow& row : back->rows) EXPECT_EQ(row.reference_ms, 0);
    BenchResults again = *back;
    derive_figures(again);
    EXPECT_NEAR(find_row(again, "tf32-wgmma-ws", 4096, 4096, 4096)->pct_cublas_tf32, 100.0 * 0.4 / 0.44, 1e-9);
  }
}

TEST(BenchResults, PercentagesNeedCublasOfTheSameShape) {
  BenchResults r = sample();
  r.rows.push_back(timed("warptile", "ladder", "fp32", 1024, 0.1));
  derive_figures(r);
  EXPECT_EQ(find_row(r, "warptile", 1024, 1024, 1024)->pct_cublas, 0);  // no cuBLAS row at 1024: no figure
}

TEST(BenchResults, Roofline) {
  const Roofline roof = fp32_roofline({60000, 4000, 50000, 0});
  EXPECT_DOUBLE_EQ(roof.ridge_intensity(), 15.0);
  EXPECT_DOUBLE_EQ(roof.attainable_gflops(1.0), 4000.0);     // memory-bound: the slope
  EXPECT_DOUBLE_EQ(roof.attainable_gflops(100.0), 60000.0);  // compute-bound: the roof
  EXPECT_DOUBLE_EQ(fp32_roofline({60000, 0, 0, 0}).ridge_intensity(), 0.0);
}

TEST(BenchResults, JsonRoundTrip) {
  const BenchResults r = sample();
  const fs::path p = temp("results.json");
  save_results(r, p);
  expect_same(r, load_results(p));
  fs::remove(p);
}

TEST(BenchResults, CsvRoundTrip) {
  const BenchResults r = sample();
  const fs::path p = temp("results.CSV");
  save_results(r, p);
  std::ifstream in(p);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first.rfind("# tilescope bench results", 0), 0u);
  expect_same(r, load_results(p));
  fs::remove(p);
}

TEST(BenchResults, CsvColumnsByName) {
  // Reordered columns and an extra one still read: columns are found by their header.
  BenchResults r = sample();
  r.rows.resize(1);
  std::string csv = results_to_csv(r);
  const auto header = csv.find("kernel,family");
  const auto line_end = csv.find('\n', header);
  const auto row_end = csv.find('\n', line_end + 1);
  std::string row = csv.substr(line_end + 1, row_end - line_end - 1);
  csv = csv.substr(0, header) + "extra," + csv.substr(header, line_end - header) + "\n7," + row + "\n";
  const BenchResults back = results_from_csv(csv);
  ASSERT_EQ(back.rows.size(), 1u);
  EXPECT_EQ(back.rows[0].kernel, "cublas-fp32");
}

TEST(BenchResults, RefusesHostileFiles) {
  const BenchResults good = sample();
  const nlohmann::json j = results_to_json(good);
  const auto refused = [](const nlohmann::json& bad, const std::string& needle) {
    expect_refused([&] { results_from_json(bad); }, needle);
  };
  nlohmann::json bad = j;
  bad["format"] = "something-else";
  refused(bad, "not a tilescope bench results file");
  bad = j;
  bad["version"] = 99;
  refused(bad, "version 99");
  bad = j;
  bad["rows"][2]["m"] = -5;
  refused(bad, "m, n and k must be in");
  bad = j;
  bad["rows"][2]["k"] = 1 << 30;
  refused(bad, "m, n and k must be in");
  bad = j;
  bad["rows"][2]["time_ms"] = -1.0;
  refused(bad, "negative");
  bad = j;
  bad["rows"][2]["status"] = "great";
  refused(bad, "unknown row status");
  bad = j;
  bad["rows"][2]["family"] = "mine";
  refused(bad, "family");
  bad = j;
  bad["rows"][2].erase("gflops");
  refused(bad, "gflops");
  bad = j;
  bad["rows"][2]["m"] = "many";
  refused(bad, "bad results file");
  bad = j;
  bad["rows"][2]["n"] = 1e30;  // no int holds it: converting would be undefined behaviour
  refused(bad, "bad results file");
  bad = j;
  bad["device"]["sm_count"] = 132.5;
  refused(bad, "bad results file");
  bad = j;
  bad["rows"] = 5;
  refused(bad, "not an array");
  bad = j;
  bad["rows"][2]["runs"] = 0;  // an ok row with no runs cannot have a time
  refused(bad, "at least one run");
  bad = j;
  bad["ceilings"]["copy_gbytes_per_s"] = -3;
  refused(bad, "ceiling");
  refused(nlohmann::json::array(), "not a tilescope bench results file");
}

TEST(BenchResults, RefusesHostileCsv) {
  const std::string csv = results_to_csv(sample());
  const auto refused = [](const std::string& text, const std::string& needle) {
    expect_refused([&] { results_from_csv(text); }, needle);
  };
  refused("kernel,m\nx,1\n", "no '# gpu:' line");
  refused(csv.substr(0, csv.find("kernel,family")), "no header");
  refused(csv + "warptile,ladder,fp32,1\n", "fields");
  refused(csv + "\"unclosed,ladder\n", "not closed");
  std::string no_column = csv;
  no_column.replace(no_column.find("pct_peak"), 8, "pct_what");
  refused(no_column, "no column 'pct_peak'");
  std::string bad_number = csv;
  bad_number.replace(bad_number.find(",4096,4096,4096,ok"), 5, ",40x6");
  refused(bad_number, "m is not a number");
  std::string fractional = csv;
  fractional.replace(fractional.find(",4096,4096,4096,ok"), 5, ",40.5");
  refused(fractional, "not a whole number");
}

TEST(BenchResults, RefusesBadFiles) {
  EXPECT_THROW(load_results(temp("missing.json")), BenchFileError);
  const fs::path txt = temp("results.txt");
  write(txt, "{}");
  EXPECT_THROW(load_results(txt), BenchFileError);
  EXPECT_THROW(save_results(sample(), txt), BenchFileError);
  fs::remove(txt);
  const fs::path garbage = temp("garbage.json");
  write(garbage, "{\"format\": \"tilescope-bench\", \"version\": 1, \"device\": ");
  EXPECT_THROW(load_results(garbage), BenchFileError);
  // Larger than any results file: refused before it is read.
  fs::resize_file(garbage, std::uintmax_t(65) << 20);
  expect_refused([&] { load_results(garbage); }, "larger than 64 MiB");
  fs::remove(garbage);
  EXPECT_THROW(save_results(sample(), "/nonexistent-dir/r.json"), BenchFileError);
}

// The results shipped for machines without a GPU: they load, say where and
// when they were measured, hold every kernel at the targets' shape, and their
// derived figures are the ones this code derives from their times.
TEST(BenchResults, ShippedH200Results) {
  const fs::path dir = fs::path(TILESCOPE_SOURCE_DIR) / "assets" / "bench";
  const BenchResults json = load_results(dir / "h200.json");
  const BenchResults csv = load_results(dir / "h200.csv");
  expect_same(json, csv);
  EXPECT_NE(json.device.name.find("H200"), std::string::npos);
  EXPECT_FALSE(json.device.date.empty());
  EXPECT_FALSE(json.device.driver.empty());
  EXPECT_GT(json.ceilings.copy_gbytes_per_s, 1000);
  for (const char* kernel : {"cublas-fp32", "cublas-tf32", "naive/16", "tiled/32", "double-buffer", "tf32-wgmma"}) {
    const BenchRow* row = find_row(json, kernel, 4096, 4096, 4096);
    ASSERT_NE(row, nullptr) << kernel;
    EXPECT_EQ(row->status, RowStatus::Ok) << kernel;
    EXPECT_GE(row->runs, 20) << kernel;
  }
  for (const BenchRow& r : json.rows) EXPECT_NE(r.status, RowStatus::Failed) << r.kernel << " " << r.m;
  BenchResults again = json;
  derive_figures(again);
  for (std::size_t i = 0; i < json.rows.size(); ++i) {
    EXPECT_NEAR(again.rows[i].gflops, json.rows[i].gflops, 1e-6 * (1 + json.rows[i].gflops));
    EXPECT_NEAR(again.rows[i].pct_cublas, json.rows[i].pct_cublas, 1e-6 * (1 + json.rows[i].pct_cublas));
  }
}

TEST(BenchResults, StatusNames) {
  for (RowStatus s : {RowStatus::Ok, RowStatus::Failed, RowStatus::Refused, RowStatus::Skipped})
    EXPECT_EQ(row_status_from_name(row_status_name(s)), s);
  EXPECT_FALSE(row_status_from_name("fine"));
}

}  // namespace
}  // namespace ts
