// undeclared_shared.h — a shared tile whose shape nobody described before the
// launch (a user kernel's, kernels/user/): its ArrayLayout is 1 x
// kUndeclaredShared (any index but the tile-edge marker passes), and the
// recorders take its shape from TS_SHARED's declaration.
#pragma once

#include <cstdint>

namespace ts {

inline constexpr std::uint32_t kUndeclaredShared = 0xFFFFFFFEu;

}  // namespace ts
