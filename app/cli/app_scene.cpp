// app_scene.cpp — `tilescope [flags]` with no command opens the app on a
// scene. The recording flags are `tilescope record`'s; the rest script the
// app for slides, docs and tests, e.g.
//   tilescope --kernel tiled --tile 2 --size 6 --inputs integers --select-c 5,3 --step 7
//   tilescope --device gpu --select-c 5,7 --step 3 --screenshot out.png --quit-after-frames 5
//   tilescope --trace t.tstrace
//   tilescope --presentation --panels occupancy,timeline
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <regex>
#include <sstream>
#include <tuple>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/default_scene.h"
#include "app/cli/record_options.h"
#include "app/ui/app.h"
#include "app/ui/panel_registry.h"

namespace ts::cli {
namespace {

struct SceneFlags {
  RecordOptions record;
  std::string trace, select_c, screenshot, layout_json, follow_thread, window = "1600x1000", panels, config_dir, center, probe;
  long long step = -1;
  double zoom = 0;
  bool click = false;
  int quit_after_frames = 0;
  bool presentation = false, all_blocks = false, no_vsync = false, headless = false;
};

// "ROW,COL" -> coordinates; false if malformed.
bool parse_pair(const std::string& text, const char* separator, long long& a, long long& b) {
  const std::regex re(std::string(R"(^\s*(\d{1,9})\s*)") + separator + R"(\s*(\d{1,9})\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return false;
  a = std::stoll(m[1]);
  b = std::stoll(m[2]);
  return true;
}

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : separator) + s;
  return out;
}

// "occupancy,timeline" or "all" -> panel ids; an error message for an unknown name.
std::string parse_panels(const std::string& text, std::vector<std::string>& out) {
  const std::vector<std::string> known = ui::panel_ids();
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" "));
    item.erase(item.find_last_not_of(" ") + 1);
    if (item.empty()) continue;
    if (item == "all") {
      out = known;
      return {};
    }
    if (std::find(known.begin(), known.end(), item) == known.end())
      return "--panels: unknown panel '" + item + "' (choose from " + join(known, ", ") + ", or all)";
    out.push_back(item);
  }
  return {};
}

}  // namespace

