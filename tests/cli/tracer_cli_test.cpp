// tracer_cli_test.cpp — `tilescope record --exec`'s refusals, which need no
// GPU: no program, bad sizes or layout, a program without --exec, and the
// tracer library missing (scripts/gpu-checks.d/87-tracer.sh runs it for real).
#include <cstdlib>
#include <filesystem>

#include "tests/cli/cli_support.h"

namespace ts::test {
namespace {

TEST(TracerCli, ExecNeedsAProgram) {
  expect_one_line_error(run("record --exec --m 8 --n 8 --k 8 -o " + temp("t.tstrace").string()),
                        "--exec needs a program to run");
}

TEST(TracerCli, BadSizesAndLayoutAreUsageErrors) {
  const Result zero = run("record --exec --m 0 --n 8 --k 8 -- /bin/true");
  expect_one_line_error(zero, "--m, --n and --k must each be at least 1");
  EXPECT_EQ(zero.code, 2);
  const Result layout = run("record --exec --layout diagonal -- /bin/true");
  expect_one_line_error(layout, "unknown --layout 'diagonal'");
  EXPECT_EQ(layout.code, 2);
  expect_one_line_error(run("record --exec --m x -- /bin/true"), "--m");
}

TEST(TracerCli, AProgramGoesWithExec) {
  const Result r = run("record -o " + temp("t.tstrace").string() + " -- /bin/true");
  expect_one_line_error(r, "a program to run goes with --exec");
  EXPECT_EQ(r.code, 2);
}

TEST(TracerCli, WithoutTheTracerLibraryItSaysSo) {
  const Result r = run("record --exec --m 8 --n 8 --k 8 -o " + temp("t.tstrace").string() + " -- /bin/true");
  if (r.code == 0) GTEST_SKIP() << "this build has the tracer";
  expect_one_line_error(r, "the tracer is not built");
  EXPECT_EQ(r.code, 1);
  const Result env = run("record --exec --m 8 --n 8 --k 8 -o " + temp("t.tstrace").string() + " -- /bin/true",
                         "TILESCOPE_TRACER_LIBRARY=/nonexistent/libtilescope_tracer.so");
  expect_one_line_error(env, "/nonexistent/libtilescope_tracer.so (TILESCOPE_TRACER_LIBRARY)");
}

const std::string kFloat4 = TILESCOPE_SOURCE_TREE "/examples/cuda/sgemm_blocktile_float4.cu";
const std::string kFloat4Base = " --cuda-file " + kFloat4 + " --entry sgemm_blocktile_float4 --m 128 --n 128 --k 64";
const std::string kFloat4Launch = kFloat4Base + " --grid 2,2 --block 256";

// `launch` and `record` share the launch flags: each misuse is a usage error
// found before any GPU work, in every build.
TEST(TracerCli, LaunchFlagMisusesAreUsageErrors) {
  const std::string out = " -o " + temp("t.tstrace").string();
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--library nope", "unknown --library 'nope' (tilescope knows cublas)"},
      {"--library cublas --math fp16", "unknown --math 'fp16' (choose fp32 or tf32)"},
      {"--math tf32", "--math goes with --library cublas"},
      {"--cuda-file " + kFloat4, "--cuda-file needs --entry NAME"},
      {"--cuda-file " + kFloat4 + " --entry sgemm_blocktile_float4", "--cuda-file needs --grid X,Y[,Z]"},
      {kFloat4Base + " --grid 0,1 --block 256", "--grid 0,1: X,Y[,Z] (or XxY), each at least 1"},
      {kFloat4Base + " --grid 2,2 --block 64x32", "--block 64x32: more than 1024 threads"},
      {kFloat4Launch + " --arg alpha=1", "'float beta' of sgemm_blocktile_float4 is not bound"},
      {kFloat4Launch + " --arg alpha=1 --arg beta=0 --arg A=@D", "bind it to one of the matrices, --arg A=@A"},
      {kFloat4Launch + " --arg alpha=1 --arg beta=0 --library cublas", "--cuda-file and --library name two launches"},
      {"--entry f --arg x=1", "--entry, --grid, --dynamic-shared, -D and --arg go with --cuda-file FILE"},
      {"--library cublas --layout diagonal", "unknown --layout 'diagonal'"},
      {"--kernel tiled --layout col", "tilescope's kernels take row-major A, B and C"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const Result launched = run("launch " + c.args);
    expect_one_line_error(launched, c.message);
    EXPECT_EQ(launched.code, 2);
    if (c.args.find("--layout") != std::string::npos || c.args.starts_with("--entry")) continue;  // record's differ
    const Result recorded = run("record " + c.args + out);
    expect_one_line_error(recorded, c.message);
    EXPECT_EQ(recorded.code, 2);
  }
  expect_one_line_error(run("record --tracer --kernel tiled --exec" + out + " -- /bin/true"),
                        "--exec traces a program of yours; --cuda-file, --library and --tracer trace tilescope's own");
  expect_one_line_error(run("record --tracer --kernel tiled --blocks 0,0" + out),
                        "--blocks and --check take tilescope's instrumented recorders");
}

TEST(TracerCli, RecordingThroughTheTracerWithoutItSaysSo) {
  const Result r = run("record --library cublas --m 8 --n 8 --k 8 -o " + temp("t.tstrace").string());
  if (r.code == 0) GTEST_SKIP() << "this build has the tracer and a GPU";
  expect_one_line_error(r, "the tracer is not built");
  EXPECT_EQ(r.code, 1);
  EXPECT_FALSE(std::filesystem::exists(temp("t.tstrace")));
}

}  // namespace
}  // namespace ts::test
