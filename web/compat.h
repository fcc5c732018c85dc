// compat.h — force-included into every C++ file of the browser build
// (web/CMakeLists.txt): what Debian 12's emscripten 3.1.6 ships a libc++ too
// old for. Nothing here is used when the library has it.
#pragma once
#include <version>
#if !defined(__cpp_lib_bit_cast)
#include <type_traits>
namespace std {
template <class To, class From>
  requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> && is_trivially_copyable_v<From>)
constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}
}  // namespace std
#endif

// Floating-point to_chars / from_chars (libc++ 14 has the integer ones only):
// the shortest "%.*g" that reads back as the same value, and strtod on a
// bounded copy (no leading space or '+', as from_chars).
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>
namespace ts_web_compat {
template <class T>
std::to_chars_result to_chars_float(char* first, char* last, T value) {
  char buf[64];
  int n = 0;
  for (int precision = 1; precision <= (sizeof(T) == 4 ? 9 : 17); ++precision) {
    n = std::snprintf(buf, sizeof buf, "%.*g", precision, static_cast<double>(value));
    if (!std::isfinite(value) || static_cast<T>(std::strtod(buf, nullptr)) == value) break;
  }
  if (n < 0 || n > last - first) return {last, std::errc::value_too_large};
  std::memcpy(first, buf, static_cast<std::size_t>(n));
  return {first + n, std::errc{}};
}
template <class T>
std::from_chars_result from_chars_float(const char* first, const char* last, T& value) {
  char buf[128];
  const std::size_t len = static_cast<std::size_t>(last - first) < sizeof buf - 1 ? static_cast<std::size_t>(last - first) : sizeof buf - 1;
  if (len == 0 || first[0] == ' ' || first[0] == '\t' || first[0] == '\n' || first[0] == '+')
    return {first, std::errc::invalid_argument};
  std::memcpy(buf, first, len);
  buf[len] = '\0';
  char* end = nullptr;
  const double v = std::strtod(buf, &end);
  if (end == buf) return {first, std::errc::invalid_argument};
  value = static_cast<T>(v);
  return {first + (end - buf), std::errc{}};
}
}  // namespace ts_web_compat
namespace std {
inline to_chars_result to_chars(char* first, char* last, float v) { return ts_web_compat::to_chars_float(first, last, v); }
inline to_chars_result to_chars(char* first, char* last, double v) { return ts_web_compat::to_chars_float(first, last, v); }
inline from_chars_result from_chars(const char* first, const char* last, float& v) {
  return ts_web_compat::from_chars_float(first, last, v);
}
inline from_chars_result from_chars(const char* first, const char* last, double& v) {
  return ts_web_compat::from_chars_float(first, last, v);
}
}  // namespace std

// std::atomic_ref (libc++ 14 lacks it): the one operation used, on the
// compiler's atomic builtins.
#include <atomic>
#if !defined(__cpp_lib_atomic_ref)
namespace std {
template <class T>
class atomic_ref {
 public:
  explicit atomic_ref(T& ref) noexcept : ref_(ref) {}
  T fetch_add(T delta, memory_order = memory_order_seq_cst) const noexcept {
    return __atomic_fetch_add(&ref_, delta, __ATOMIC_SEQ_CST);
  }

 private:
  T& ref_;
};
}  // namespace std
#endif