DefaultScene add_default_scene_options(CLI::App& app) {
  auto f = std::make_shared<SceneFlags>();
  add_record_options(app, f->record);
  app.add_option("--trace", f->trace, "Open this trace file instead of recording");
  app.add_option("--select-c", f->select_c, "Select cell ROW,COL of C");
  app.add_option("--step", f->step, "Go to replay step N (0: the first load)");
  app.add_flag("--all-blocks", f->all_blocks, "Show the tiles every block loads");
  app.add_option("--follow-thread", f->follow_thread,
                 "Shared memory panel: zoom in on the words of this region (As, Bs, or the kernel's own names) the "
                 "selected cell's thread touches at each step");
  app.add_option("--zoom", f->zoom, "Show the matrices at this many pixels per cell (0.05 to 400)");
  app.add_option("--center", f->center, "Centre the view on cell ROW,COL of C (with --zoom)");
  app.add_option("--probe", f->probe, "Hit-test window pixel X,Y as the mouse would (--layout-json says the cell)");
  app.add_flag("--click", f->click, "Also click the --probe pixel");
  app.add_option("--screenshot", f->screenshot, "Save a PNG of the window once the scene is ready");
  app.add_option("--layout-json", f->layout_json, "Write where the matrices are on that screenshot (pixels)");
  app.add_option("--quit-after-frames", f->quit_after_frames,
                 "Quit after N frames once the scene is ready (the screenshot is of the last one)");
  app.add_flag("--presentation", f->presentation, "Full screen, large fonts, high contrast");
  app.add_option("--panels", f->panels,
                 "Open these panels too, comma-separated, or 'all': " + join(ui::panel_ids(), ","));
  app.add_option("--config-dir", f->config_dir,
                 "Where the window layout is saved (default: $TILESCOPE_CONFIG_DIR, $XDG_CONFIG_HOME/tilescope or "
                 "~/.config/tilescope; scripted scenes use one only when named)");
  app.add_option("--window", f->window, "Window size WIDTHxHEIGHT")->capture_default_str();
  app.add_flag("--no-vsync", f->no_vsync, "Draw as fast as possible (benchmarks)");
  app.add_flag("--headless", f->headless,
               "No window: draw offscreen through EGL (a GPU server without a display); quits after "
               "--quit-after-frames (default 5)");
  return {[f]() -> int {
    ui::AppOptions o;
    if (std::string err = to_record_params(f->record, o.params); !err.empty()) return fail(err);
    if (!f->trace.empty()) {
      o.trace_file = f->trace;
    } else {
      try {
        // An impossible scene is refused before a window opens; one too large to
        // trace whole opens as a focused trace (the rest counted, not traced).
        validate_shape(o.params);
      } catch (const RecordError& e) {
        return fail(e.what());
      }
    }
    if (!f->select_c.empty()) {
      long long r = 0, c = 0;
      if (!parse_pair(f->select_c, ",", r, c)) return fail("--select-c takes ROW,COL (e.g. 5,7), got '" + f->select_c + "'");
      o.select_c = ElementCoord{static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(c)};
    }
    if (f->zoom != 0) {
      if (!(f->zoom >= 0.05 && f->zoom <= 400)) return fail("--zoom takes pixels per cell from 0.05 to 400");
      o.zoom = static_cast<float>(f->zoom);
    }
    for (auto [flag, text, out] : {std::tuple{"--center", &f->center, &o.center}, std::tuple{"--probe", &f->probe, &o.probe}}) {
      if (text->empty()) continue;
      double a = 0, b = 0;
      if (std::sscanf(text->c_str(), "%lf,%lf", &a, &b) != 2 || !(a >= 0 && b >= 0 && a < 1e6 && b < 1e6))
        return fail(std::string(flag) + " takes X,Y (two numbers, 0 or more), got '" + *text + "'");
      *out = std::pair<float, float>{static_cast<float>(a), static_cast<float>(b)};
    }
    if (f->click && !o.probe) return fail("--click needs --probe X,Y");
    o.probe_click = f->click;
    if (f->step < -1 || f->step > 0xFFFFFFFFll) return fail("--step must be 0 or more");
    if (f->step >= 0) o.step = static_cast<std::uint32_t>(f->step);
    if (f->quit_after_frames < 0) return fail("--quit-after-frames must be 0 or more");
    o.quit_after_frames = f->quit_after_frames;
    if (!f->screenshot.empty()) o.screenshot = f->screenshot;
    if (!f->layout_json.empty()) o.layout_json = f->layout_json;
    long long w = 0, h = 0;
    if (!parse_pair(f->window, "x", w, h) || w < 320 || h < 240 || w > 16384 || h > 16384)
      return fail("--window takes WIDTHxHEIGHT from 320x240 to 16384x16384, got '" + f->window + "'");
    o.width = static_cast<int>(w);
    o.height = static_cast<int>(h);
    o.presentation = f->presentation;
    if (std::string err = parse_panels(f->panels, o.panels); !err.empty()) return fail(err);
    o.config_dir = f->config_dir;
    o.all_blocks = f->all_blocks;
    if (!f->follow_thread.empty()) {
      // A region's name, as TS_SHARED or the trace's table gives it; one the trace lacks gets the panel's notice.
      const std::string& r = f->follow_thread;
      const bool name = r.size() <= 64 && (std::isalpha(static_cast<unsigned char>(r[0])) || r[0] == '_') &&
                        std::all_of(r.begin(), r.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
      if (!name) return fail("--follow-thread takes a shared region's name (As, Bs, sa ...), got '" + r + "'");
      o.follow_thread = r;
    }
    o.vsync = !f->no_vsync;
    o.headless = f->headless;
    if (o.headless && o.quit_after_frames == 0) o.quit_after_frames = 5;  // no window to close
    return ui::run_app(o);
  }};
}

}  // namespace ts::cli
