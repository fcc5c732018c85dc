// Where the shipped results are found: a path that exists stays as given;
// "assets/..." that does not exist here is found in the asset directory (in
// a build tree, the source tree's assets/); anything else stays unchanged.
// The installed case (../share/tilescope beside the executable) is checked
// by tests/packaging on an installed tilescope.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/core/assets.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

// Runs the body in an empty temporary working directory.
class InTempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    old_ = fs::current_path();
    dir_ = fs::temp_directory_path() / ("ts_assets_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    fs::current_path(dir_);
  }
  void TearDown() override {
    fs::current_path(old_);
    fs::remove_all(dir_);
  }
  fs::path old_, dir_;
};

TEST_F(InTempDir, AnAssetPathFromElsewhereIsFoundInTheAssetDirectory) {
  const auto dir = asset_dir();
  ASSERT_TRUE(dir);
  EXPECT_EQ(*dir, fs::path(TILESCOPE_SOURCE_DIR) / "assets");  // a build tree, nothing installed beside it
  const fs::path found = resolve_asset("assets/bench/h200.json");
  EXPECT_EQ(found, *dir / "bench" / "h200.json");
  EXPECT_TRUE(fs::exists(found));
}

TEST_F(InTempDir, AFileInTheWorkingDirectoryWins) {
  fs::create_directories("assets/bench");
  std::ofstream("assets/bench/h200.json") << "{}";
  EXPECT_EQ(resolve_asset("assets/bench/h200.json"), fs::path("assets/bench/h200.json"));
}

TEST_F(InTempDir, TheEnvironmentNamesTheDirectory) {
  fs::create_directories("mine/bench");
  std::ofstream("mine/bench/h200.json") << "{}";
  setenv("TILESCOPE_ASSET_DIR", (dir_ / "mine").c_str(), 1);
  EXPECT_EQ(asset_dir(), dir_ / "mine");
  EXPECT_EQ(resolve_asset("assets/bench/h200.json"), dir_ / "mine" / "bench" / "h200.json");
  setenv("TILESCOPE_ASSET_DIR", (dir_ / "none").c_str(), 1);  // not there: nothing, not the source tree
  EXPECT_FALSE(asset_dir());
  EXPECT_EQ(resolve_asset("assets/bench/h200.json"), fs::path("assets/bench/h200.json"));
  unsetenv("TILESCOPE_ASSET_DIR");
}

TEST_F(InTempDir, OtherPathsStayAsGiven) {
  EXPECT_EQ(resolve_asset("assets/no/such.json"), fs::path("assets/no/such.json"));
  EXPECT_EQ(resolve_asset("results.json"), fs::path("results.json"));
  EXPECT_EQ(resolve_asset("/no/such/assets/x.json"), fs::path("/no/such/assets/x.json"));
}

}  // namespace
}  // namespace ts
