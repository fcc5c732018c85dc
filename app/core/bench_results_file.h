// bench_results_file.h — benchmark results (trace/bench_results.h) as JSON and
// CSV files: what `tilescope bench` writes and the benchmark panel opens.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "trace/bench_results.h"

namespace ts {

inline constexpr int kBenchResultsVersion = 1;

class BenchFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

nlohmann::json results_to_json(const BenchResults& r);
// Throws BenchFileError naming what is missing or out of range.
BenchResults results_from_json(const nlohmann::json& j);

// CSV: "# key: value" lines for the device and ceilings, a header, one row per line.
std::string results_to_csv(const BenchResults& r);
BenchResults results_from_csv(std::string_view text);

// By extension (.json or .csv); writes atomically (a temporary file, renamed).
void save_results(const BenchResults& r, const std::filesystem::path& path);
BenchResults load_results(const std::filesystem::path& path);

}  // namespace ts
