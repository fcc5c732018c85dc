// reference.h — the independent check every kernel is held to: C computed in
// double precision on the CPU, and the normwise relative error against it.
#pragma once

#include <span>
#include <vector>

namespace ts {

// C = A * B with A m x k and B k x n (row-major), accumulated in double.
std::vector<double> reference_matmul(std::span<const float> a, std::span<const float> b, int m, int n, int k);

// ||c - ref|| / ||ref|| (Frobenius); infinity if any element of c is NaN or infinite.
double relative_error(std::span<const float> c, std::span<const double> ref);

}  // namespace ts
