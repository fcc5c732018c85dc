// cubin_shared.cpp — static shared variables from a cubin's section and
// symbol tables (cubin_shared.h).
#include "tracer/cubin_shared.h"

#include <elf.h>

#include <algorithm>
#include <cstring>

namespace ts::tracer {
namespace {

// A T at byte `at` of the image, if it lies wholly inside.
template <class T>
bool read_at(const unsigned char* p, std::size_t bytes, std::uint64_t at, T& out) {
  if (at > bytes || sizeof(T) > bytes - at) return false;
  std::memcpy(&out, p + at, sizeof(T));
  return true;
}

// A NUL-terminated name inside the string table [table, table + size).
std::optional<std::string> name_at(const unsigned char* p, std::size_t bytes, const Elf64_Shdr& table,
                                   std::uint32_t offset) {
  if (table.sh_offset > bytes || table.sh_size > bytes - table.sh_offset || offset >= table.sh_size)
    return std::nullopt;
  const char* s = reinterpret_cast<const char*>(p + table.sh_offset + offset);
  const std::size_t room = table.sh_size - offset;
  const std::size_t n = strnlen(s, room);
  if (n == room) return std::nullopt;
  return std::string(s, n);
}

}  // namespace

std::map<std::string, KernelShared> cubin_shared(const void* cubin, std::size_t bytes) {
  std::map<std::string, KernelShared> out;
  const auto* p = static_cast<const unsigned char*>(cubin);
  Elf64_Ehdr eh;
  if (!p || !read_at(p, bytes, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr))
    return out;
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  for (std::size_t i = 0; i < sections.size(); ++i)
    if (!read_at(p, bytes, eh.e_shoff + i * sizeof(Elf64_Shdr), sections[i])) return {};
  if (eh.e_shstrndx >= sections.size()) return out;

  // Section index -> the kernel whose static shared memory it is.
  const std::string prefix = ".nv.shared.";
  std::map<std::size_t, std::string> kernel_of;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const auto name = name_at(p, bytes, sections[eh.e_shstrndx], sections[i].sh_name);
    if (!name || !name->starts_with(prefix) || name->starts_with(".nv.shared.reserved")) continue;
    kernel_of[i] = name->substr(prefix.size());
    out[kernel_of[i]].section_bytes = static_cast<std::uint32_t>(sections[i].sh_size);
  }

  for (const Elf64_Shdr& symtab : sections) {
    if (symtab.sh_type != SHT_SYMTAB || symtab.sh_entsize != sizeof(Elf64_Sym) || symtab.sh_link >= sections.size())
      continue;
    const Elf64_Shdr& strtab = sections[symtab.sh_link];
    for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= symtab.sh_size; at += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      if (!read_at(p, bytes, symtab.sh_offset + at, sym)) break;
      const auto kernel = kernel_of.find(sym.st_shndx);
      if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || kernel == kernel_of.end() || sym.st_size == 0) continue;
      const auto name = name_at(p, bytes, strtab, sym.st_name);
      if (!name || sym.st_value > 0xFFFFFFFFull || sym.st_size > 0xFFFFFFFFull) continue;
      out[kernel->second].symbols.push_back({*name, static_cast<std::uint32_t>(sym.st_value), static_cast<std::uint32_t>(sym.st_size)});
    }
  }
  for (auto& [kernel, shared] : out)
    std::sort(shared.symbols.begin(), shared.symbols.end(),
              [](const RawSharedSymbol& a, const RawSharedSymbol& b) { return a.offset < b.offset; });
  return out;
}

}  // namespace ts::tracer
