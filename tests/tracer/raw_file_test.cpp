// raw_file_test.cpp — the tracer's raw file (tracer/raw_file.h) reads back
// what was written, and a cut or foreign file is refused by name.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tracer/raw_file.h"

namespace ts::tracer {
namespace {

std::string temp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name)).string();
}

RawLaunch sample() {
  RawLaunch L;
  L.traced = true;
  L.launches = {"a", "_Z1bv"};
  L.launch_index = 1;
  L.kernel = "_Z1bv";
  L.device_name = "NVIDIA H100";
  L.grid = {2, 3, 1};
  L.block = {16, 16, 1};
  L.static_shared_bytes = 2048;
  L.records_needed = L.capacity = 2;
  L.function_pc = 0x7f0000001000;
  L.function_size = 0x1a0;
  L.cubin = {0x7f, 'E', 'L', 'F', 2, 1};
  L.allocations = {{0x1000, 256, ""}, {0x2000, 64, "bias"}};
  L.shared_symbols = {{"As", 0, 1024}};
  L.snapshots = {{0, false, {1, 2, 3}}, {1, true, {}}};
  RawRecord r{};
  r.kind = kRecordGlobal;
  r.address = 0x1004;
  r.bytes = 4;
  L.records = {r, r};
  L.records[1].thread = 7;
  return L;
}

TEST(TracerRawFile, ReadsBackWhatItWrote) {
  const std::string path = temp("raw.tstracer");
  const RawLaunch L = sample();
  write_raw_launch(L, path);
  const RawLaunch R = read_raw_launch(path);
  EXPECT_EQ(R.traced, L.traced);
  EXPECT_EQ(R.launches, L.launches);
  EXPECT_EQ(R.kernel, L.kernel);
  EXPECT_EQ(R.device_name, L.device_name);
  EXPECT_EQ(R.grid, L.grid);
  EXPECT_EQ(R.block, L.block);
  EXPECT_EQ(R.static_shared_bytes, L.static_shared_bytes);
  EXPECT_EQ(R.function_pc, L.function_pc);
  EXPECT_EQ(R.function_size, L.function_size);
  EXPECT_EQ(R.cubin, L.cubin);
  EXPECT_EQ(R.allocations, L.allocations);
  EXPECT_EQ(R.shared_symbols, L.shared_symbols);
  EXPECT_EQ(R.snapshots, L.snapshots);
  ASSERT_EQ(R.records.size(), 2u);
  EXPECT_EQ(R.records[1].thread, 7);
  EXPECT_EQ(R.records[0].address, 0x1004u);
  std::filesystem::remove(path);
}

TEST(TracerRawFile, ACutOrForeignFileIsRefused) {
  const std::string path = temp("cut.tstracer");
  write_raw_launch(sample(), path);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 10);
  EXPECT_THROW(read_raw_launch(path), RawFileError);
  std::ofstream(path) << "not a tracer file at all";
  try {
    read_raw_launch(path);
    FAIL();
  } catch (const RawFileError& e) {
    EXPECT_NE(std::string(e.what()).find("not a tilescope tracer file"), std::string::npos);
  }
  std::filesystem::remove(path);
  EXPECT_THROW(read_raw_launch(path), RawFileError);
}

}  // namespace
}  // namespace ts::tracer
