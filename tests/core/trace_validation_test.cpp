// One validation of a trace's claims: every crafted lie (valid checksum) is
// refused before anything uses the trace, honest traces of every kernel pass,
// and only regular files are read.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/core/trace_file.h"
#include "app/core/trace_validation.h"
#include "kernels/kernel_kind.h"
#include "tests/core/crafted_traces.h"
#include "tests/core/trace_test_support.h"

namespace ts {
namespace {

namespace fs = std::filesystem;
using Kind = TraceFileError::Kind;

fs::path scratch(const std::string& name) {
  return fs::temp_directory_path() / ("ts_validation_" + std::to_string(::getpid()) + "_" + name);
}

TEST(TraceValidation, HonestCraftedTraceLoads) {
  for (auto [m, n, k, tile] : {std::array{5u, 4u, 6u, 2u}, {1u, 1u, 1u, 1u}, {7u, 3u, 17u, 4u}}) {
    const Trace t = crafted::honest(m, n, k, tile);
    const Trace u = load_trace_from_memory(crafted::encode(t));
    EXPECT_EQ(u.events.size(), t.events.size());
    EXPECT_EQ(u.c, t.c);
  }
}

TEST(TraceValidation, EveryCraftedLieIsRefused) {
  const auto cases = crafted::hostile_cases();
  EXPECT_GE(cases.size(), 40u);
  for (const crafted::Case& c : cases) {
    try {
      load_trace_from_memory(c.bytes);
      ADD_FAILURE() << c.name << " was accepted";
    } catch (const TraceFileError& e) {
      const bool header = c.name.starts_with("header_");
      if (!header) {
        EXPECT_EQ(e.kind(), Kind::Invalid) << c.name << ": " << e.what();
      }
      for (const char ch : std::string(e.what()))  // a message never carries the file's control characters
        EXPECT_TRUE(static_cast<unsigned char>(ch) >= 0x20) << c.name;
    }
  }
}

// The same lies, given to validate_trace directly (the entry point of every
// loader): each is found by the validation itself, not by the file's layout.
TEST(TraceValidation, ValidateTraceFindsEachLie) {
  const Trace honest = crafted::honest();
  EXPECT_NO_THROW(validate_trace(honest, 1 << 20));
  for (const crafted::Lie& lie : crafted::lies()) {
    Trace t = crafted::honest();
    lie.edit(t);
    EXPECT_THROW(validate_trace(t, 1 << 20), TraceFileError) << lie.name;
  }
  // S4: sections larger than the file (times the format's expansion).
  EXPECT_THROW(validate_trace(honest, 100), TraceFileError);
  EXPECT_NO_THROW(validate_trace(honest, 100, 1000));
}

TEST(TraceValidation, RecordingsOfEveryKernelPass) {
  // Edge shapes too: one row, one column, K below and above TILE.
  for (KernelKind kind : kAllKernels)
    for (auto [m, n, k] : {std::array{1, 1, 1}, {1, 9, 3}, {9, 1, 17}, {13, 11, 7}}) {
      const Trace t = test::record_on(DeviceChoice::Cpu, kind, 4, m, n, k);
      EXPECT_NO_THROW(validate_trace(t, ~0ull)) << int(kind) << " " << m << "x" << n << "x" << k;
    }
}

TEST(TraceValidation, HugeEventCountIsRefusedFromTheHeaderAlone) {
  // A 16 GiB sparse file whose header announces every byte as events: refused
  // before a single section is read or allocated.
  const fs::path p = scratch("sparse.tstrace");
  const Trace t = crafted::honest();
  auto bytes = crafted::encode(t);
  const std::uint64_t size = 16ull << 30, events = size / sizeof(Event);
  std::memcpy(bytes.data() + 56, &events, 8);
  {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), 64);
  }
  if (::truncate(p.c_str(), static_cast<off_t>(size)) != 0) GTEST_SKIP() << "no sparse files here";
  try {
    load_trace(p);
    ADD_FAILURE() << "accepted";
  } catch (const TraceFileError& e) {
    EXPECT_EQ(e.kind(), Kind::Invalid) << e.what();
    EXPECT_NE(std::string(e.what()).find("events"), std::string::npos) << e.what();
  }
  fs::remove(p);
}

Kind open_refusal(const fs::path& p) {
  try {
    load_trace(p);
  } catch (const TraceFileError& e) {
    return e.kind();
  }
  ADD_FAILURE() << p << " was accepted";
  return Kind::Invalid;
}

TEST(TraceValidation, OnlyRegularFilesAreRead) {
  const fs::path fifo = scratch("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(open_refusal(fifo), Kind::CannotOpen);  // without a writer: would hang if opened blocking
  fs::remove(fifo);
  EXPECT_EQ(open_refusal("/dev/zero"), Kind::CannotOpen);
  EXPECT_EQ(open_refusal("/dev/null"), Kind::CannotOpen);
  EXPECT_EQ(open_refusal(fs::temp_directory_path()), Kind::CannotOpen);
  try {
    load_trace("/dev/zero");
  } catch (const TraceFileError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ts
