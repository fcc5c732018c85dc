// `tilescope bench` through the real binary, on a machine without a GPU (as
// CI is): "no GPU found" and a non-zero exit, and one clear line for every
// bad flag, checked before any GPU work.
#include <gtest/gtest.h>

#include "kernels/cuda/gpu_runtime.h"
#include "tests/cli/cli_support.h"

namespace ts {
namespace {

using test::expect_one_line_error;
using test::Result;
using test::run;
using test::temp;

TEST(BenchCli, NoGpuIsOneLineAndNonZero) {
  if (gpu::probe().available) GTEST_SKIP() << "a GPU is here: the gpu-labelled tests run the benchmark";
  const Result r = run("bench --size 256 --kernels ladder");
  expect_one_line_error(r, "no GPU found");
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(BenchCli, BadFlagsAreRefusedFirst) {
  expect_one_line_error(run("bench --runs 5"), "--runs");  // the issue asks for at least 20
  expect_one_line_error(run("bench --sweep huge"), "--sweep");
  expect_one_line_error(run("bench --size 0"), "--size");
  expect_one_line_error(run("bench --shape 4096x1024"), "MxNxK");
  expect_one_line_error(run("bench --shape 0x4x4"), "MxNxK");
  expect_one_line_error(run("bench -o " + temp("results.txt").string()), "name it .json or .csv");
  expect_one_line_error(run("bench -o /nonexistent-dir/r.json"), "not writable");
  EXPECT_EQ(run("bench --runs 5").code, 2);  // usage errors exit 2
}

TEST(BenchCli, HelpNamesTheOptions) {
  const Result r = run("bench --help");
  EXPECT_EQ(r.code, 0);
  for (const char* option : {"--kernels", "--size", "--shape", "--sweep", "--runs", "--output", "--list"})
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
}

}  // namespace
}  // namespace ts
