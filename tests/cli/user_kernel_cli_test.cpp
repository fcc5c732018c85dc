// `tilescope record --kernel-file`: the user's kernel through the command
// line, with the checks on by default, and the exit status for each outcome
// (README, examples/kernels/README.md): 0 right, 1 too large, 2 a usage error
// (a malformed flag, an --arg the entry cannot take), 3 findings, 4 does not
// compile, 5 stopped with the checks off, 6 a wrong C.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>

#include "tests/cli/cli_support.h"

namespace ts::test {
namespace {

class UserKernelCli : public ::testing::Test {
 protected:
  void SetUp() override { setenv("TILESCOPE_CACHE_DIR", TILESCOPE_TEST_KERNEL_CACHE, 1); }
  void TearDown() override { std::filesystem::remove(out_); }

  // record --kernel-file FILE (under the source tree) --entry ENTRY, TILE 16 blocks.
  Result record(const std::string& file, const std::string& entry, const std::string& more) {
    return run("record --kernel-file " + std::string(TILESCOPE_SOURCE_TREE) + "/" + file + " --entry " + entry +
               " --block 16x16 -D TILE=16 --device cpu --check-limit 2 " + more + " -o " + out_.string());
  }

  std::filesystem::path out_ = temp("user.tstrace");
};

TEST_F(UserKernelCli, ACorrectKernelAtARaggedSizeHasNoFindingsAndTheRightC) {
  const Result r = record("examples/kernels/first_tiled.cu", "matmul_tiled", "--m 37 --n 29 --k 45");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("check: no findings"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("C equals A x B"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(out_));
}

// A loop that never ends: stopped at --timeout with exit 7, the message naming
// the block, the thread and the loop's line, and no trace written.
TEST_F(UserKernelCli, AnEndlessLoopIsStoppedAtTheTimeoutAndSaysWhere) {
  const Result r = record("tests/kernels/data/endless_loop.cu", "matmul_endless", "--size 8 --timeout 1 --check=off");
  EXPECT_EQ(r.code, 7) << r.out << r.err;
  EXPECT_NE(r.err.find("still running after 1 s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("block (0,0) thread ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at line 12"), std::string::npos) << r.err;  // the loop's access, endless_loop.cu:12
  EXPECT_FALSE(std::filesystem::exists(out_));
}

TEST_F(UserKernelCli, AMissingBoundsCheckIsFoundByDefaultAndTheTraceKept) {
  const Result r = record("examples/kernels/missing_bounds_check.cu", "matmul_tiled", "--size 50");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("check: out of bounds: thread (0,2) of block (0,0) reads B[2500] at line 19"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("at most 2 of each kind shown"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("computed a wrong C"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(out_));
}

TEST_F(UserKernelCli, WithTheChecksOffTheFirstFaultStopsTheRun) {
  const Result r = record("examples/kernels/missing_bounds_check.cu", "matmul_tiled", "--size 50 --check=off");
  EXPECT_EQ(r.code, 5) << r.out << r.err;
  EXPECT_NE(r.err.find("access outside B"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("check:"), std::string::npos) << r.out;
}

// Past what an event counts (4095 barriers, 4095 k-steps): exit 1 and no trace,
// not a fault of the kernel (5) nor a trace the loader refuses (was exit 0).
TEST_F(UserKernelCli, PastTheEventsFieldsIsTooLarge) {
  Result r = record("examples/kernels/first_tiled.cu", "matmul_tiled", "--m 1 --n 1 --k 65536");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("beyond the recording limit"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("4095 barriers"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out_));
  r = record("tests/kernels/data/naive_user.cu", "matmul_naive", "--m 1 --n 1 --k 65536");  // k-steps of 16
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("make 4096 of them, and an event counts at most 4095"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out_));
  r = record("tests/kernels/data/naive_user.cu", "matmul_naive", "--m 1 --n 1 --k 65520");  // 4095: it holds
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(run("stats " + out_.string()).code, 0);
}

TEST_F(UserKernelCli, AMissingBarrierIsARaceNamingBothLines) {
  const Result r = record("examples/kernels/missing_barrier.cu", "matmul_tiled", "--size 32");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("check: race:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("at line 23"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("at line 18"), std::string::npos) << r.out;
}

TEST_F(UserKernelCli, ACompileErrorNamesTheUsersFileAndLine) {
  const Result r = record("tests/kernels/data/syntax_error.cu", "broken", "--size 8");
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("syntax_error.cu:5:"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out_));
}

// Without the GUI, `tilescope --kernel-file ...` records the scene on the
// command line: a compile error keeps the compiler's lines, as `record` does
// (was one line with every newline escaped as \x0A).
TEST_F(UserKernelCli, TheDefaultSceneKeepsTheCompilersLines) {
  if (run("--version").out.find("GUI no") == std::string::npos)
    GTEST_SKIP() << "built with the GUI: the default scene opens a window";
  const Result r = run("--kernel-file " + std::string(TILESCOPE_SOURCE_TREE) +
                       "/tests/kernels/data/syntax_error.cu --entry broken --block 4x4 --size 8 --device cpu");
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(r.err.rfind("tilescope: ", 0), 0u) << r.err;
  EXPECT_GT(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.find("\\x0A"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("syntax_error.cu:5:"), std::string::npos) << r.err;
}

TEST_F(UserKernelCli, ANameTheFileDoesNotDefineIsACompileError) {
  const Result r = record("examples/kernels/first_tiled.cu", "matmul_tiling", "--size 8");
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("matmul_tiling"), std::string::npos) << r.err;
}

// --arg NAME=VALUE binds the entry's scalars after M, N, K: a blog's SGEMM
// listing records with its alpha and beta, C is checked against alpha A x B,
// and the trace keeps the args (stats shows them).
TEST_F(UserKernelCli, ArgsBindAListingsAlphaAndBeta) {
  const Result r = record("examples/kernels/sgemm_alpha_beta.cu", "sgemm", "--size 24 --arg alpha=2 --arg beta=0.5");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("check: no findings"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("C equals 2 x A x B (checked in double precision)"), std::string::npos) << r.out;
  const Result stats = run("stats --json " + out_.string());
  EXPECT_EQ(stats.code, 0) << stats.err;
  EXPECT_NE(stats.out.find("\"alpha=2\""), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("\"beta=0.5\""), std::string::npos) << stats.out;
}

// Each --arg the entry cannot take is a usage error (exit 2) of one line, and no trace.
TEST_F(UserKernelCli, ArgsTheEntryCannotTakeAreUsageErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"--arg alpha=2 --arg beta=0 --arg gamma=1",
       "has no parameter gamma after A, B, C, M, N, K; it takes float alpha, float beta"},
      {"--arg alpha=2", "takes float beta: give it a value with --arg beta=VALUE"},
      {"--arg alpha=two --arg beta=0", "--arg alpha=two: float alpha takes a finite number"},
      {"--arg alpha=2 --arg alpha=3 --arg beta=0", "--arg alpha is given twice"},
      {"--arg alpha --arg beta=0", "--arg alpha: an argument is NAME=VALUE"},
  };
  for (const auto& [args, message] : cases) {
    const Result r = record("examples/kernels/sgemm_alpha_beta.cu", "sgemm", std::string("--size 8 ") + args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out << r.err;
    expect_one_line_error(r, message);
    EXPECT_FALSE(std::filesystem::exists(out_)) << args;
  }
  const Result r = run("record --kernel tiled --size 8 --arg alpha=2 -o " + out_.string());
  EXPECT_EQ(r.code, 2) << r.err;
  expect_one_line_error(r, "--entry, --block-tile, -D and --arg go with --kernel-file FILE");
}

TEST_F(UserKernelCli, AnUnknownCheckModeIsRefused) {
  const Result r = record("examples/kernels/first_tiled.cu", "matmul_tiled", "--size 8 --check=sometimes");
  expect_one_line_error(r, "unknown --check mode 'sometimes'");
  EXPECT_FALSE(std::filesystem::exists(out_));
}

}  // namespace
}  // namespace ts::test
