// main.cpp — tilescope in the browser (scripts/web.sh builds it). The page's
// URL parameters are the desktop command line's scene flags, parsed by the
// desktop's own parser (app/cli/app_scene.cpp), then the same app opens:
//
//   index.html?kernel=tiled&tile=2&size=6&select=5,3&step=7&presentation=1
//   index.html?trace=traces/tiled_t16_n64.tstrace        (a trace next to the page)
//
// `select` is --select-c; a flag takes 1 or 0 (presentation=1). What cannot
// be used (an unknown parameter, an impossible size, a trace that does not
// arrive) becomes the app's notice over the default scene: never a blank page.
// The page (web/shell.html) hands dropped or picked .tstrace files to
// ts_web_open(); ts_web_state() answers the browser test's questions.
#include <emscripten.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/default_scene.h"
#include "app/core/display_text.h"
#include "app/ui/app.h"
#include "app/ui/app_state.h"
#include "app/ui/automation.h"
#include "kernels/catalog.h"

namespace fs = std::filesystem;

namespace {

// The page's query string ("?a=1&b=2"), decoded into pairs by the browser.
EM_JS(char*, ts_web_query_json, (), {
  const pairs = [];
  new URLSearchParams(window.location.search).forEach(function(v, k) { pairs.push([k, v]); });
  return stringToNewUTF8(JSON.stringify(pairs));
});

// Fetches url into the file `path` of the page's file system; "" or why not.
EM_ASYNC_JS(char*, ts_web_fetch, (const char* url_c, const char* path_c), {
  const url = UTF8ToString(url_c), path = UTF8ToString(path_c);
  let why = "";
  try {
    const response = await fetch(url);
    if (!response.ok) {
      why = "HTTP " + response.status + (response.statusText ? " " + response.statusText : "");
    } else {
      const data = new Uint8Array(await response.arrayBuffer());
      FS.writeFile(path, data);
    }
  } catch (e) {
    why = String(e && e.message ? e.message : e);
  }
  return stringToNewUTF8(why);
});

// Offers the file at `path` of the page's file system as a download, then removes it.
EM_JS(void, ts_web_download, (const char* path_c), {
  const path = UTF8ToString(path_c);
  const data = FS.readFile(path);
  const type = path.endsWith(".png") ? "image/png" : path.endsWith(".csv") ? "text/csv" : "application/octet-stream";
  const url = URL.createObjectURL(new Blob([data], {type: type}));
  const a = document.createElement("a");
  a.href = url;
  a.download = path.split("/").pop();
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  FS.unlink(path);
});

std::string take_c_string(char* s) {
  std::string out = s ? s : "";
  std::free(s);
  return out;
}

// The largest recording the page makes: events kept in the browser's memory
// and the emulator's speed there (record time, assets/web-bench): above it
// the app says to record with the desktop tool and open the file here.
constexpr std::uint64_t kWebEventLimit = 8'000'000;

// Parameters of the desktop command line that have no meaning in a page.
bool desktop_only(const std::string& key) {
  for (const char* k : {"screenshot", "layout-json", "config-dir", "headless", "window", "quit-after-frames",
                        "no-vsync", "kernel-file", "entry", "block", "block-tile", "define", "arg", "device", "trace"})
    if (key == k) return true;
  return false;
}

struct Page {
  std::vector<std::string> errors;           // the app's notices from the first frame
  std::vector<std::string> to_open;          // files the page handed over, opened on the next frame
  ts::ui::AppState* app = nullptr;           // while the app runs
  const ts::ui::WindowLayout* layout = nullptr;
  int fb_width = 0, fb_height = 0;
  float fb_scale = 1.0f;
  bool ran = false;
  std::uint64_t frames = 0;                  // frames drawn (the benchmark's frame time)
};
Page g_page;

std::string g_failure;  // what the scene's parser refused (ts::cli::fail)

}  // namespace

// The command line's error reporting (app/cli/main.cpp on the desktop): here
// the message becomes a notice in the app.
namespace ts::cli {
int fail(const std::string& message) {
  g_failure = ts::escape_control(message);
  std::fprintf(stderr, "tilescope: %s\n", g_failure.c_str());
  return kExitFailure;
}
int fail_with_details(const std::string& text) { return fail(text); }
int fail_recording(const RecordError& e) { return fail(e.what()); }
}  // namespace ts::cli

