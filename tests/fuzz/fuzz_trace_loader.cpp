// fuzz_trace_loader.cpp — libFuzzer entry: any bytes go to the trace loader,
// which must either load them or refuse them with a TraceFileError. Each input
// is tried twice: as it is, and with its checksum rewritten to match, so that
// mutations also reach the checks behind the checksum. The corpus holds files
// of both versions (*_v2.tstrace: the compressed streams), so mutations reach
// version 2's stream decoder as well as version 1's checks.
//   CC=clang CXX=clang++ cmake -B build-fuzz -DTILESCOPE_FUZZ=ON -DTILESCOPE_SANITIZE=ON -DTILESCOPE_CUDA=OFF
//   build-fuzz/tests/fuzz/fuzz_trace_loader -max_total_time=60 tests/fuzz/corpus
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "app/core/trace_file.h"
#include "app/core/trace_index.h"

namespace {

void try_load(std::span<const std::uint8_t> bytes) {
  try {
    const ts::Trace t = ts::load_trace_from_memory(std::as_bytes(bytes));
    const ts::TraceIndex index(t);  // whatever loads must also index
    (void)index.c_writer(0, 0);
  } catch (const ts::TraceFileError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try_load({data, size});
  if (size >= 72) {
    std::vector<std::uint8_t> sealed(data, data + size);
    const std::size_t body = size - 8;
    const auto crc = static_cast<std::uint32_t>(crc32_z(0, sealed.data(), body));
    std::memcpy(sealed.data() + body, &crc, sizeof crc);
    try_load(sealed);
  }
  return 0;
}
