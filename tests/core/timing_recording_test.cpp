// Timing recordings to and from JSON: a round trip, and one clear error for
// each way a hostile or broken file can be wrong.
#include "app/core/timing_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "tests/core/timing_test_support.h"

namespace ts {
namespace {

TimingRecording sample() {
  return test::tiled16_timing(132, {{3, 0, 5000, 6000}, {4, 0, 5000, 6500}, {3, 0, 6000, 7000}, {131, 0, 5100, 5200}});
}

TEST(TimingRecording, RoundTripsThroughJsonRelativeToTheFirstStart) {
  const TimingRecording r = sample();
  const TimingRecording back = timing_from_json(timing_to_json(r, true));
  EXPECT_EQ(back.launch.kernel, "tiled");
  EXPECT_EQ(back.launch.device_name, "test GPU");
  EXPECT_EQ(back.sm_count, 132);
  EXPECT_EQ(back.timed_kernel.registers_per_thread, 32);
  EXPECT_EQ(back.api_blocks_per_sm, 8);
  EXPECT_EQ(back.warps_per_block(), 8);
  ASSERT_EQ(back.blocks.size(), 4u);
  EXPECT_EQ(back.blocks[0].start_ns, 0u);
  EXPECT_EQ(back.blocks[1].end_ns, 1500u);
  EXPECT_EQ(back.blocks[3].sm, 131u);
  EXPECT_FALSE(timing_to_json(r, false).contains("blocks"));
}

TEST(TimingRecording, SavesAndLoadsFiles) {
  const auto path = std::filesystem::temp_directory_path() / ("ts_timing_" + std::to_string(::getpid()) + ".json");
  save_timing(sample(), path.string());
  EXPECT_EQ(load_timing(path.string()).blocks.size(), 4u);
  std::filesystem::remove(path);
  EXPECT_THROW(load_timing(path.string()), TimingFileError);
  std::ofstream(path) << "{not json";
  EXPECT_THROW(load_timing(path.string()), TimingFileError);
  std::filesystem::remove(path);
  EXPECT_THROW(save_timing(sample(), "/nonexistent-dir/x.json"), TimingFileError);
}

TEST(TimingRecording, BrokenFilesGetOneClearError) {
  const nlohmann::json good = timing_to_json(sample(), true);
  const std::vector<std::pair<const char*, std::function<void(nlohmann::json&)>>> breaks{
      {"not a tilescope timing", [](nlohmann::json& j) { j["format"] = "something"; }},
      {"version", [](nlohmann::json& j) { j["version"] = 99; }},
      {"sm_count", [](nlohmann::json& j) { j["sm_count"] = -1; }},
      {"sm_count", [](nlohmann::json& j) { j["sm_count"] = 1e30; }},
      // A parsed 0 is stored unsigned: the lower bound must hold for it too.
      {"sm_count", [](nlohmann::json& j) { j["sm_count"] = 0u; }},
      {"max_warps_per_sm", [](nlohmann::json& j) { j["max_warps_per_sm"] = 0u; }},
      {"max_warps_per_sm", [](nlohmann::json& j) { j["max_warps_per_sm"] = "64"; }},
      {"block size", [](nlohmann::json& j) { j["timed_kernel"]["threads_per_block"] = 64; }},
      {"grid has 4", [](nlohmann::json& j) { j["blocks"]["sm"].erase(0); j["blocks"]["start_ns"].erase(0); j["blocks"]["end_ns"].erase(0); }},
      {"different lengths", [](nlohmann::json& j) { j["blocks"]["end_ns"].erase(0); }},
      {"SM 500", [](nlohmann::json& j) { j["blocks"]["sm"][1] = 500; }},
      {"ends before", [](nlohmann::json& j) { j["blocks"]["end_ns"][2] = 0; }},
      {"non-integer", [](nlohmann::json& j) { j["blocks"]["start_ns"][0] = -3; }},
      {"blocks", [](nlohmann::json& j) { j.erase("blocks"); }},
      {"launch", [](nlohmann::json& j) { j["launch"] = 3; }},
  };
  for (const auto& [needle, mutate] : breaks) {
    nlohmann::json j = good;
    mutate(j);
    try {
      timing_from_json(j);
      ADD_FAILURE() << "accepted a file with a broken " << needle;
    } catch (const TimingFileError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << needle << ": " << e.what();
    }
  }
  EXPECT_THROW(timing_from_json(nlohmann::json::array()), TimingFileError);
}

}  // namespace
}  // namespace ts
