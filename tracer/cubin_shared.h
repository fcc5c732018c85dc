// cubin_shared.h — a kernel's static __shared__ memory as its cubin (an ELF
// file) describes it: the section .nv.shared.<kernel>, whose size is the
// static part of the block's shared window (on sm_90 it includes the reserved
// first KiB), and the OBJECT symbols in it: one per variable, its value the
// window offset. Release builds keep no such symbols (the variables are
// local and stripped; -G keeps them): then only the size is known, and the
// assembler makes one raw region of the window the launch touched.
// Pure C++ on <elf.h>, bounds-checked: the bytes come from the driver.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tracer/raw_file.h"

namespace ts::tracer {

struct KernelShared {
  std::uint32_t section_bytes = 0;
  std::vector<RawSharedSymbol> symbols;  // by offset
};

// The shared memory of every kernel in `cubin` that has a shared section, by
// the kernel's symbol name (mangled); empty when the bytes are no 64-bit ELF.
std::map<std::string, KernelShared> cubin_shared(const void* cubin, std::size_t bytes);

}  // namespace ts::tracer
