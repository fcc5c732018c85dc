// cmd_export.cpp — `tilescope export FILE --csv [-o OUT]`: one row per event.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "app/cli/commands.h"
#include "app/core/csv_export.h"
#include "app/core/trace_file.h"

namespace ts::cli {

Command add_export_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("export", "Write a trace's events as CSV");
  auto file = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto csv = std::make_shared<bool>(false);
  app->add_option("file", *file, "Trace file")->required();
  app->add_flag("--csv", *csv, "CSV, one row per event (the only format)");
  app->add_option("-o,--output", *out, "Write here instead of standard output");
  return {app, [file, out, csv]() -> int {
            if (!*csv) return fail("export: say --csv (the only format)");
            try {
              const Trace trace = load_trace(*file);
              std::FILE* f = out->empty() ? stdout : std::fopen(out->c_str(), "wb");
              if (!f) return fail("cannot write " + *out + ": " + std::strerror(errno));
              const bool ok = export_csv(trace, f) && std::fflush(f) == 0;
              if (f != stdout) std::fclose(f);
              if (!ok) return fail("writing the CSV failed: " + std::string(std::strerror(errno)));
            } catch (const TraceFileError& e) {
              return fail(e.what());
            }
            return 0;
          }};
}

}  // namespace ts::cli
