// tracer_cli_test.cpp — `tilescope record --exec`'s refusals, which need no
// GPU: no program, bad sizes or layout, a program without --exec, and the
// tracer library missing (scripts/gpu-checks.d/87-tracer.sh runs it for real).
#include <cstdlib>

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

}  // namespace
}  // namespace ts::test
