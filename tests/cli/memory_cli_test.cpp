// The memory analysis on the command line: `tilescope stats --json` carries
// the counters named in issue 6, and `tilescope compare` puts two traces side
// by side.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"

namespace {

using ts::test::expect_one_line_error;
using ts::test::Result;
using ts::test::run;
using ts::test::temp;
namespace fs = std::filesystem;

fs::path record(const std::string& kernel, int tile, int size) {
  const fs::path f = temp(kernel + std::to_string(tile) + ".tstrace");
  const Result r = run("record --kernel " + kernel + " --tile " + std::to_string(tile) + " --size " +
                       std::to_string(size) + " --device cpu -o " + f.string());
  EXPECT_EQ(r.code, 0) << r.err;
  return f;
}

TEST(MemoryCli, StatsJsonHasTheMemoryCounters) {
  const fs::path f = record("naive-row", 32, 32);
  const Result st = run("stats " + f.string() + " --json");
  ASSERT_EQ(st.code, 0) << st.err;
  const auto j = nlohmann::json::parse(st.out);
  for (const char* key : {"global_load_requests", "global_load_sectors", "global_store_requests",
                          "global_store_sectors", "shared_load_requests", "shared_load_wavefronts",
                          "shared_bank_conflicts_load", "shared_bank_conflicts_store", "global_bytes_loaded",
                          "min_bytes", "arithmetic_intensity"})
    EXPECT_TRUE(j.contains(key)) << key;
  // One warp (32 rows of a column) per block: A's and C's requests a row apart.
  EXPECT_EQ(j["global_load_requests"], 32 * 2 * 32);
  EXPECT_EQ(j["global_store_sectors"], 32 * 32);
  EXPECT_EQ(j["global_bytes_loaded"], 2 * 32 * 32 * 32 * 4);
  EXPECT_EQ(j["min_bytes"], 3 * 32 * 32 * 4);
  EXPECT_DOUBLE_EQ(j["arithmetic_intensity"].get<double>(), 0.25);
  EXPECT_EQ(j["memory"]["by_array"]["A"]["load"]["requests_by_sectors"]["32"], 32 * 32);
  fs::remove(f);
}

TEST(MemoryCli, CompareTransposedAndPaddedAtOneCellAndStep) {
  const fs::path a = record("tiled-transposed", 32, 64), b = record("tiled-padded", 32, 64);
  const Result r = run("compare " + a.string() + " " + b.string() + " --json --cell 5,40 --step 1");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["a"]["launch"]["kernel"], "tiled-transposed");
  EXPECT_EQ(j["step"], 1);
  // Cell (5, 40): block (1, 0), warp 5; in step 1 a warp makes 32 + 32 shared
  // loads and 2 stores; transposed: the 32 Bs loads and the Bs store are 32-way.
  EXPECT_EQ(j["a"]["cell"]["warp"], 5);
  EXPECT_EQ(j["a"]["warp"]["shared_load_requests"], 64);
  EXPECT_EQ(j["a"]["warp"]["shared_bank_conflicts_load"], 32 * 31);
  EXPECT_EQ(j["a"]["warp"]["shared_bank_conflicts_store"], 31);
  EXPECT_EQ(j["b"]["warp"]["shared_bank_conflicts_load"], 0);
  EXPECT_EQ(j["ratio"]["warp"]["shared_load_requests"], 1.0);
  EXPECT_EQ(j["a"]["block"]["shared_load_requests"], 32 * 64);
  // Whole launch, this step only: the same requests, conflicts gone.
  EXPECT_EQ(j["a"]["counters"]["shared_load_requests"], j["b"]["counters"]["shared_load_requests"]);
  EXPECT_EQ(j["b"]["counters"]["shared_bank_conflicts_load"], 0);

  const Result text = run("compare " + a.string() + " " + b.string());
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("shared_bank_conflicts_load"), std::string::npos);
  EXPECT_NE(text.out.find("\nb: tiled-padded  TILE=32  M=64 N=64 K=64 (CPU emulator)\n"), std::string::npos)
      << text.out;

  expect_one_line_error(run("compare " + a.string() + " " + b.string() + " --cell 64,0"),
                        "C[64][0] is outside C, which is 64 x 64");
  // A focused trace holds one block: a cell of another block is named as such.
  const fs::path f = temp("compare_focused.tstrace");
  ASSERT_EQ(run("record --device cpu --kernel tiled-padded --tile 32 --size 64 --blocks 0,0 -o " + f.string()).code, 0);
  EXPECT_EQ(run("compare " + f.string() + " " + b.string() + " --cell 5,20").code, 0);
  expect_one_line_error(run("compare " + f.string() + " " + b.string() + " --cell 40,40"),
                        "no traced block of this focused trace of tiled-padded wrote C[40][40] (it holds 1 of 4 blocks)");
  fs::remove(f);
  // K = 64 at TILE 32: iterations 0 and 1, then step 2, the store of C; past it, nothing to compare.
  EXPECT_EQ(run("compare " + a.string() + " " + b.string() + " --step 2").code, 0);
  expect_one_line_error(run("compare " + a.string() + " " + b.string() + " --step 3"), "has steps 0..2");
  expect_one_line_error(run("compare " + a.string() + " " + b.string() + " --cell 5,40 --step 99 --json"),
                        "has steps 0..2");
  expect_one_line_error(run("compare " + a.string() + " /nonexistent.tstrace"), "nonexistent");
  EXPECT_EQ(run("compare " + a.string()).code, 2);
  fs::remove(a);
  fs::remove(b);
}

}  // namespace
