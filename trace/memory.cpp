// memory.cpp — names of the memory tables' enumerations.
#include "trace/memory.h"

#include <array>
#include <utility>

namespace ts {
namespace {

constexpr std::array<std::string_view, 5> kTypeNames{"f32", "f16", "bf16", "i32", "word"};
constexpr std::array<std::string_view, 4> kRoleNames{"A", "B", "C", "other"};

}  // namespace

std::uint32_t element_bytes(ElementType t) {
  switch (t) {
    case ElementType::F16:
    case ElementType::BF16: return 2;
    case ElementType::F32:
    case ElementType::I32:
    case ElementType::Word: return 4;
  }
  return 4;
}

std::string_view element_type_name(ElementType t) {
  const auto i = static_cast<std::size_t>(t);
  return i < kTypeNames.size() ? kTypeNames[i] : "?";
}

std::optional<ElementType> parse_element_type(std::string_view name) {
  for (std::size_t i = 0; i < kTypeNames.size(); ++i)
    if (kTypeNames[i] == name) return static_cast<ElementType>(i);
  return std::nullopt;
}

std::string_view role_name(BufferRole r) {
  const auto i = static_cast<std::size_t>(r);
  return i < kRoleNames.size() ? kRoleNames[i] : "?";
}

std::optional<BufferRole> parse_role(std::string_view name) {
  for (std::size_t i = 0; i < kRoleNames.size(); ++i)
    if (kRoleNames[i] == name) return static_cast<BufferRole>(i);
  return std::nullopt;
}

Region raw_region(std::string name, std::uint32_t offset, std::uint32_t bytes) {
  Region r;
  r.name = std::move(name);
  r.offset = offset;
  r.bytes = bytes;
  r.type = ElementType::Word;
  r.raw = true;
  r.cols = r.ld = 32;
  r.rows = (bytes / 4 + 31) / 32;
  return r;
}

}  // namespace ts
