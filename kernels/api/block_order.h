// block_order.h — which block tile of C a block of a grouped grid computes.
// A one-dimensional grid whose blocks walk down GROUP_M block rows before
// moving one block column right: the blocks resident at once then share their
// rows of A and columns of B in L2 (the last group may have fewer rows).
// Plain arithmetic, for the kernel headers (every mode) and for the catalog,
// which maps a trace's blocks to tiles of C with the same formula.
#pragma once

#if defined(__CUDACC__)
#define TS_BLOCK_ORDER_HD __host__ __device__
#else
#define TS_BLOCK_ORDER_HD
#endif

namespace ts {

struct GroupedTile {
  int row = 0, col = 0;  // among C's block tiles
};

TS_BLOCK_ORDER_HD constexpr GroupedTile grouped_block_tile(int block, int block_rows, int block_cols, int group_m) {
  const int first_row = block / (group_m * block_cols) * group_m;  // the group's first block row
  const int rows_in_group = block_rows - first_row < group_m ? block_rows - first_row : group_m;
  const int in_group = block % (group_m * block_cols);
  return {first_row + in_group % rows_in_group, in_group / rows_in_group};
}

}  // namespace ts
