// memory.h — what a launch's memory is: its global buffers and the shared
// regions of each block, as tables the launch description carries. An event
// names one of them by its memory id (Event::array):
//
//   ids 0 .. buffers - 1            the buffers, in table order
//   ids buffers .. buffers+regions-1 the shared regions, in table order
//
// The row and column of an access come from its buffer's layout (row- or
// column-major, leading dimension), the bank of a shared access from its
// region's offset in the block's shared window. So a column-major B, a padded
// leading dimension or a buffer that is not A, B or C needs nothing special
// downstream.
//
// tilescope's own kernels have buffers A, B, C (roles A, B, C) and regions
// As, Bs, in that order: their ids are ArrayId's (event.h), which is how
// trace files of versions 1 and 2 (a fixed list of five arrays) map onto the
// tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "trace/event.h"  // kMaxMemoryIds

namespace ts {

// What a buffer is to a matrix product: its operands, its result, or
// anything else (a bias, a workspace, split-k partial sums).
enum class BufferRole : std::uint8_t { A = 0, B = 1, C = 2, Other = 3 };

// What one element is. Recorded values are carried as float whatever the type.
enum class ElementType : std::uint8_t { F32 = 0, F16 = 1, BF16 = 2, I32 = 3, Word = 4 };

enum class MatrixOrder : std::uint8_t { RowMajor = 0, ColMajor = 1 };

std::uint32_t element_bytes(ElementType t);
std::string_view element_type_name(ElementType t);  // "f32", "f16", "bf16", "i32", "word"
std::optional<ElementType> parse_element_type(std::string_view name);
std::string_view role_name(BufferRole r);  // "A", "B", "C", "other"
std::optional<BufferRole> parse_role(std::string_view name);

struct MatrixCoord {
  std::uint32_t row = 0, col = 0;
  friend bool operator==(const MatrixCoord&, const MatrixCoord&) = default;
};

// A buffer in global memory, seen as a rows x cols matrix: element (r, c) is
// element r * ld + c from its start (row-major) or c * ld + r (column-major).
// An event's index is that element offset.
struct Buffer {
  std::string name;  // "A", "B", "C", "bias", ...
  BufferRole role = BufferRole::Other;
  ElementType type = ElementType::F32;
  std::uint32_t rows = 0, cols = 0, ld = 0;
  MatrixOrder order = MatrixOrder::RowMajor;
  std::uint64_t base = 0;  // its device address when recorded on a GPU (0: not known)

  // Elements it spans: rows x ld (row-major) or cols x ld (column-major).
  std::uint64_t elements() const {
    return std::uint64_t{order == MatrixOrder::RowMajor ? rows : cols} * ld;
  }
  MatrixCoord coord(std::uint32_t index) const {
    if (ld == 0) return {};
    return order == MatrixOrder::RowMajor ? MatrixCoord{index / ld, index % ld} : MatrixCoord{index % ld, index / ld};
  }
  std::uint64_t index_of(std::uint32_t row, std::uint32_t col) const {
    return order == MatrixOrder::RowMajor ? std::uint64_t{row} * ld + col : std::uint64_t{col} * ld + row;
  }
  std::uint64_t address(std::uint32_t index) const { return base + std::uint64_t{index} * element_bytes(type); }
  friend bool operator==(const Buffer&, const Buffer&) = default;
};

// A region of each block's shared memory: `bytes` from byte `offset` of the
// block's shared window, a rows x cols array of ld-wide rows where its shape
// is known (element (r, c) is element r * ld + c). A kernel whose shared
// memory has no names is one raw region of 4-byte words, drawn in rows of 32
// (one word per bank). An event's index is the element offset from its start.
struct Region {
  std::string name;  // "As", "sa", "smem" (raw) ...
  std::uint32_t offset = 0, bytes = 0;
  ElementType type = ElementType::F32;
  std::uint32_t rows = 0, cols = 0, ld = 0;
  bool raw = false;

  std::uint64_t elements() const { return std::uint64_t{rows} * ld; }
  MatrixCoord coord(std::uint32_t index) const { return ld ? MatrixCoord{index / ld, index % ld} : MatrixCoord{}; }
  // Byte offset of an element in the block's shared window, and its bank.
  std::uint64_t window_offset(std::uint32_t index) const {
    return offset + std::uint64_t{index} * element_bytes(type);
  }
  std::uint32_t bank(std::uint32_t index) const { return static_cast<std::uint32_t>(window_offset(index) / 4 % 32); }
  friend bool operator==(const Region&, const Region&) = default;
};

// The region of a raw shared window of `bytes` (words in rows of 32).
Region raw_region(std::string name, std::uint32_t offset, std::uint32_t bytes);

}  // namespace ts
