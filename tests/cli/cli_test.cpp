// The `tilescope` command line: the contract of the foundation issue, run as a
// user would, through the real binary.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/core/trace_file.h"
#include "tests/cli/cli_support.h"

namespace {

using ts::test::expect_one_line_error;
using ts::test::Result;
using ts::test::run;
using ts::test::temp;
namespace fs = std::filesystem;

TEST(Cli, RecordStatsExport) {
  const fs::path f = temp("cli.tstrace");
  const Result rec = run("record --kernel tiled --tile 4 --m 10 --n 12 --k 9 --device cpu -o " + f.string());
  ASSERT_EQ(rec.code, 0) << rec.err;
  EXPECT_NE(rec.out.find("CPU emulator"), std::string::npos);

  const Result st = run("stats " + f.string() + " --json");
  ASSERT_EQ(st.code, 0) << st.err;
  const auto j = nlohmann::json::parse(st.out);
  EXPECT_EQ(j["launch"]["kernel"], "tiled");
  EXPECT_EQ(j["launch"]["m"], 10);
  EXPECT_EQ(j["by_array"]["C"]["store"], 120);
  EXPECT_EQ(j["global_loads_per_element"]["A"]["min"], 3);  // ceil(12 / 4) block columns
  EXPECT_EQ(j["global_loads_per_element"]["A"]["max"], 3);
  EXPECT_EQ(j["by_space"]["global"]["load"], 3 * 10 * 9 + 3 * 9 * 12);

  const Result ex = run("export " + f.string() + " --csv");
  ASSERT_EQ(ex.code, 0) << ex.err;
  const auto header = ex.out.substr(0, ex.out.find('\n'));
  for (const char* col : {"block_x", "block_y", "thread_x", "thread_y", "warp", "seq", "iter", "op", "space",
                          "array", "row", "col", "addr", "value", "width", "access", "async", "fragment"})
    EXPECT_NE(header.find(col), std::string::npos) << col;
  const auto rows = std::count(ex.out.begin(), ex.out.end(), '\n') - 1;
  EXPECT_EQ(rows, j["events"].get<long>());
  fs::remove(f);
}

TEST(Cli, DefaultSceneRecords) {
  const fs::path f = temp("default.tstrace");
  const Result rec = run("record --device cpu -o " + f.string());
  ASSERT_EQ(rec.code, 0) << rec.err;
  const ts::Trace t = ts::load_trace(f);
  EXPECT_EQ(t.launch.kernel, "tiled");
  EXPECT_EQ(t.launch.tile, 16);
  EXPECT_EQ(t.launch.m, 64);
  EXPECT_EQ(t.launch.n, 64);
  EXPECT_EQ(t.launch.k, 64);
  fs::remove(f);
}

// The first line of a command's output.
std::string first_line(const std::string& out) { return out.substr(0, out.find('\n')); }

// A ladder rung has no single TILE (its LaunchInfo::tile is its k-step): every
// line that names its launch says its tiling, as the app's title does
// (launch_title); a textbook kernel keeps TILE=T. blocktile-2d's fixed tiles
// (kernels/rungs.h): BM = BN = 128, BK = 8, TM = TN = 8, 256 threads.
TEST(Cli, RungLinesSayTheirTilingTextbookLinesTheirTile) {
  const fs::path rung = temp("rung.tstrace"), focused = temp("rung_focused.tstrace"),
                 textbook = temp("textbook.tstrace");
  const std::string tiling = "block 128x128x8  thread 8x8";
  const Result rec = run("record --kernel blocktile-2d --m 16 --n 20 --k 12 --device cpu -o " + rung.string());
  ASSERT_EQ(rec.code, 0) << rec.err;
  EXPECT_EQ(first_line(rec.out).rfind("recorded blocktile-2d " + tiling + " M=16 N=20 K=12 on CPU emulator: ", 0), 0u)
      << rec.out;
  EXPECT_EQ(rec.out.find("TILE"), std::string::npos) << rec.out;

  const Result foc = run("record --kernel blocktile-2d --m 16 --n 20 --k 12 --device cpu --blocks 0,0 -o " +
                         focused.string());
  ASSERT_EQ(foc.code, 0) << foc.err;
  EXPECT_EQ(first_line(foc.out).rfind("recorded 1 of 1 blocks of blocktile-2d " + tiling + " M=16 N=20 K=12 on ", 0),
            0u)
      << foc.out;

  const Result st = run("stats " + rung.string());
  ASSERT_EQ(st.code, 0) << st.err;
  EXPECT_EQ(first_line(st.out), "blocktile-2d  " + tiling + "  M=16 N=20 K=12  grid 1x1  block 256x1");
  const Result by_line = run("stats --by-line " + rung.string());
  ASSERT_EQ(by_line.code, 0) << by_line.err;
  EXPECT_EQ(first_line(by_line.out).rfind("blocktile-2d  " + tiling + "  M=16 N=20 K=12, per source line of ", 0),
            0u)
      << by_line.out;

  const Result tb = run("record --kernel tiled --tile 4 --m 16 --n 20 --k 12 --device cpu -o " + textbook.string());
  ASSERT_EQ(tb.code, 0) << tb.err;
  EXPECT_EQ(first_line(tb.out).rfind("recorded tiled TILE=4 M=16 N=20 K=12 on CPU emulator: ", 0), 0u) << tb.out;
  const Result tb_st = run("stats " + textbook.string());
  ASSERT_EQ(tb_st.code, 0) << tb_st.err;
  EXPECT_EQ(first_line(tb_st.out), "tiled  TILE=4  M=16 N=20 K=12  grid 5x4  block 4x4");

  const Result cmp = run("compare " + rung.string() + " " + textbook.string());
  ASSERT_EQ(cmp.code, 0) << cmp.err;
  EXPECT_EQ(cmp.out.rfind("a: blocktile-2d  " + tiling + "  M=16 N=20 K=12 (CPU emulator)\n"
                          "b: tiled  TILE=4  M=16 N=20 K=12 (CPU emulator)\n",
                          0),
            0u)
      << cmp.out;
  for (const fs::path& f : {rung, focused, textbook}) fs::remove(f);
}

// A build without the GUI records its scene on the command line: warptile's
// fixed tiles are BM = BN = 128, BK = 16, WM = 64, WN = 32, TM = TN = 8.
TEST(Cli, DefaultSceneSaysTheRungsTiling) {
  const Result r = run("--version");
  if (r.out.find("GUI no") == std::string::npos)
    GTEST_SKIP() << "built with the GUI: the default scene opens a window";
  const Result scene = run("--kernel warptile --m 16 --n 16 --k 16 --device cpu");
  ASSERT_EQ(scene.code, 0) << scene.err;
  EXPECT_NE(scene.out.find("\nwarptile block 128x128x16  warp 64x32  thread 8x8 M=16 N=16 K=16 on CPU emulator: "),
            std::string::npos)
      << scene.out;
  const Result textbook = run("--kernel coarsened --tile 8 --m 16 --n 16 --k 16 --device cpu");
  ASSERT_EQ(textbook.code, 0) << textbook.err;
  EXPECT_NE(textbook.out.find("\ncoarsened TILE=8 M=16 N=16 K=16 on CPU emulator: "), std::string::npos)
      << textbook.out;
}

TEST(Cli, BadInputGetsOneClearLine) {
  const std::string out = " -o " + temp("bad.tstrace").string();
  expect_one_line_error(run("record --kernel fancy" + out), "unknown kernel 'fancy'");
  expect_one_line_error(run("record --tile 3" + out), "TILE must be a power of two");
  expect_one_line_error(run("record --tile 64" + out), "TILE must be a power of two");
  expect_one_line_error(run("record --size 100000" + out), "recording limit");
  expect_one_line_error(run("record --size 0" + out), "at least 1");
  // A said 0 is refused as --size 0 is, not replaced by --size.
  expect_one_line_error(run("record --device cpu --m 0 --n 4 --k 4" + out), "at least 1 (M=0 N=4 K=4)");
  expect_one_line_error(run("record --device cpu --size 8 --k 0" + out), "at least 1 (M=8 N=8 K=0)");
  expect_one_line_error(run("counters --device cpu --size 8 --n 0 --json"), "at least 1 (M=8 N=0 K=8)");
  // Flags of a focused trace that would otherwise record the whole launch without a word.
  expect_one_line_error(run("record --device cpu --size 8 --blocks ''" + out), "--blocks names no block");
  expect_one_line_error(run("record --device cpu --size 8 --counters" + out), "--counters goes with --blocks");
  expect_one_line_error(run("record --device tpu" + out), "unknown device");
  // A 64-bit seed is digits of a number that fits (CLI11 alone reads -1 and 2^64 as 2^64 - 1).
  for (const char* seed : {"-1", "18446744073709551616", "1e5", "+5"})
    expect_one_line_error(run("record --device cpu --size 8 --seed " + std::string(seed) + out),
                          "--seed: expects a whole number from 0 to 2^64 - 1");
  expect_one_line_error(run("bench --seed -1"), "--seed: expects a whole number");
  // --gpu names the preset whose waves wave:W counts: a name it does not know, or no wave:W, is a usage error.
  expect_one_line_error(run("record --device cpu --size 8 --gpu h100" + out), "it goes with wave:W");
  expect_one_line_error(run("record --device cpu --size 8 --blocks wave:0 --gpu nonsense" + out),
                        "unknown GPU preset 'nonsense'");
  expect_one_line_error(run("record --device cpu -o /nonexistent/dir/x.tstrace"), "cannot write");
  expect_one_line_error(run("record --device cpu -o " + fs::temp_directory_path().string()), "directory");
  expect_one_line_error(run("record --frobnicate"), "frobnicate");
  expect_one_line_error(run("stats /nonexistent.tstrace --json"), "cannot open");
  expect_one_line_error(run("stats " + std::string(TILESCOPE_BIN)), "not a tilescope trace");
  EXPECT_FALSE(fs::exists(temp("bad.tstrace")));
}

// Standard output that cannot be written (a full disk) is a failure, not exit 0
// with the result lost.
TEST(Cli, AnOutputThatCannotBeWrittenFails) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const fs::path t = temp("full.tstrace");
  ASSERT_EQ(run("record --device cpu --size 8 --tile 4 -o " + t.string()).code, 0);
  const std::string commands[] = {"stats " + t.string(), "stats " + t.string() + " --json",
                                  "compare " + t.string() + " " + t.string(),
                                  "counters --device cpu --size 8 --tile 4 --json", "occupancy --gpu list"};
  for (const std::string& cmd : commands)
    expect_one_line_error(run(cmd + " >/dev/full"), "cannot write");
  expect_one_line_error(run("export " + t.string() + " --csv >/dev/full"), "cannot write");
  fs::remove(t);
}