// app_scene.cpp is compiled with run_app renamed to this (web/CMakeLists.txt):
// the scene the URL asked for, checked against the page's limit, with the
// page's hooks, into the same app.
namespace ts::ui {
int run_app_from_url(const AppOptions& scene) {
  AppOptions o = scene;
  if (!o.trace_file) {
    const ts::EventCounts n = ts::expected_counts(o.params.kernel, o.params.tile, o.params.m, o.params.n, o.params.k);
    if (n.total() > kWebEventLimit) {
      char buf[320];
      std::snprintf(buf, sizeof buf,
                    "M=%d N=%d K=%d needs %.3g million events: the page records up to %.0f million. Record it with "
                    "the desktop tool (tilescope record ... -o t.tstrace) and open the file here",
                    o.params.m, o.params.n, o.params.k, n.total() / 1e6, kWebEventLimit / 1e6);
      g_page.errors.push_back(buf);
      return 1;  // main() opens the default scene with this notice
    }
  }
  o.startup_errors.insert(o.startup_errors.end(), g_page.errors.begin(), g_page.errors.end());
  o.on_frame = [](AppState& app, const WindowLayout& layout, int w, int h, float scale) {
    g_page.app = &app;
    ++g_page.frames;
    g_page.layout = &layout;
    g_page.fb_width = w;
    g_page.fb_height = h;
    g_page.fb_scale = scale;
    for (const std::string& path : g_page.to_open) app.open_trace(path);
    g_page.to_open.clear();
    // What the app saved into the page's working directory (F12's PNG, Save's
    // trace) is complete by the next frame: offered as a download.
    std::error_code ec;
    std::vector<fs::path> saved;
    for (fs::directory_iterator it(fs::current_path(ec), ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path p = it->path();
      if (it->is_regular_file(ec) && (p.extension() == ".png" || p.extension() == ".tstrace" || p.extension() == ".csv"))
        saved.push_back(p);
    }
    for (const fs::path& p : saved) ts_web_download(p.c_str());
  };
  g_page.ran = true;
  return run_app(o);
}
}  // namespace ts::ui

// Called by the page (shell.html) with a file it wrote into /traces.
extern "C" EMSCRIPTEN_KEEPALIVE void ts_web_open(const char* path) { g_page.to_open.emplace_back(path); }

// The app's state for the browser test: where the matrices and panels are
// (the desktop's --layout-json), the selected cell, the step, the notices.
extern "C" EMSCRIPTEN_KEEPALIVE const char* ts_web_state() {
  static std::string out;
  nlohmann::json j = nlohmann::json::object();
  ts::ui::AppState* app = g_page.app;
  if (app && g_page.layout) {
    j = nlohmann::json::parse(
        ts::ui::screen_layout_json(*app, *g_page.layout, g_page.fb_width, g_page.fb_height, g_page.fb_scale),
        nullptr, false);
    if (j.is_discarded()) j = nlohmann::json::object();
    if (app->selection.cell) j["selected"] = {app->selection.cell->row, app->selection.cell->col};
    else j["selected"] = nullptr;
    j["step"] = app->replay.step;
    j["frames"] = g_page.frames;
    j["playing"] = app->replay.playing;
    j["busy"] = app->busy();
    if (const ts::ui::LoadedTrace* t = app->trace()) {
      j["trace"] = {{"origin", t->origin},       {"kernel", t->trace.launch.kernel}, {"m", t->trace.launch.m},
                    {"n", t->trace.launch.n},     {"k", t->trace.launch.k},           {"tile", t->trace.launch.tile},
                    {"events", t->trace.events.size()}, {"record_ms", t->record_ms},  {"index_ms", t->index_ms}};
    }
    nlohmann::json notices = nlohmann::json::array();
    for (const ts::ui::Notice& n : app->notices())
      notices.push_back({{"level", n.level == ts::ui::NoticeLevel::Error     ? "error"
                                   : n.level == ts::ui::NoticeLevel::Warning ? "warning"
                                                                             : "info"},
                         {"text", n.text}});
    j["notices"] = notices;
  }
  out = j.dump();
  return out.c_str();
}

int main() {
  // The GPU results the panels open, packed into the page (web/CMakeLists.txt).
  setenv("TILESCOPE_ASSET_DIR", "/assets", 0);
  std::error_code ec;
  fs::create_directories("/traces", ec);

  std::vector<std::string> args{"tilescope"};
  const nlohmann::json query = nlohmann::json::parse(take_c_string(ts_web_query_json()), nullptr, false);
  CLI::App probe;
  ts::cli::add_default_scene_options(probe);  // to tell flags from options, by the parser's own table
  if (query.is_array()) {
    for (const auto& pair : query) {
      const std::string key = pair[0].get<std::string>(), value = pair[1].get<std::string>();
      if (key == "trace") {
        const std::string name = fs::path(value).filename().string();
        const std::string path = "/traces/" + (name.empty() ? std::string("trace.tstrace") : name);
        const std::string why = take_c_string(ts_web_fetch(value.c_str(), path.c_str()));
        if (why.empty()) {
          args.insert(args.end(), {"--trace", path});
        } else {
          g_page.errors.push_back("could not fetch the trace " + value + ": " + why);
        }
        continue;
      }
      const std::string flag = "--" + (key == "select" ? std::string("select-c") : key);
      const CLI::Option* opt = probe.get_option_no_throw(flag);
      if (!opt || desktop_only(key)) {
        g_page.errors.push_back("the page does not take the parameter '" + key + "'" +
                                (opt ? " (a desktop option)" : " (see tilescope --help)"));
        continue;
      }
      if (opt->get_expected_max() == 0) {  // a flag: 1 or 0
        if (value.empty() || value == "1" || value == "true") args.push_back(flag);
        else if (value != "0" && value != "false") g_page.errors.push_back(key + " takes 1 or 0, got '" + value + "'");
      } else {
        args.insert(args.end(), {flag, value});
      }
    }
  }

  // The scene the URL asked for; if the parser refuses it, the default scene with the reason.
  for (int attempt = 0; attempt < 2; ++attempt) {
    CLI::App cli{"tilescope in the browser"};
    ts::cli::DefaultScene scene = ts::cli::add_default_scene_options(cli);
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    g_failure.clear();
    try {
      cli.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
      g_page.errors.push_back(std::string("the page's parameters: ") + e.what());
      args.resize(1);
      continue;
    }
    const int code = scene.run();
    if (g_page.ran) return code;
    if (!g_failure.empty()) g_page.errors.push_back(g_failure);
    args.resize(1);
  }
  std::fprintf(stderr, "tilescope: the default scene did not open\n");
  return 1;
}
