// cmd_export.cpp — `tilescope export FILE --csv [-o OUT]`: one row per event.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "app/cli/commands.h"
#include "app/core/csv_export.h"
#include "app/core/safe_file.h"
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
              // Never in place: a temporary beside the output, renamed when
              // complete; the trace itself is never the output (checked
              // before the trace is read).
              std::optional<AtomicFile> f;
              if (!out->empty()) f.emplace(*out, std::initializer_list<std::filesystem::path>{*file});
              const Trace trace = load_trace(*file);
              std::FILE* stream = f ? f->stream() : stdout;
              errno = 0;
              if (!export_csv(trace, stream) || (!f && std::fflush(stdout) != 0)) {
                const int err = errno ? errno : EIO;
                return fail("cannot write " + (f ? *out : std::string("the CSV")) + ": " + std::strerror(err));
              }
              if (f) f->commit();
            } catch (const TraceFileError& e) {
              return fail(e.what());
            } catch (const SafeFileError& e) {
              return fail(e.what());
            }
            return 0;
          }};
}

}  // namespace ts::cli
