// user_args.cpp — find a user entry's parameter list in its source, and bind
// --arg NAME=VALUE to its scalar parameters as typed literals.
#include "kernels/user/user_args.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <limits>
#include <regex>

namespace ts {
namespace {

using K = UserKernelError::Kind;

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!ident_char(c)) return false;
  return true;
}

// The source with comments, string and character literals and preprocessor
// lines blanked (newlines kept): what is left is code.
std::string code_only(std::string_view s) {
  std::string out(s);
  enum class St { Code, LineComment, BlockComment, Quoted, Directive } st = St::Code;
  char quote = 0;
  bool line_start = true;  // only blanks since the last newline
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i], next = i + 1 < s.size() ? s[i + 1] : '\0';
    const auto blank = [&](std::size_t at) {
      if (at < out.size() && out[at] != '\n') out[at] = ' ';
    };
    switch (st) {
      case St::Code:
        if (c == '/' && next == '/') st = St::LineComment, blank(i), blank(++i);
        else if (c == '/' && next == '*') st = St::BlockComment, blank(i), blank(++i);
        else if (c == '#' && line_start) st = St::Directive, blank(i);
        // A quote after a digit is a digit separator (1'000), not a character literal.
        else if (c == '"' || (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1])))))
          st = St::Quoted, quote = c, blank(i);
        break;
      case St::LineComment:
      case St::Directive:
        if (c == '\\' && next == '\n') blank(i), ++i;  // continued on the next line
        else if (c == '\n') st = St::Code;
        else blank(i);
        break;
      case St::BlockComment:
        if (c == '*' && next == '/') st = St::Code, blank(i), blank(++i);
        else blank(i);
        break;
      case St::Quoted:
        if (c == '\\') blank(i), blank(++i);
        else if (c == quote || c == '\n') st = St::Code, blank(i);
        else blank(i);
        break;
    }
    if (c == '\n') line_start = true;
    else if (c != ' ' && c != '\t' && c != '\r') line_start = false;
  }
  return out;
}