TEST(Cli, GpuWithoutGpuIsRefused) {
  const Result probe = run("record --device gpu --size 8 --tile 4 -o " + temp("g.tstrace").string());
  if (probe.code == 0) GTEST_SKIP() << "a GPU is present";
  expect_one_line_error(probe, "--device gpu");
}

TEST(Cli, TruncatedTraceIsRefused) {
  const fs::path f = temp("trunc.tstrace");
  ASSERT_EQ(run("record --device cpu --size 8 --tile 4 -o " + f.string()).code, 0);
  fs::resize_file(f, fs::file_size(f) / 2);
  expect_one_line_error(run("stats " + f.string() + " --json"), "truncated");
  expect_one_line_error(run("export " + f.string() + " --csv"), "truncated");
  fs::remove(f);
}

TEST(Cli, ExportNeverOverwritesItsInput) {
  const fs::path t = temp("self.tstrace"), csv = temp("self.csv");
  ASSERT_EQ(run("record --device cpu --size 8 --tile 4 -o " + t.string()).code, 0);
  const auto size = fs::file_size(t);
  expect_one_line_error(run("export " + t.string() + " --csv -o " + t.string()), "is the input");
  EXPECT_EQ(fs::file_size(t), size);
  EXPECT_NO_THROW(ts::load_trace(t));
  { std::ofstream(csv) << "old"; }
  const Result ok = run("export " + t.string() + " --csv -o " + csv.string());
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_GT(fs::file_size(csv), 100u);  // replaced whole, through a temporary
  fs::remove(t);
  fs::remove(csv);
}

}  // namespace
