// What the panels share: installing traces, stepping, selecting, playing, and
// failures that leave the previous trace on screen with a notice.
#include <cstdio>
#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"

namespace ts::ui {
namespace {

TEST(AppState, StepsAndSelectionStayInsideTheTrace) {
  AppState app;
  EXPECT_EQ(app.trace(), nullptr);
  app.install(test::small_example());
  EXPECT_EQ(app.replay.step, 0u);
  app.set_step(1000);
  EXPECT_EQ(app.replay.step, app.timeline().last_step());
  app.step_by(-1000);
  EXPECT_EQ(app.replay.step, 0u);
  app.select_cell(6, 0);  // outside C: ignored
  EXPECT_FALSE(app.selection.cell);
  EXPECT_FALSE(app.highlight());
  app.select_cell(5, 3);
  ASSERT_TRUE(app.highlight());
  const std::uint64_t g = app.highlight_generation();
  EXPECT_EQ(app.highlight_generation(), g);  // nothing changed
  app.step_by(1);
  EXPECT_NE(app.highlight_generation(), g);
  EXPECT_EQ(app.highlight()->step, app.step());
}

TEST(AppState, PlaybackAdvancesBySpeedAndStopsAtTheEnd) {
  AppState app;
  app.install(test::small_example());
  app.replay.playing = true;
  app.replay.steps_per_second = 4.0f;
  app.advance_playback(0.5);
  EXPECT_EQ(app.replay.step, 2u);
  app.advance_playback(100.0);
  EXPECT_EQ(app.replay.step, app.timeline().last_step());
  EXPECT_FALSE(app.replay.playing);
}

TEST(AppState, ANewTraceKeepsThePlaceInTheReplayAndTheCellWhereTheyExist) {
  AppState app;
  app.install(test::small_example());
  app.select_cell(5, 3);
  app.set_step(app.timeline().step_of({1, Phase::Mac, 1}));
  app.install(LoadedTrace::record(test::cpu_params(KernelKind::Tiled, 4, 12, InputKind::Random, 9)));
  EXPECT_EQ(app.step(), (ReplayStep{1, Phase::Mac, 1}));
  ASSERT_TRUE(app.selection.cell);
  EXPECT_EQ(app.params.tile, 4);  // the controls follow the trace on screen
  EXPECT_EQ(app.params.m, 12);
  app.install(LoadedTrace::record(test::cpu_params(KernelKind::Tiled, 2, 4, InputKind::Random, 9)));
  EXPECT_FALSE(app.selection.cell);  // (5, 3) is outside a 4 x 4 C
}

TEST(AppState, AFailedRecordingLeavesThePreviousTraceAndANotice) {
  AppState app;
  app.loader().set_prefetch(false);
  app.install(test::small_example());
  const LoadedTrace* before = app.trace();
  app.params.device = DeviceChoice::Gpu;
  app.record();
  app.wait_for_loader();
  if (app.gpu().available) GTEST_SKIP() << "a GPU is present: the GPU recording succeeds here";
  EXPECT_EQ(app.trace(), before);
  ASSERT_FALSE(app.notices().empty());
  const Notice& n = app.notices().back();
  EXPECT_EQ(n.level, NoticeLevel::Error);
  EXPECT_NE(n.text.find("previous trace"), std::string::npos) << n.text;

  app.open_trace("/nonexistent.tstrace");
  app.wait_for_loader();
  EXPECT_EQ(app.trace(), before);
  EXPECT_NE(app.notices().back().text.find("nonexistent.tstrace"), std::string::npos);
}

TEST(AppState, ReRecordingKeepsTheInputsUnlessAskedForNewOnes) {
  AppState app;
  app.loader().set_prefetch(false);
  app.params = test::cpu_params(KernelKind::Tiled, 4, 8, InputKind::Random, 0);
  app.record();
  app.wait_for_loader();
  ASSERT_TRUE(app.trace());
  const std::vector<float> a = app.trace()->trace.a;
  app.params.tile = 2;
  app.record();
  app.wait_for_loader();
  EXPECT_EQ(app.trace()->trace.launch.tile, 2);
  EXPECT_EQ(app.trace()->trace.a, a);
  app.record_new_inputs();
  app.wait_for_loader();
  EXPECT_NE(app.trace()->trace.a, a);
}

// File > Trace a kernel as it is: the form's fields become `tilescope record` flags.
TEST(TracerForm, EachSourceBecomesItsRecordFlags) {
  TracerForm f;
  std::snprintf(f.file, sizeof f.file, "%s", "k.cu");
  std::snprintf(f.entry, sizeof f.entry, "%s", "sgemm");
  std::snprintf(f.grid, sizeof f.grid, "%s", "4,4");
  std::snprintf(f.args, sizeof f.args, "%s", " alpha=2  beta=0 ");
  std::snprintf(f.defines, sizeof f.defines, "%s", "BK=8");
  using V = std::vector<std::string>;
  EXPECT_EQ(tracer_form_arguments(f, 64, 32, 16),
            (V{"--m", "64", "--n", "32", "--k", "16", "--cuda-file", "k.cu", "--entry", "sgemm", "--grid", "4,4",
               "--block", "16,16", "--dynamic-shared", "0", "-D", "BK=8", "--arg", "alpha=2", "--arg", "beta=0"}));
  f.source = 1;
  f.math = 1;
  f.layout = 1;
  EXPECT_EQ(tracer_form_arguments(f, 8, 8, 8),
            (V{"--m", "8", "--n", "8", "--k", "8", "--layout", "row", "--library", "cublas", "--math", "tf32"}));
  f.source = 2;
  f.layout = 0;
  f.launch = 2;
  std::snprintf(f.command, sizeof f.command, "%s", "./prog 256 --fast");
  std::snprintf(f.kernel_name, sizeof f.kernel_name, "%s", "gemm");
  EXPECT_EQ(tracer_form_arguments(f, 8, 8, 8), (V{"--m", "8", "--n", "8", "--k", "8", "--exec", "--launch", "2",
                                                  "--kernel-name", "gemm", "--", "./prog", "256", "--fast"}));
}

}  // namespace
}  // namespace ts::ui
