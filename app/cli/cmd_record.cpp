// cmd_record.cpp — `tilescope record`: record a trace on the GPU or the emulator.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/record_options.h"
#include "app/core/trace_file.h"
#include "kernels/recorder.h"

namespace ts::cli {
namespace {

// Fails before a long recording rather than after it.
std::string unwritable_reason(const std::filesystem::path& out) {
  std::error_code ec;
  if (std::filesystem::is_directory(out, ec)) return "it is a directory";
  std::filesystem::path dir = out.parent_path();
  if (dir.empty()) dir = ".";
  if (!std::filesystem::is_directory(dir, ec)) return "no directory " + dir.string();
  if (access(dir.c_str(), W_OK) != 0) return "the directory " + dir.string() + " is not writable";
  if (std::filesystem::exists(out, ec) && access(out.c_str(), W_OK) != 0) return "the file is not writable";
  return {};
}

}  // namespace

Command add_record_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("record", "Record every memory access of one kernel launch into a trace file");
  auto opts = std::make_shared<RecordOptions>();
  auto out = std::make_shared<std::string>("trace.tstrace");
  add_record_options(*app, *opts);
  app->add_option("-o,--output", *out, "Trace file to write")->capture_default_str();
  return {app, [opts, out]() -> int {
            RecordParams params;
            if (std::string err = to_record_params(*opts, params); !err.empty()) return fail(err);
            try {
              validate(params);
            } catch (const RecordError& e) {
              return fail(e.what());
            }
            if (std::string why = unwritable_reason(*out); !why.empty())
              return fail("cannot write " + *out + ": " + why);
            const auto t0 = std::chrono::steady_clock::now();
            try {
              const Trace trace = record(params);
              const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
              save_trace(trace, *out);
              std::printf("recorded %s TILE=%d M=%d N=%d K=%d on %s: %llu events in %.2f s -> %s\n",
                          trace.launch.kernel.c_str(), trace.launch.tile, trace.launch.m, trace.launch.n,
                          trace.launch.k, trace.launch.device_name.c_str(),
                          static_cast<unsigned long long>(trace.events.size()), secs, out->c_str());
            } catch (const RecordError& e) {
              return fail(e.what());
            } catch (const TraceFileError& e) {
              return fail(e.what());
            } catch (const std::bad_alloc&) {
              return fail("out of memory while recording; try a smaller size");
            }
            return 0;
          }};
}

}  // namespace ts::cli
