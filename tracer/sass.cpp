// sass.cpp — read nvdisasm's listing (sass.h).
#include "tracer/sass.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace ts::tracer {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// `//## File "PATH", line N` (anything after N, e.g. an "inlined at" part, ignored).
bool read_line_comment(std::string_view s, std::string& file, std::uint32_t& line) {
  constexpr std::string_view kFile = "//## File \"";
  if (!s.starts_with(kFile)) return false;
  s.remove_prefix(kFile.size());
  const auto quote = s.find('"');
  if (quote == std::string_view::npos) return false;
  const std::string_view path = s.substr(0, quote);
  s.remove_prefix(quote + 1);
  constexpr std::string_view kLine = ", line ";
  if (!s.starts_with(kLine)) return false;
  s.remove_prefix(kLine.size());
  std::uint32_t n = 0;
  std::size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits])) && digits < 9)
    n = n * 10 + static_cast<std::uint32_t>(s[digits++] - '0');
  if (digits == 0) return false;
  file.assign(path);
  line = n;
  return true;
}

// `/*0140*/   TEXT ;` (a trailing encoding comment, as cuobjdump prints, dropped).
bool read_instruction(std::string_view s, std::uint32_t& offset, std::string& text) {
  if (!s.starts_with("/*")) return false;
  const auto close = s.find("*/");
  if (close == std::string_view::npos || close < 3) return false;
  const std::string_view hex = s.substr(2, close - 2);
  std::uint64_t v = 0;
  for (char c : hex) {
    const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                  : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                              : -1;
    if (d < 0 || v > 0xfffffffULL) return false;
    v = v * 16 + static_cast<std::uint64_t>(d);
  }
  std::string_view rest = s.substr(close + 2);
  if (const auto enc = rest.find("/*"); enc != std::string_view::npos) rest = rest.substr(0, enc);
  rest = trimmed(rest);
  if (rest.ends_with(';')) rest.remove_suffix(1);
  rest = trimmed(rest);
  if (rest.empty()) return false;
  offset = static_cast<std::uint32_t>(v);
  text.assign(rest);
  return true;
}

}  // namespace

std::vector<SassInstruction> parse_nvdisasm(std::string_view listing, const std::string& function) {
  std::vector<SassInstruction> out;
  const std::string start = ".text." + function + ":";
  bool inside = false;
  std::string file;
  std::uint32_t line = 0;
  for (std::size_t at = 0; at < listing.size();) {
    std::size_t nl = listing.find('\n', at);
    if (nl == std::string_view::npos) nl = listing.size();
    const std::string_view s = trimmed(listing.substr(at, nl - at));
    at = nl + 1;
    if (s.starts_with(".text.") && s.ends_with(":")) {  // a function's code begins
      if (inside) break;
      inside = s == start;
      file.clear();
      line = 0;
      continue;
    }
    if (!inside) continue;
    if (s.starts_with("//-----")) break;  // the next section
    if (read_line_comment(s, file, line)) continue;
    SassInstruction ins;
    if (read_instruction(s, ins.offset, ins.text)) {
      ins.file = file;
      ins.line = line;
      out.push_back(std::move(ins));
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  return out;
}

std::optional<std::size_t> instruction_at(const std::vector<SassInstruction>& sass, std::uint64_t offset) {
  const auto it = std::lower_bound(sass.begin(), sass.end(), offset,
                                   [](const SassInstruction& s, std::uint64_t o) { return s.offset < o; });
  if (it == sass.end() || it->offset != offset) return std::nullopt;
  return static_cast<std::size_t>(it - sass.begin());
}

std::string sass_line(const SassInstruction& s) {
  char head[24];
  std::snprintf(head, sizeof head, "/*%04x*/ ", s.offset);
  std::string out = head + s.text + " ;";
  if (s.line) out += "  // line " + std::to_string(s.line);
  return out;
}

}  // namespace ts::tracer
