// `tilescope occupancy` and `tilescope timeline` through the real binary:
// the JSON contract, seed 001's numbers on the RTX 5070 Ti preset, what-if
// flags, saved timelines, and one clear line for every bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "app/core/timing_file.h"
#include "kernels/catalog.h"
#include "kernels/kernel_resources.h"
#include "tests/cli/cli_support.h"
#include "tests/core/timing_test_support.h"

namespace ts {
namespace {

using test::expect_one_line_error;
using test::Result;
using test::run;
using test::temp;

nlohmann::json json_of(const Result& r) {
  EXPECT_EQ(r.code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(OccupancyCli, ListsThePresets) {
  const nlohmann::json j = json_of(run("occupancy --gpu list --json"));
  ASSERT_TRUE(j.is_array());
  std::vector<std::string> names;
  for (const auto& p : j) names.push_back(p["name"]);
  for (const char* want : {"rtx3050", "rtx4090", "rtx5070ti", "a100", "h100", "h200"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  const Result text = run("occupancy --gpu list");
  EXPECT_NE(text.out.find("NVIDIA H200"), std::string::npos);
}

TEST(OccupancyCli, Seed001OnTheRtx5070Ti) {
  const nlohmann::json t16 = json_of(run("occupancy --gpu rtx5070ti --kernel tiled --tile 16 --json"));
  EXPECT_EQ(t16["blocks_per_sm"], 6);
  EXPECT_EQ(t16["active_warps_per_sm"], 48);
  EXPECT_DOUBLE_EQ(t16["occupancy"].get<double>(), 1.0);
  EXPECT_EQ(t16["limiting_factor"], "threads");
  EXPECT_EQ(t16["gpu"]["source"], "preset");
  EXPECT_EQ(t16["resources"]["threads_per_block"], 256);
  EXPECT_EQ(t16["resources"]["static_shared_bytes"], 2048);
  EXPECT_NE(t16["resources"]["source"].get<std::string>().find("sm_120"), std::string::npos);

  const nlohmann::json t32 =
      json_of(run("occupancy --gpu rtx5070ti --kernel tiled --tile 32 --carveout 16 --json"));
  EXPECT_EQ(t32["blocks_per_sm"], 1);
  EXPECT_EQ(t32["active_warps_per_sm"], 32);
  EXPECT_NEAR(t32["occupancy"].get<double>(), 2.0 / 3.0, 1e-12);
  EXPECT_EQ(t32["blocks_per_sm_by_limit"]["shared_memory"], 1);  // the seed's 16 KiB configuration
  EXPECT_EQ(t32["smallest_sufficient_carveout"], 16 * 1024);
}

// Seed 001's figures with no --registers in every build: a build without the
// CUDA Toolkit (the Debian package) reads the shipped compiler data, a CUDA
// build its own ptxas's, and the source says which.
TEST(OccupancyCli, TilesOnTheSeedsGpusWithoutRegistersFlag) {
  const nlohmann::json rtx = json_of(run("occupancy --gpu rtx5070ti --kernel tiled --tile 32 --json"));
  EXPECT_EQ(rtx["blocks_per_sm"], 1);
  EXPECT_NEAR(rtx["occupancy"].get<double>(), 0.667, 5e-4);
  EXPECT_EQ(rtx["limiting_factor"], "threads");
  const nlohmann::json h100 = json_of(run("occupancy --gpu h100 --kernel tiled --tile 32 --json"));
  EXPECT_EQ(h100["blocks_per_sm"], 2);
  EXPECT_DOUBLE_EQ(h100["occupancy"].get<double>(), 1.0);
  const nlohmann::json h100_16 = json_of(run("occupancy --gpu h100 --kernel tiled --tile 16 --json"));
  EXPECT_EQ(h100_16["blocks_per_sm"], 8);
  EXPECT_DOUBLE_EQ(h100_16["occupancy"].get<double>(), 1.0);
  const std::string source = rtx["resources"]["source"];
  EXPECT_NE(source.find("ptxas of nvcc"), std::string::npos) << source;
  EXPECT_EQ(source.find("shipped data") != std::string::npos, build_resource_table().rows.empty()) << source;
  const Result text = run("occupancy --gpu rtx5070ti --kernel tiled --tile 32");
  EXPECT_NE(text.out.find("registers and shared memory from: ptxas of nvcc"), std::string::npos) << text.out;
}

TEST(OccupancyCli, EveryKernelAndTileHasTheKeys) {
  const nlohmann::json all = json_of(run("occupancy --gpu h200 --kernel all --tile all --json"));
  ASSERT_TRUE(all.is_array());
  EXPECT_EQ(all.size(), 30u + std::size(kRungKernels));  // 6 kernels x 5 TILEs, and one row per rung
  for (const auto& row : all) {
    for (const char* key : {"blocks_per_sm", "active_warps_per_sm", "occupancy", "limiting_factor",
                            "blocks_per_sm_by_limit", "resources", "gpu", "kernel", "tile"})
      EXPECT_TRUE(row.contains(key)) << key;
    EXPECT_GT(row["occupancy"].get<double>(), 0.0);
    EXPECT_LE(row["occupancy"].get<double>(), 1.0);
    const bool rung = !takes_tile(*find_kernel(row["kernel"].get<std::string>()));
    EXPECT_EQ(row["tile"].is_null(), rung) << row["kernel"];  // a rung's tiles are fixed
  }
  const nlohmann::json presets = json_of(run("occupancy --gpu all --tile 16 --json"));
  EXPECT_GE(presets.size(), 6u);
}

// A rung of the ladder: its own block and shared memory whatever --tile says;
// the TF32 rung does not launch on a T4 (compute capability 7.5) and says why.
TEST(OccupancyCli, TheRungsHaveTheirOwnTilesAndNeeds) {
  const nlohmann::json w16 = json_of(run("occupancy --gpu h100 --kernel warptile --tile 16 --json"));
  const nlohmann::json w32 = json_of(run("occupancy --gpu h100 --kernel warptile --tile 32 --json"));
  EXPECT_EQ(w16, w32);
  EXPECT_TRUE(w16["tile"].is_null());
  EXPECT_EQ(w16["resources"]["threads_per_block"], rung_config(KernelKind::Warptile).threads);
  EXPECT_EQ(w16["resources"]["static_shared_bytes"], shared_bytes(KernelKind::Warptile, 0));
  EXPECT_GT(w16["blocks_per_sm"].get<int>(), 0);
  const nlohmann::json t4 = json_of(run("occupancy --gpu t4 --kernel tf32-tensor-core --json"));
  EXPECT_EQ(t4["blocks_per_sm"], 0);
  EXPECT_NE(t4["unlaunchable"].get<std::string>().find("compute capability 8.0"), std::string::npos) << t4;
  const Result text = run("occupancy --gpu t4 --kernel tf32-tensor-core");
  EXPECT_NE(text.out.find("does not launch: the kernel needs compute capability 8.0"), std::string::npos) << text.out;
}

TEST(OccupancyCli, WhatIfRegisters) {
  const nlohmann::json j = json_of(run("occupancy --gpu h100 --kernel tiled --tile 16 --registers 64 --json"));
  EXPECT_EQ(j["blocks_per_sm_by_limit"]["registers"], 4);
  EXPECT_EQ(j["limiting_factor"], "registers");
  EXPECT_DOUBLE_EQ(j["occupancy"].get<double>(), 0.5);
  EXPECT_NE(j["resources"]["source"].get<std::string>().find("assumed"), std::string::npos);
  const Result text = run("occupancy --gpu h100 --kernel tiled --tile 16 --registers 64");
  EXPECT_NE(text.out.find("50.0%"), std::string::npos) << text.out;
}

TEST(OccupancyCli, BadInputGetsOneClearLine) {
  expect_one_line_error(run("occupancy --gpu h300"), "unknown GPU 'h300'");
  expect_one_line_error(run("occupancy --gpu h100 --tile 3"), "TILE must be");
  expect_one_line_error(run("occupancy --gpu h100 --tile 16x"), "TILE must be");
  expect_one_line_error(run("occupancy --gpu h100 --kernel fancy"), "unknown kernel 'fancy'");
  expect_one_line_error(run("occupancy --gpu h100 --registers 300"), "registers");
  expect_one_line_error(run("occupancy --gpu h100 --carveout -1"), "carveout");
  const Result live = run("occupancy --gpu live");
  if (live.code != 0) expect_one_line_error(live, "choose a preset");
}

// 4 blocks of 256 threads (8 warps) on a 2-SM GPU with 64 warp slots:
// SM 0 runs two at once, SM 1 one and then another.
TimingRecording fixture() {
  return test::tiled16_timing(2, {{0, 0, 1000, 2000}, {0, 0, 1000, 2000}, {1, 0, 1000, 1500}, {1, 0, 1500, 2000}});
}

TEST(TimelineCli, SummarisesASavedRecording) {
  const auto f = temp("timeline.json");
  save_timing(fixture(), f.string());
  const nlohmann::json j = json_of(run("timeline --load " + f.string() + " --json --bins 4"));
  EXPECT_EQ(j["timeline"]["duration_ns"], 1000);
  EXPECT_EQ(j["timeline"]["max_coresident_blocks_per_sm"], 2);
  EXPECT_EQ(j["timeline"]["waves_observed"], 2);
  // 4 blocks x 8 warps x the times: SM 0 16 warps for 1000 ns, SM 1 8 warps for 1000 ns.
  EXPECT_DOUBLE_EQ(j["timeline"]["achieved_occupancy"].get<double>(), (16.0 + 8.0) / (2 * 64));
  EXPECT_DOUBLE_EQ(j["theoretical_occupancy"].get<double>(), 1.0);
  EXPECT_EQ(j["occupancy_over_time"]["values"].size(), 4u);
  const Result text = run("timeline --load " + f.string());
  EXPECT_NE(text.out.find("achieved occupancy"), std::string::npos) << text.out;
  std::filesystem::remove(f);
}

// The timing recorder writes no tiling: a textbook kernel's line says TILE=T;
// a rung's says its fixed tiles (kernels/rungs.h: warptile's BM = BN = 128,
// BK = 16, WM = 64, WN = 32, TM = TN = 8), and its JSON carries them.
TEST(TimelineCli, ARungSaysItsTilingATextbookKernelItsTile) {
  const auto f = temp("timeline_title.json");
  save_timing(fixture(), f.string());
  const Result textbook = run("timeline --load " + f.string());
  ASSERT_EQ(textbook.code, 0) << textbook.err;
  EXPECT_EQ(textbook.out.rfind("tiled TILE=16 M=16 N=64 K=64 on test GPU (2026-01-01T00:00:00Z): 4 blocks", 0), 0u)
      << textbook.out;
  EXPECT_EQ(json_of(run("timeline --load " + f.string() + " --json"))["launch"]["tiling"]["block_m"], 0);

  TimingRecording rung = fixture();
  rung.launch.kernel = "warptile";
  save_timing(rung, f.string());
  const Result text = run("timeline --load " + f.string());
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("warptile block 128x128x16  warp 64x32  thread 8x8 M=16 N=64 K=64 on test GPU (", 0), 0u)
      << text.out;
  EXPECT_EQ(text.out.find("TILE"), std::string::npos) << text.out;
  const nlohmann::json t = json_of(run("timeline --load " + f.string() + " --json"))["launch"]["tiling"];
  EXPECT_EQ(t["block_m"], 128);
  EXPECT_EQ(t["block_k"], 16);
  EXPECT_EQ(t["warp_n"], 32);
  std::filesystem::remove(f);
}

// ncu's CSV for a launch of blocks of 16 x 16 on `grid`, one row per metric.
std::string ncu_csv(const std::string& grid) {
  auto row = [](std::initializer_list<std::string> fields) {
    std::string line;
    for (const std::string& f : fields) line += (line.empty() ? "\"" : ",\"") + f + "\"";
    return line + "\n";
  };
  std::string out = "==PROF== Connected to process\n" +
                    row({"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
                         "Block Size", "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit",
                         "Metric Value"});
  const std::pair<const char*, const char*> metrics[] = {
      {"sm__warps_active.avg.pct_of_peak_sustained_active", "17.5"},
      {"sm__maximum_warps_per_active_cycle_pct", "100"},
      {"sm__cycles_active.avg", "900"},
      {"sm__cycles_elapsed.avg", "1,000"},
      {"launch__occupancy_limit_registers", "8"},
      {"launch__registers_per_thread", "32"}};
  const std::string kernel =
      "void ts::gpu::<unnamed>::timed_kernel<(ts::KernelKind)2, 16>(const float *, const float *, float *, int, "
      "int, int, ts::BlockTiming *)";
  for (const auto& [name, value] : metrics)
    out += row({"1", "42", "tilescope", "host", kernel, "1", "7", "(16, 16, 1)", grid, "0", "9.0",
                "Command line profiler metrics", name, "", value});
  return out;
}

TEST(TimelineCli, ComparesWithNsightCompute) {
  const auto f = temp("timeline_ncu.json"), csv = temp("ncu.csv"), other = temp("ncu_other.csv");
  save_timing(fixture(), f.string());
  std::ofstream(csv) << ncu_csv("(4, 1, 1)");
  std::ofstream(other) << ncu_csv("(8, 1, 1)");
  const nlohmann::json j = json_of(run("timeline --load " + f.string() + " --ncu " + csv.string() + " --json"));
  const nlohmann::json& c = j["ncu"];
  EXPECT_DOUBLE_EQ(c["achieved_occupancy"]["ncu"].get<double>(), 0.175);
  EXPECT_DOUBLE_EQ(c["achieved_occupancy"]["timeline"].get<double>(), 24.0 / 128);
  EXPECT_NEAR(c["achieved_occupancy"]["timeline_minus_ncu"].get<double>(), 24.0 / 128 - 0.175, 1e-12);
  EXPECT_DOUBLE_EQ(c["sm_active_fraction"]["ncu"].get<double>(), 0.9);
  EXPECT_DOUBLE_EQ(c["sm_active_fraction"]["timeline"].get<double>(), 1.0);
  EXPECT_EQ(c["occupancy_limits"]["ncu"]["registers"], 8);
  EXPECT_EQ(c["occupancy_limits"]["calculator"]["registers"], 8);  // 32 registers, 256 threads on 9.0
  EXPECT_TRUE(c["duration_ns"]["ncu"].is_null());  // not in this CSV
  const Result text = run("timeline --load " + f.string() + " --ncu " + csv.string());
  EXPECT_NE(text.out.find("Nsight Compute"), std::string::npos) << text.out;
  expect_one_line_error(run("timeline --load " + f.string() + " --ncu " + other.string()), "no launch of the timed kernel");
  expect_one_line_error(run("timeline --load " + f.string() + " --ncu /nonexistent.csv"), "cannot open");
  expect_one_line_error(run("timeline --load " + f.string() + " --ncu " + f.string()), "no ncu CSV table");
  for (const auto& p : {f, csv, other}) std::filesystem::remove(p);
}

TEST(TimelineCli, BadInputGetsOneClearLine) {
  expect_one_line_error(run("timeline --load /nonexistent.json"), "cannot open");
  expect_one_line_error(run("timeline --load " + std::string(TILESCOPE_BIN)), "not JSON");
  expect_one_line_error(run("timeline --tile 3"), "TILE must be");
  expect_one_line_error(run("timeline --kernel fancy"), "unknown kernel");
  expect_one_line_error(run("timeline --size 0"), "at least 1");
  expect_one_line_error(run("timeline --size 50000"), "2^31");
  expect_one_line_error(run("timeline --bins 0"), "bins");
  const Result gpu = run("timeline --size 64");
  if (gpu.code != 0) expect_one_line_error(gpu, "--load");
}

}  // namespace
}  // namespace ts
