// resealed.h — the fuzzers' way to get past the checksum: each input is tried
// as it is, and again with its trailing CRC-32 rewritten to match, so that
// mutations also reach the checks and the code behind the checksum.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace ts::fuzz {

template <typename Try>
void as_is_and_resealed(const std::uint8_t* data, std::size_t size, Try&& try_input) {
  try_input(std::span<const std::uint8_t>(data, size));
  if (size < 72) return;  // a header and a footer at least
  std::vector<std::uint8_t> sealed(data, data + size);
  const std::size_t body = size - 8;
  const auto crc = static_cast<std::uint32_t>(crc32_z(0, sealed.data(), body));
  std::memcpy(sealed.data() + body, &crc, sizeof crc);
  try_input(std::span<const std::uint8_t>(sealed));
}

}  // namespace ts::fuzz
