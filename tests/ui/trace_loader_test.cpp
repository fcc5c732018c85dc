// Recording, opening and saving off the UI thread: results, failures as
// messages, superseded requests, recordings kept in memory, the other TILE
// recorded ahead.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/core/trace_file.h"
#include "tests/ui/loader_test_support.h"

namespace ts::ui {
namespace {

namespace fs = std::filesystem;

std::optional<TraceLoader::Result> finish(TraceLoader& loader) {
  loader.wait();
  return loader.take();
}

fs::path temp(const std::string& name) { return fs::temp_directory_path() / (std::to_string(::getpid()) + "_" + name); }

TEST(TraceLoader, RecordsOffTheCallingThread) {
  TraceLoader loader;
  loader.set_prefetch(false);
  loader.record(test::cpu_params(KernelKind::Tiled, 4, 16, InputKind::Random, 11));
  EXPECT_TRUE(loader.busy());
  const auto r = finish(loader);
  ASSERT_TRUE(r);
  ASSERT_TRUE(r->trace) << r->error;
  EXPECT_EQ(r->trace->trace.launch.tile, 4);
  EXPECT_EQ(r->trace->trace.launch.seed, 11u);
  EXPECT_EQ(r->trace->index->steps(), 5u);
  EXPECT_NE(r->message.find("recorded in"), std::string::npos);
  EXPECT_FALSE(loader.busy());
}

TEST(TraceLoader, FailuresComeBackAsMessages) {
  TraceLoader loader;
  RecordParams bad = test::cpu_params(KernelKind::Tiled, 3, 16, InputKind::Random, 1);
  loader.record(bad);
  auto r = finish(loader);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->trace);
  EXPECT_NE(r->error.find("TILE must be a power of two"), std::string::npos) << r->error;

  loader.open("/nonexistent/dir/t.tstrace");
  r = finish(loader);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->trace);
  EXPECT_NE(r->error.find("t.tstrace"), std::string::npos) << r->error;

  const fs::path corrupt = temp("corrupt.tstrace");
  std::ofstream(corrupt) << "TSCTRACE this is not a trace at all";
  loader.open(corrupt);
  r = finish(loader);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->trace);
  EXPECT_NE(r->error.find("opening"), std::string::npos) << r->error;
  fs::remove(corrupt);
}

TEST(TraceLoader, SavesAndOpensWhatItSaved) {
  TraceLoader loader;
  loader.set_prefetch(false);
  auto trace = test::small_example();
  const fs::path path = temp("saved.tstrace");
  loader.save(trace, path);
  auto r = finish(loader);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->error.empty()) << r->error;
  loader.open(path);
  r = finish(loader);
  ASSERT_TRUE(r && r->trace) << (r ? r->error : "");
  EXPECT_EQ(r->trace->trace.c, trace->trace.c);
  EXPECT_NE(r->trace->origin.find("saved.tstrace"), std::string::npos);
  fs::remove(path);
}

TEST(TraceLoader, OnlyTheNewestRequestIsDelivered) {
  TraceLoader loader;
  loader.set_prefetch(false);
  loader.record(test::cpu_params(KernelKind::Tiled, 16, 64, InputKind::Random, 5));
  loader.record(test::cpu_params(KernelKind::Tiled, 8, 24, InputKind::Random, 5));
  loader.record(test::cpu_params(KernelKind::Tiled, 4, 8, InputKind::Random, 5));
  std::vector<TraceLoader::Result> delivered;
  while (loader.busy()) {
    loader.wait();
    if (auto r = loader.take()) delivered.push_back(*r);
  }
  ASSERT_EQ(delivered.size(), 1u);
  ASSERT_TRUE(delivered[0].trace);
  EXPECT_EQ(delivered[0].trace->trace.launch.m, 8);
}

TEST(TraceLoader, RecordingsStayInMemoryAndTheOtherTileIsRecordedAhead) {
  TraceLoader loader;
  const RecordParams p16 = test::cpu_params(KernelKind::Tiled, 16, 32, InputKind::Random, 21);
  RecordParams p32 = p16;
  p32.tile = 32;
  loader.record(p16);
  const auto first = finish(loader);
  ASSERT_TRUE(first && first->trace);
  EXPECT_FALSE(loader.busy());  // the prefetch does not count as busy
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!loader.in_memory(p32) && std::chrono::steady_clock::now() < deadline) {
    EXPECT_FALSE(loader.take());  // what the app's frame loop does: the prefetch delivers nothing
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(loader.in_memory(p32));
  // Both are answered at once, without a job.
  loader.record(p32);
  auto r = loader.take();
  ASSERT_TRUE(r && r->trace);
  EXPECT_EQ(r->trace->trace.launch.tile, 32);
  EXPECT_EQ(r->trace->trace.launch.seed, 21u);
  loader.record(p16);
  r = loader.take();
  ASSERT_TRUE(r && r->trace);
  EXPECT_EQ(r->trace, first->trace);
  // A different seed is a different recording.
  RecordParams other = p16;
  other.seed = 22;
  EXPECT_FALSE(loader.in_memory(other));
}

// File > Trace a kernel as it is: `tilescope record` in a process of its own;
// what it says on failure comes back as the job's error, and no file is left.
TEST(TraceLoader, TracingRunsRecordAndBringsBackWhatItSaid) {
#ifdef TILESCOPE_BIN
  TraceLoader loader;
  loader.set_executable(TILESCOPE_BIN);
  loader.record_command({"--library", "nope", "--m", "8", "--n", "8", "--k", "8"});
  auto r = finish(loader);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->trace);
  EXPECT_NE(r->error.find("exited with status 2: unknown --library 'nope'"), std::string::npos) << r->error;

  const std::vector<std::string> cublas = {"--library", "cublas", "--m", "8", "--n", "8", "--k", "8"};
  loader.record_command(cublas);
  r = finish(loader);
  ASSERT_TRUE(r);
  if (r->trace) GTEST_SKIP() << "this machine has the tracer and a GPU: traced " << r->message;
  EXPECT_TRUE(r->error.find("the tracer is not built") != std::string::npos ||
              r->error.find("no GPU") != std::string::npos)
      << r->error;
  for (const auto& entry : fs::directory_iterator(fs::temp_directory_path()))
    EXPECT_FALSE(entry.path().filename().string().starts_with("tilescope-app-" + std::to_string(::getpid())))
        << entry.path();
#else
  GTEST_SKIP() << "built without the tilescope executable (no GUI)";
#endif
}

}  // namespace
}  // namespace ts::ui
