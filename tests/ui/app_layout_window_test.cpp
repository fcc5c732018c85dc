// The real app's window layout on scripted scenes (label gui): at the sizes
// of a projector and of laptop and desktop screens, in normal and
// presentation mode, with every panel open, the layout the app writes
// (--layout-json) must show every window inside the screen, none over
// another or over the notices strip, nothing cut off at the right, and in
// presentation mode A, B and C covering at least 40% of the screen. Each
// size gets its own virtual X server of that size, so that presentation
// mode's full screen is that size too. Also: --panels, the saved layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"
#include "tests/ui/xvfb.h"

namespace ts::ui {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kSixBySix = "--kernel tiled --tile 2 --size 6 --inputs integers --seed 3 --select-c 5,3 --step 7";
constexpr const char* kDefaultScene = "--select-c 5,7 --step 3";

// Runs the app on DISPLAY `display` and returns its layout JSON (null on failure).
json layout_of(const std::string& display, const std::string& args) {
  const fs::path out = test::temp("layout.json");
  const char* old = std::getenv("DISPLAY");
  const std::string saved = old ? old : "";
  setenv("DISPLAY", display.c_str(), 1);
  const test::Result r = test::run("--device cpu " + args + " --layout-json " + out.string() + " --quit-after-frames 4");
  if (old) setenv("DISPLAY", saved.c_str(), 1);
  else unsetenv("DISPLAY");
  EXPECT_EQ(r.code, 0) << r.err;
  std::ifstream in(out);
  if (!in) return json();
  json j = json::parse(in);
  fs::remove(out);
  return j;
}

struct Box {
  double x, y, w, h;
};
Box box(const json& r) { return {r["x"].get<double>(), r["y"].get<double>(), r["width"].get<double>(), r["height"].get<double>()}; }
bool overlap(const Box& a, const Box& b) {
  const double e = 0.5;  // neighbours share an edge
  return a.x + e < b.x + b.w && b.x + e < a.x + a.w && a.y + e < b.y + b.h && b.y + e < a.y + a.h;
}

// Every window inside the screen, none over another, nothing cut off at the right.
void expect_tidy(const json& j, int width, int height, std::size_t panels) {
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["width"], width);
  EXPECT_EQ(j["height"], height);
  const json& p = j["panels"];
  EXPECT_EQ(p.size(), panels);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Box a = box(p[i]);
    const std::string name = p[i]["name"];
    EXPECT_GE(a.x, 0) << name;
    EXPECT_GE(a.y, 0) << name;
    EXPECT_LE(a.x + a.w, width + 0.5) << name;
    EXPECT_LE(a.y + a.h, height + 0.5) << name;
    // The panels a class looks at wrap their text (tool windows' wide tables
    // scroll instead; in presentation mode, asked for beside the three it
    // shows, the others share what the matrices leave and may scroll).
    const std::string id = p[i]["id"];
    const bool presented = id == "matrices" || id == "replay" || id == "inspector";
    if (presented || (!j["presentation"].get<bool>() && (id == "controls" || id == "shared"))) {
      EXPECT_FALSE(p[i]["overflow"]["wider"].get<bool>()) << name << " is cut off at the right";
    }
    EXPECT_FALSE(overlap(a, box(j["notices"]))) << name << " under the notices strip";
    for (std::size_t k = i + 1; k < p.size(); ++k)
      EXPECT_FALSE(overlap(a, box(p[k]))) << name << " overlaps " << p[k]["name"].get<std::string>();
  }
}

// The share of the screen that the bounding box of A, B and C covers.
double matrices_share(const json& j) {
  const json &a = j["A"], &b = j["B"], &c = j["C"];
  const double x0 = std::min(a["x"].get<double>(), b["x"].get<double>());
  const double y0 = std::min(a["y"].get<double>(), b["y"].get<double>());
  const double cell = c["cell"].get<double>();
  const double x1 = c["x"].get<double>() + c["cols"].get<double>() * cell;
  const double y1 = c["y"].get<double>() + c["rows"].get<double>() * cell;
  return (x1 - x0) * (y1 - y0) / (j["width"].get<double>() * j["height"].get<double>());
}

