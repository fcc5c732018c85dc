// make_fuzz_seeds.cpp — writes the fuzzers' seed corpus: honest traces of
// several shapes and every crafted lie of tests/core/crafted_traces.h, each
// with a valid checksum, so that mutation starts from files that pass the
// checksum and reach the validation and the consumers behind it.
//   make_fuzz_seeds DIR
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/core/trace_file.h"
#include "tests/core/crafted_traces.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  int written = 0;
  auto put = [&](const std::string& name, const std::vector<std::byte>& bytes) {
    std::ofstream out(dir / ("seed_" + name), std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    written += out.good() ? 1 : 0;
  };
  put("honest_5x4x6", ts::crafted::encode(ts::crafted::honest()));
  put("honest_1x1x1", ts::crafted::encode(ts::crafted::honest(1, 1, 1, 1, 1, 1)));
  put("honest_7x3x17", ts::crafted::encode(ts::crafted::honest(7, 3, 17, 4, 4, 2)));
  put("honest_2x9x3", ts::crafted::encode(ts::crafted::honest(2, 9, 3, 8, 8, 1)));
  for (const auto& c : ts::crafted::hostile_cases()) put(c.name, c.bytes);
  // Version 2 with its optional stream of source lines (the crafted encoder writes version 1).
  {
    ts::Trace t = ts::crafted::honest(7, 3, 17, 4, 4, 2);
    t.lines.resize(t.events.size());
    for (std::size_t i = 0; i < t.lines.size(); ++i) t.lines[i] = static_cast<std::uint16_t>(10 + i % 7);
    const std::filesystem::path path = dir / "seed_honest_v2_lines";
    try {
      ts::save_trace(t, path, 2);
      ++written;
    } catch (const ts::TraceFileError& e) {
      std::fprintf(stderr, "%s\n", e.what());
    }
  }
  // Version 3 with the memory named freely (three shared regions sa, sb, sc):
  // the tables of its launch description are what the fuzzer mutates there.
  {
    ts::Trace t = ts::crafted::honest(7, 3, 17, 4, 4, 2);
    ts::LaunchInfo& L = t.launch;
    for (const char* name : {"sa", "sb", "sc"}) {
      ts::Region r;
      r.name = name;
      r.offset = static_cast<std::uint32_t>(64 * L.regions.size());
      r.rows = r.cols = r.ld = 4;
      r.bytes = 64;
      L.regions.push_back(r);
    }
    try {
      ts::save_trace(t, dir / "seed_named_v3", 3);
      ++written;
    } catch (const ts::TraceFileError& e) {
      std::fprintf(stderr, "%s\n", e.what());
    }
  }
  std::printf("wrote %d seed traces to %s\n", written, dir.c_str());
  return written > 0 ? 0 : 1;
}
