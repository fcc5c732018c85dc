// json_integer.h — an integer read from JSON, checked: JSON allows 1e30 or -1
// where a count is expected, and converting either to an integer type that
// cannot hold it is undefined behaviour or a wrap-around.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

namespace ts {

// j's value when it is an integer that T holds exactly; nullopt for anything
// else (a fraction, a string, a number out of T's range). nlohmann stores a
// parsed non-negative integer as unsigned and a negative one as signed: both
// are covered.
template <class T>
std::optional<T> json_integer(const nlohmann::json& j) {
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    if (v <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return static_cast<T>(v);
  } else if (j.is_number_integer()) {
    const auto v = j.get<std::int64_t>();
    if (v >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
        (v < 0 || static_cast<std::uint64_t>(v) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())))
      return static_cast<T>(v);
  }
  return std::nullopt;
}

// The same for a field a file must have: anything else is a type error, which
// the file readers turn into their own typed error.
template <class T>
T json_integer_or_throw(const nlohmann::json& j) {
  if (const std::optional<T> v = json_integer<T>(j)) return *v;
  throw nlohmann::json::type_error::create(302, "expected an integer in range, got " + j.dump(), &j);
}

template <class T>
T json_integer_at(const nlohmann::json& j, const char* key) {
  return json_integer_or_throw<T>(j.at(key));
}

}  // namespace ts
