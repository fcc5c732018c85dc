// display_text.h — text that came from a file, made safe to show: on a
// terminal, control characters (an escape sequence in a kernel name, a newline
// in a device name) are shown as \xNN instead of being obeyed; on screen, a
// long string is cut to a length a window can hold.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace ts {

inline std::string escape_control(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out;
}

// At most max_chars characters: a longer string keeps its start and end with
// "..." between (UTF-8 sequences are not split).
inline std::string elided(std::string_view s, std::size_t max_chars = 80) {
  if (s.size() <= max_chars) return std::string(s);
  if (max_chars < 5) return std::string(s.substr(0, max_chars));
  const auto boundary = [&](std::size_t i) {  // back up to the start of a UTF-8 sequence
    while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
    return i;
  };
  const std::size_t keep = max_chars - 3, head = boundary(keep - keep / 3), tail = boundary(s.size() - keep / 3);
  return std::string(s.substr(0, head)) + "..." + std::string(s.substr(tail));
}

// How many characters of a string from a file the app shows (the validation
// allows more: trace_validation.h); the rest is elided in the middle.
inline constexpr std::size_t kShownKernel = 40;
inline constexpr std::size_t kShownDevice = 64;
inline constexpr std::size_t kShownDate = 40;
inline constexpr std::size_t kShownPath = 80;     // a file's path, where it is part of a line
inline constexpr std::size_t kShownNotice = 300;  // a whole notice

}  // namespace ts
