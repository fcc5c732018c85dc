// trace_file_test_support.h — saving traces to bytes and breaking them, for the
// trace file's tests.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "app/core/trace_file.h"
#include "tests/core/trace_test_support.h"

namespace ts::test {

namespace fs = std::filesystem;
using Kind = TraceFileError::Kind;

inline std::vector<std::byte> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

inline std::vector<std::byte> saved_bytes(const Trace& t, std::uint32_t version = kTraceFileVersion) {
  const fs::path p = fs::temp_directory_path() / ("ts_file_test_" + std::to_string(::getpid()) + ".tstrace");
  save_trace(t, p, version);
  auto bytes = read_all(p);
  fs::remove(p);
  return bytes;
}

inline Kind refusal(std::span<const std::byte> bytes) {
  try {
    load_trace_from_memory(bytes);
  } catch (const TraceFileError& e) {
    EXPECT_NE(std::string(e.what()), "");
    return e.kind();
  }
  ADD_FAILURE() << "a broken file was accepted";
  return Kind::Invalid;
}

// Rewrites the CRC so that a hostile edit passes the checksum.
inline void reseal(std::vector<std::byte>& bytes) {
  const std::size_t body = bytes.size() - 8;
  const auto crc = static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), body));
  std::memcpy(bytes.data() + body, &crc, 4);
}

}  // namespace ts::test
