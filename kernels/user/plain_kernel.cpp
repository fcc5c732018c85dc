// plain_kernel.cpp — bind a plain CUDA file's entry parameters by name.
#include "kernels/user/plain_kernel.h"

#include <algorithm>
#include <cctype>

#include "kernels/user/user_kernel.h"

namespace ts {
namespace {

using K = UserKernelError::Kind;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool is_pointer(const std::string& type) { return type.find('*') != std::string::npos; }

}  // namespace

std::string plain_entry_base(const std::string& entry) { return entry.substr(0, entry.find('<')); }

std::vector<BoundParam> bind_plain_kernel(const PlainKernel& kernel, int m, int n, int k) {
  if (std::string err = check_arg_forms(kernel.args); !err.empty()) throw UserKernelError(K::BadSpec, err);
  const std::string source = read_kernel_source(kernel.file);
  const std::string base = plain_entry_base(kernel.entry);
  const auto params = find_entry_params(source, base);
  if (!params)
    throw UserKernelError(K::NoEntry, kernel.file + " shows no kernel __global__ void " + base +
                                          "(...) (an entry made by a macro is not seen: write it out)");
  std::vector<bool> used(kernel.args.size(), false);
  std::vector<BoundParam> out;
  for (const EntryParam& p : *params) {
    if (p.name.empty() || p.type.empty())
      throw UserKernelError(K::BadSpec, "cannot read the parameter '" + p.text + "' of " + base);
    BoundParam b{p.name, p.type, 0, {}, {}};
    std::optional<std::string> given;
    for (std::size_t i = 0; i < kernel.args.size(); ++i)
      if (kernel.args[i].substr(0, kernel.args[i].find('=')) == p.name) {
        given = kernel.args[i].substr(kernel.args[i].find('=') + 1);
        used[i] = true;
      }
    const std::string low = lower(p.name);
    if (is_pointer(p.type)) {
      std::string to = given.value_or("");
      if (!given && (low == "a" || low == "b" || low == "c")) to = "@" + std::string(1, char(std::toupper(low[0])));
      if (to != "@A" && to != "@B" && to != "@C")
        throw UserKernelError(K::BadSpec, "the pointer parameter '" + p.text + "' of " + base +
                                              (given ? " is bound to '" + *given + "'" : " is not bound") +
                                              ": bind it to one of the matrices, --arg " + p.name + "=@A (or @B, @C)");
      b.matrix = to[1];
      b.shown = to;
    } else {
      std::string value;
      if (given) value = *given;
      else if (low == "m" || low == "n" || low == "k") value = std::to_string(low == "m" ? m : low == "n" ? n : k);
      else
        throw UserKernelError(K::BadSpec, "the parameter '" + p.text + "' of " + base +
                                              " is not bound: give its value with --arg " + p.name + "=VALUE");
      std::string why;
      const auto bytes = scalar_bytes(p.type, value, why);
      if (!bytes)
        throw UserKernelError(K::BadSpec, "--arg " + p.name + "=" + value + ": '" + p.text + "' takes " + why);
      b.value = *bytes;
      b.shown = value;
    }
    out.push_back(std::move(b));
  }
  for (std::size_t i = 0; i < kernel.args.size(); ++i)
    if (!used[i])
      throw UserKernelError(K::BadSpec, "--arg " + kernel.args[i] + ": " + base + " has no such parameter (it takes " +
                                            param_list_text(*params) + ")");
  return out;
}

bool plain_kernel_takes_beta(const std::vector<BoundParam>& params) {
  return std::any_of(params.begin(), params.end(), [](const BoundParam& p) { return p.name == "beta" && !p.matrix; });
}

double plain_kernel_alpha(const std::vector<BoundParam>& params) {
  for (const BoundParam& p : params)
    if (p.name == "alpha" && !p.matrix && p.type != "bool") return std::stod(p.shown);  // checked by scalar_bytes
  return 1.0;
}

std::optional<Dim3> parse_dims(const std::string& text) {
  std::uint32_t v[3] = {1, 1, 1};
  int count = 0;
  std::size_t at = 0;
  while (count < 3) {
    std::size_t used = 0;
    unsigned long x = 0;
    try {
      x = std::stoul(text.substr(at), &used);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (used == 0 || x < 1 || x > 0x7fffffffUL || !std::isdigit(static_cast<unsigned char>(text[at])))
      return std::nullopt;
    v[count++] = static_cast<std::uint32_t>(x);
    at += used;
    if (at == text.size()) return Dim3{v[0], v[1], v[2]};
    if (text[at] != 'x' && text[at] != ',') return std::nullopt;
    ++at;
  }
  return std::nullopt;
}

}  // namespace ts