// A, B and C whole inside the Matrices window: none cut off at its edges.
void expect_matrices_inside_their_panel(const json& j) {
  for (const json& p : j["panels"]) {
    if (p["id"] != "matrices") continue;
    const Box m = box(p);
    for (const char* name : {"A", "B", "C"}) {
      const json& g = j[name];
      const double cell = g["cell"].get<double>(), x = g["x"].get<double>(), y = g["y"].get<double>();
      EXPECT_GE(x, m.x) << name;
      EXPECT_GE(y, m.y) << name;
      EXPECT_LE(x + g["cols"].get<double>() * cell, m.x + m.w) << name;
      EXPECT_LE(y + g["rows"].get<double>() * cell, m.y + m.h) << name;
    }
  }
}

struct ScreenSize {
  int width, height;
};

class AppLayout : public ::testing::TestWithParam<ScreenSize> {};

TEST_P(AppLayout, EveryPanelFitsInBothModesAndTheMatricesDominatePresentation) {
  const ScreenSize s = GetParam();
  const test::Xvfb server(s.width, s.height);
  if (server.display().empty()) GTEST_SKIP() << "Xvfb could not be started";
  const std::string window = " --window " + std::to_string(s.width) + "x" + std::to_string(s.height);
  const std::size_t every_panel = 13;
  for (const char* scene : {kDefaultScene, kSixBySix})
    for (bool presentation : {false, true}) {
      SCOPED_TRACE(std::string(scene) + (presentation ? " --presentation" : ""));
      const json j = layout_of(server.display(), std::string(scene) + window + " --panels all" +
                                                     (presentation ? " --presentation" : ""));
      expect_tidy(j, s.width, s.height, every_panel);
      if (!j.is_object()) continue;
      EXPECT_TRUE(j["C"]["visible"].get<bool>());
      expect_matrices_inside_their_panel(j);
      if (presentation) {
        EXPECT_GE(matrices_share(j), 0.40);
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Screens, AppLayout,
                         ::testing::Values(ScreenSize{1280, 720}, ScreenSize{1600, 1000}, ScreenSize{1920, 1080}),
                         [](const auto& info) {
                           return std::to_string(info.param.width) + "x" + std::to_string(info.param.height);
                         });

class AppPanels : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<test::Xvfb>(1280, 720);
    if (server_->display().empty()) GTEST_SKIP() << "Xvfb could not be started";
  }
  json run(const std::string& args) { return layout_of(server_->display(), "--window 1280x720 " + args); }
  static std::vector<std::string> ids(const json& j) {
    std::vector<std::string> out;
    for (const json& p : j["panels"]) out.push_back(p["id"]);
    return out;
  }
  std::unique_ptr<test::Xvfb> server_;
};

TEST_F(AppPanels, PresentationModeShowsTheMatricesTheStepAndTheTransportOnly) {
  const json j = run(std::string(kSixBySix) + " --presentation");
  EXPECT_EQ(ids(j), (std::vector<std::string>{"matrices", "replay", "inspector"}));
  expect_tidy(j, 1280, 720, 3);
  EXPECT_GE(matrices_share(j), 0.40);
}

TEST_F(AppPanels, PanelsFlagOpensTheNamedPanelsBesideTheDefaultOnes) {
  const json j = run(std::string(kSixBySix) + " --panels occupancy,timeline");
  const std::vector<std::string> open = ids(j);
  for (const char* id : {"controls", "matrices", "replay", "inspector", "occupancy", "timeline"})
    EXPECT_NE(std::find(open.begin(), open.end(), id), open.end()) << id;
  EXPECT_EQ(std::find(open.begin(), open.end(), "bench"), open.end());
  expect_tidy(j, 1280, 720, open.size());
}

