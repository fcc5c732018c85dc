// fuzz_trace_loader.cpp — libFuzzer entry: any bytes go to the trace loader,
// which must either load them or refuse them with a TraceFileError; whatever
// loads then goes through every consumer (consumers.h): index, stats with
// every analysis, the replay across all steps, comparison and CSV export.
// Each input is tried twice: as it is, and with its checksum rewritten to
// match, so that mutations also reach the checks behind the checksum.
//   CC=clang CXX=clang++ cmake -B build-fuzz -DTILESCOPE_FUZZ=ON -DTILESCOPE_SANITIZE=ON -DTILESCOPE_CUDA=OFF
//   build-fuzz/tests/fuzz/fuzz_trace_loader -max_total_time=60 CORPUS_DIR
// (seed CORPUS_DIR with build-fuzz/tests/fuzz/make_fuzz_seeds CORPUS_DIR).
#include <cstddef>
#include <cstdint>
#include <span>

#include "app/core/trace_file.h"
#include "app/core/trace_index.h"
#include "tests/fuzz/consumers.h"
#include "tests/fuzz/resealed.h"

namespace {

volatile std::uint64_t g_sink;

void try_load(std::span<const std::uint8_t> bytes) {
  try {
    const ts::Trace t = ts::load_trace_from_memory(std::as_bytes(bytes));
    const ts::TraceIndex index(t);
    g_sink = ts::fuzz::run_consumers(t, index);
  } catch (const ts::TraceFileError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ts::fuzz::as_is_and_resealed(data, size, try_load);
  return 0;
}