std::size_t skip_blanks(std::string_view s, std::size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

// The identifier ending just before `end` (blanks skipped), or empty.
std::string_view word_before(std::string_view s, std::size_t end) {
  while (end > 0 && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  std::size_t begin = end;
  while (begin > 0 && ident_char(s[begin - 1])) --begin;
  return s.substr(begin, end - begin);
}

// "a, b<c, d> x = f(1, 2)" -> its parts at the commas outside brackets (and,
// before a default's '=', outside a template's angle brackets).
std::vector<std::string_view> split_params(std::string_view list) {
  std::vector<std::string_view> parts;
  int depth = 0, angles = 0;
  bool in_default = false;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (!in_default && c == '<') ++angles;
    else if (!in_default && c == '>' && angles > 0) --angles;
    else if (c == '=' && depth == 0 && angles == 0) in_default = true;
    else if (c == ',' && depth == 0 && angles == 0) {
      parts.push_back(list.substr(begin, i - begin));
      begin = i + 1;
      in_default = false;
    }
  }
  if (list.find_first_not_of(" \t\r\n") != std::string_view::npos) parts.push_back(list.substr(begin));
  return parts;
}

// A parameter's last word that is part of its type, not its name ("unsigned int" is unnamed).
constexpr std::array<std::string_view, 12> kTypeWords = {"int",   "unsigned", "signed", "long",  "short",    "char",
                                                         "float", "double",   "bool",   "const", "volatile", "void"};

bool is_type_word(std::string_view w) {
  for (std::string_view k : kTypeWords)
    if (w == k) return true;
  return false;
}

EntryParam read_param(std::string_view text) {
  EntryParam p;
  std::string_view decl = text;
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(' || text[i] == '[' || text[i] == '{') ++depth;
    else if (text[i] == ')' || text[i] == ']' || text[i] == '}') --depth;
    else if (text[i] == '=' && depth == 0) {
      decl = text.substr(0, i);
      p.has_default = true;
      break;
    }
  }
  // Tokens: words (with ::), and every other character on its own.
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < decl.size();) {
    if (std::isspace(static_cast<unsigned char>(decl[i]))) {
      ++i;
    } else if (ident_char(decl[i]) || decl[i] == ':') {
      std::size_t j = i;
      while (j < decl.size() && (ident_char(decl[j]) || decl[j] == ':')) ++j;
      tokens.emplace_back(decl.substr(i, j - i));
      i = j;
    } else {
      tokens.emplace_back(1, decl[i++]);
    }
  }
  for (const std::string& t : tokens) p.text += (p.text.empty() ? "" : " ") + t;
  if (tokens.size() >= 2 && is_identifier(tokens.back()) && !is_type_word(tokens.back())) {
    p.name = tokens.back();
    tokens.pop_back();
  }
  for (const std::string& t : tokens)
    if (t != "const") p.type += (p.type.empty() ? "" : " ") + t;
  return p;
}

// The scalar types an --arg can give, by the spellings a parameter may use.
enum class Scalar { Signed, Unsigned, Float, Double, Bool };
struct ScalarType {
  Scalar kind;
  const char* cast;  // the built-in type of the literal
  long long min = 0;
  unsigned long long max = 0;
};

std::optional<ScalarType> scalar_type(std::string type) {
  if (type.starts_with("std::")) type.erase(0, 5);
#if !defined(__EMSCRIPTEN__)  // the browser build (wasm32: ILP32) compiles no user kernels
  static_assert(sizeof(long) == 8, "long is 64 bits (LP64), on the host as on the GPU");
#endif
  const ScalarType i32{Scalar::Signed, "int", std::numeric_limits<int>::min(), std::numeric_limits<int>::max()};
  const ScalarType u32{Scalar::Unsigned, "unsigned int", 0, std::numeric_limits<unsigned>::max()};
  const ScalarType i64{Scalar::Signed, "long long", std::numeric_limits<long long>::min(),
                       std::numeric_limits<long long>::max()};
  const ScalarType u64{Scalar::Unsigned, "unsigned long long", 0, std::numeric_limits<unsigned long long>::max()};
  if (type == "int" || type == "signed" || type == "signed int" || type == "int32_t") return i32;
  if (type == "unsigned" || type == "unsigned int" || type == "uint32_t") return u32;
  if (type == "long" || type == "long int" || type == "long long" || type == "long long int" || type == "int64_t")
    return i64;
  if (type == "unsigned long" || type == "unsigned long int" || type == "unsigned long long" ||
      type == "unsigned long long int" || type == "uint64_t" || type == "size_t")
    return u64;
  if (type == "float") return ScalarType{Scalar::Float, "float"};
  if (type == "double") return ScalarType{Scalar::Double, "double"};
  if (type == "bool") return ScalarType{Scalar::Bool, "bool"};
  return std::nullopt;
}

constexpr const char* kSupported =
    "int, unsigned, long, long long, size_t (or std::size_t, int32_t, uint32_t, int64_t, uint64_t), float, double or "
    "bool, const or not";

// A floating-point value as a literal that reads back as the same value.
template <class T>
std::string float_literal(T v) {
  std::array<char, 64> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  std::string s(buf.data(), r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return std::is_same_v<T, float> ? s + "f" : s;
}

template <class T>
std::string parse_float(std::string_view digits, std::string& why) {
  T v = 0;
  const char* end = digits.data() + digits.size();
  const auto r = std::from_chars(digits.data(), end, v);
  if (r.ec != std::errc() || r.ptr != end || !std::isfinite(v)) {
    const char* range =
        std::is_same_v<T, float> ? "float can hold (at most about 3.4e38" : "double can hold (at most about 1.8e308";
    why = std::string("a number ") + range + " in size, and not so small that it rounds to 0)";
    return {};
  }
  return float_literal(v);
}

// VALUE as a literal of the type; "" when the type cannot hold it (why: what it takes).
std::string typed_literal(const ScalarType& t, std::string_view value, std::string& why) {
  switch (t.kind) {
    case Scalar::Bool:
      why = "true, false, 1 or 0";
      if (value == "true" || value == "1") return "true";
      if (value == "false" || value == "0") return "false";
      return {};
    case Scalar::Float:
    case Scalar::Double: {
      why = "a finite number (e.g. 2, -0.5, 1e-3)";
      const std::regex number(R"(^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fF]?$)");
      if (!std::regex_match(value.begin(), value.end(), number)) return {};
      std::string_view digits = value.substr(value.starts_with('+') ? 1 : 0);
      if (digits.ends_with('f') || digits.ends_with('F')) digits.remove_suffix(1);
      return t.kind == Scalar::Float ? parse_float<float>(digits, why) : parse_float<double>(digits, why);
    }
    case Scalar::Signed:
    case Scalar::Unsigned: {
      why = "a whole number from " + std::to_string(t.min) + " to " + std::to_string(t.max);
      const std::regex whole(R"(^[+-]?\d+$)");
      if (!std::regex_match(value.begin(), value.end(), whole)) return {};
      const bool negative = value.starts_with('-');
      const std::string_view digits = value.substr(value.starts_with('+') || negative ? 1 : 0);
      unsigned long long magnitude = 0;
      if (std::from_chars(digits.data(), digits.data() + digits.size(), magnitude).ec != std::errc()) return {};
      // The most negative value's magnitude, computed without overflow.
      const unsigned long long lowest = t.min < 0 ? static_cast<unsigned long long>(-(t.min + 1)) + 1 : 0;
      if (negative ? magnitude > lowest : magnitude > t.max) return {};
      std::string lit;
      if (magnitude == 0) lit = "0ll";
      else if (!negative) lit = std::to_string(magnitude) + "ull";
      else if (magnitude - 1 == static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
        lit = "(-" + std::to_string(magnitude - 1) + "ll - 1)";  // the least long long has no literal of its own
      else lit = "-" + std::to_string(magnitude) + "ll";
      return std::string("static_cast<") + t.cast + ">(" + lit + ")";
    }
  }
  return {};
}

}  // namespace

std::string param_list_text(const std::vector<EntryParam>& params) {
  std::string s;
  for (const EntryParam& p : params) s += (s.empty() ? "" : ", ") + p.text;
  return s;
}

std::optional<std::vector<EntryParam>> find_entry_params(std::string_view source, const std::string& entry) {
  if (!is_identifier(entry)) return std::nullopt;
  const std::string code = code_only(source);
  const std::string_view s = code;
  std::optional<std::vector<EntryParam>> first, definition;
  std::vector<bool> defaults;
  for (std::size_t at = s.find(entry); at != std::string_view::npos; at = s.find(entry, at + 1)) {
    const std::size_t end = at + entry.size();
    if ((at > 0 && ident_char(s[at - 1])) || (end < s.size() && ident_char(s[end]))) continue;
    const std::size_t open = skip_blanks(s, end);
    if (open >= s.size() || s[open] != '(' || word_before(s, at) != "void") continue;
    std::size_t close = open;
    for (int depth = 0; close < s.size(); ++close) {
      if (s[close] == '(') ++depth;
      else if (s[close] == ')' && --depth == 0) break;
    }
    if (close >= s.size()) break;  // unbalanced: the compiler will say so
    std::vector<EntryParam> params;
    for (std::string_view part : split_params(s.substr(open + 1, close - open - 1))) params.push_back(read_param(part));
    if (params.size() == 1 && params[0].type == "void" && params[0].name.empty()) params.clear();
    defaults.resize(std::max(defaults.size(), params.size()), false);
    for (std::size_t i = 0; i < params.size(); ++i) defaults[i] = defaults[i] || params[i].has_default;
    if (!first) first = params;
    const std::size_t after = skip_blanks(s, close + 1);
    if (!definition && after < s.size() && s[after] == '{') definition = std::move(params);
  }
  std::optional<std::vector<EntryParam>> found = definition ? std::move(definition) : std::move(first);
  if (found)
    for (std::size_t i = 0; i < found->size(); ++i) (*found)[i].has_default = defaults[i];
  return found;
}

std::optional<ScalarBytes> scalar_bytes(const std::string& type, std::string_view value, std::string& why) {
  const std::optional<ScalarType> t = scalar_type(type);
  if (!t) {
    why = std::string("a parameter of one of these types: ") + kSupported;
    return std::nullopt;
  }
  // The checked literal ("static_cast<int>(64ull)", "2.0f", "true") holds the number in its one spelling.
  const std::string literal = typed_literal(*t, value, why);
  if (literal.empty()) return std::nullopt;
  ScalarBytes out;
  auto put = [&out](auto v) {
    out.size = sizeof v;
    std::memcpy(out.bytes, &v, sizeof v);
  };
  const std::string v(value.substr(value.starts_with('+') ? 1 : 0));
  switch (t->kind) {
    case Scalar::Bool: put(literal == "true"); break;
    case Scalar::Float: put(std::strtof(v.c_str(), nullptr)); break;
    case Scalar::Double: put(std::strtod(v.c_str(), nullptr)); break;
    case Scalar::Signed:
      if (t->max > std::numeric_limits<int>::max()) put(std::strtoll(v.c_str(), nullptr, 10));
      else put(static_cast<int>(std::strtoll(v.c_str(), nullptr, 10)));
      break;
    case Scalar::Unsigned:
      if (t->max > std::numeric_limits<unsigned>::max()) put(std::strtoull(v.c_str(), nullptr, 10));
      else put(static_cast<unsigned>(std::strtoull(v.c_str(), nullptr, 10)));
      break;
  }
  return out;
}

std::string check_arg_forms(const std::vector<std::string>& args) {
  std::vector<std::string_view> names;
  for (const std::string& a : args) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq + 1 == a.size())
      return "--arg " + a + ": an argument is NAME=VALUE, NAME a parameter of the entry (e.g. --arg alpha=2)";
    const std::string_view name = std::string_view(a).substr(0, eq), value = std::string_view(a).substr(eq + 1);
    if (!is_identifier(name)) return "--arg " + a + ": NAME must be a parameter's name (letters, digits, _)";
    if (value.find_first_of(" \t\r\n\\\"'") != std::string_view::npos)
      return "--arg " + a + ": VALUE is one number or true/false, without blanks or quotes";
    for (std::string_view n : names)
      if (n == name) return "--arg " + std::string(name) + " is given twice: each parameter takes one value";
    names.push_back(name);
  }
  return {};
}

std::optional<std::string> arg_value(const std::vector<std::string>& args, std::string_view name) {
  for (const std::string& a : args)
    if (const auto eq = a.find('='); eq != std::string::npos && std::string_view(a).substr(0, eq) == name)
      return a.substr(eq + 1);
  return std::nullopt;
}

BoundArgs bind_user_args(const UserKernelSpec& spec, std::string_view source) {
  if (std::string err = check_arg_forms(spec.args); !err.empty()) throw UserKernelError(K::BadSpec, err);
  const auto params = find_entry_params(source, spec.entry);
  const std::string who = spec.entry + " (" + spec.file + ")";
  if (!params) {
    if (spec.args.empty()) return {};  // the compiler says whether such an entry exists
    throw UserKernelError(K::BadSpec, "--arg " + spec.args.front() + ": found no void " + spec.entry + "(...) in " +
                                          spec.file + " whose parameters it could name");
  }
  const std::vector<EntryParam> extra(params->begin() + std::min<std::size_t>(params->size(), 6), params->end());
  for (std::size_t i = 0; i < extra.size(); ++i) {
    const EntryParam& p = extra[i];
    if (!scalar_type(p.type))
      throw UserKernelError(K::BadSpec, who + " takes '" + p.text + "' after A, B, C, M, N, K: tilescope binds " +
                                            "only scalars there (" + kSupported + "), each from --arg NAME=VALUE");
    if (p.name.empty() && !p.has_default)
      throw UserKernelError(K::BadSpec, who + ": its parameter " + std::to_string(i + 7) + " (" + p.text +
                                            ") has no name to bind with --arg NAME=VALUE");
  }
  for (const std::string& a : spec.args) {
    const std::string name = a.substr(0, a.find('='));
    const bool known = std::any_of(extra.begin(), extra.end(), [&](const EntryParam& p) { return p.name == name; });
    if (!known)
      throw UserKernelError(K::BadSpec, "--arg " + a + ": " + who + " has no parameter " + name +
                                            " after A, B, C, M, N, K" +
                                            (extra.empty() ? " (it takes none)" : "; it takes " + param_list_text(extra)));
  }
  BoundArgs out;
  const EntryParam* defaulted = nullptr;  // the first parameter left to its default
  for (const EntryParam& p : extra) {
    const std::optional<std::string> value = arg_value(spec.args, p.name);
    if (!value) {
      if (!p.has_default)
        throw UserKernelError(K::BadSpec,
                              who + " takes " + p.text + ": give it a value with --arg " + p.name + "=VALUE");
      if (!defaulted) defaulted = &p;
      continue;
    }
    if (defaulted)  // C++ fills defaults from the end: a call cannot skip one and give the next
      throw UserKernelError(K::BadSpec, "--arg " + p.name + "=" + *value + ": " + defaulted->text + " comes before " +
                                            p.name + " and keeps its default; give it too (--arg " + defaulted->name +
                                            "=VALUE)");
    std::string why;
    const std::string literal = typed_literal(*scalar_type(p.type), *value, why);
    if (literal.empty())
      throw UserKernelError(K::BadSpec, "--arg " + p.name + "=" + *value + ": " + p.text + " takes " + why);
    out.literals.push_back(literal);
  }
  for (const EntryParam& p : extra)
    if (p.name == "beta") out.c_starts_zero = true;  // bound or at its default
  return out;
}

double result_scale(const std::vector<std::string>& args) {
  const std::optional<std::string> alpha = arg_value(args, "alpha");
  if (!alpha) return 1.0;
  std::string_view v = *alpha;
  if (v == "true" || v == "false") return v == "true" ? 1.0 : 0.0;  // a bool alpha
  if (v.starts_with('+')) v.remove_prefix(1);
  if (v.ends_with('f') || v.ends_with('F')) v.remove_suffix(1);
  double x = 1.0;
  const auto r = std::from_chars(v.data(), v.data() + v.size(), x);
  return r.ec == std::errc() && r.ptr == v.data() + v.size() && std::isfinite(x) ? x : 1.0;
}

std::string flags_text(const std::vector<std::string>& defines, const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& d : defines) s += " -D " + d;
  for (const std::string& a : args) s += " --arg " + a;
  return s;
}

}  // namespace ts