// The strip beside the TILE buttons shows figures for seed 001's GPUs in every
// build (a build without the CUDA Toolkit from the shipped compiler data),
// follows TILE, and says in small print where the registers came from.
TEST_F(AppPanels, TheOccupancyStripShowsFiguresAtBothTiles) {
  for (int tile : {16, 32}) {
    const json j = run(std::string(kDefaultScene) + " --tile " + std::to_string(tile));
    ASSERT_TRUE(j.contains("occupancy_strip")) << "the controls panel drew no strip";
    const json& strip = j["occupancy_strip"];
    EXPECT_EQ(strip["kernel"], "tiled");
    EXPECT_EQ(strip["tile"], tile);
    std::map<std::string, json> rows;
    for (const json& r : strip["rows"]) rows[r["gpu"]] = r;
    ASSERT_TRUE(rows.count("rtx5070ti") && rows.count("h100")) << strip;
    for (const auto& [gpu, r] : rows) EXPECT_TRUE(r["has_figures"].get<bool>()) << gpu;
    EXPECT_EQ(rows["rtx5070ti"]["blocks_per_sm"], tile == 16 ? 6 : 1);
    EXPECT_NEAR(rows["rtx5070ti"]["occupancy"].get<double>(), tile == 16 ? 1.0 : 2.0 / 3.0, 1e-9);
    EXPECT_EQ(rows["h100"]["blocks_per_sm"], tile == 16 ? 8 : 2);
    EXPECT_DOUBLE_EQ(rows["h100"]["occupancy"].get<double>(), 1.0);
    EXPECT_NE(strip["registers_from"].get<std::string>().find("ptxas of nvcc"), std::string::npos) << strip;
  }
}

TEST_F(AppPanels, OpenPanelsAreRememberedInTheConfigDirectory) {
  const fs::path dir = test::temp("config");
  fs::remove_all(dir);
  const json first = run(std::string(kSixBySix) + " --panels bench --config-dir " + dir.string());
  ASSERT_TRUE(fs::exists(dir / "layout.ini"));
  const json second = run(std::string(kSixBySix) + " --config-dir " + dir.string());
  EXPECT_EQ(ids(second), ids(first));
  const std::vector<std::string> open = ids(second);
  EXPECT_NE(std::find(open.begin(), open.end(), "bench"), open.end());
  // Without the directory, a scripted scene starts from the default layout.
  const std::vector<std::string> fresh = ids(run(kSixBySix));
  EXPECT_EQ(std::find(fresh.begin(), fresh.end(), "bench"), fresh.end());
  fs::remove_all(dir);
}

TEST_F(AppPanels, AWindowTheUserMovedStaysWhereTheyPutIt) {
  const fs::path dir = test::temp("moved");
  fs::remove_all(dir);
  fs::create_directories(dir);
  // What the app writes after the user dragged the Occupancy window there.
  std::ofstream(dir / "layout.ini") << "[Tilescope][Panels]\nnormal=controls,matrices,replay,inspector,occupancy\n"
                                       "presentation=matrices,replay,inspector\nmoved=occupancy 400 200 500 300\n";
  const json j = run(std::string(kSixBySix) + " --config-dir " + dir.string());
  bool found = false;
  for (const json& p : j["panels"])
    if (p["id"] == "occupancy") {
      found = true;
      EXPECT_EQ(p["x"], 400);
      EXPECT_EQ(p["y"], 200);
      EXPECT_EQ(p["width"], 500);
      EXPECT_EQ(p["height"], 300);
    }
  EXPECT_TRUE(found);
  fs::remove_all(dir);
}

TEST_F(AppPanels, AnUnknownPanelIsRefusedBeforeAWindowOpens) {
  test::expect_one_line_error(test::run("--panels occupancy,nope"), "unknown panel 'nope'");
}

}  // namespace
}  // namespace ts::ui
