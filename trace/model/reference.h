// reference.h — the independent check every kernel is held to: C computed in
// double precision on the CPU, and the normwise relative error against it.
// Part of trace/model: the benchmark (kernels/cuda) and the app's checks both use it.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace ts {

// C = A * B with A m x k and B k x n (row-major), accumulated in double.
std::vector<double> reference_matmul(std::span<const float> a, std::span<const float> b, int m, int n, int k);

// ||c - ref|| / ||ref|| (Frobenius); infinity if any element of c is NaN or infinite.
double relative_error(std::span<const float> c, std::span<const double> ref);

// Checks every cell of c against alpha A x B in double precision. A cell is wrong
// when it is not finite or differs from the reference by more than
// 2 K u |alpha| sum_p |a_ip b_pj| (u = 2^-24: the forward error bound of any
// float summation order, doubled; it covers the one rounding of alpha's
// product too). Returns "" when every cell is right, else one line naming the
// worst cell and its two values, and how many cells are wrong.
std::string check_matmul(std::span<const float> a, std::span<const float> b, std::span<const float> c, int m, int n,
                         int k, double alpha = 1.0);
// "A x B", or "2 x A x B": what check_matmul held C to.
std::string product_name(double alpha);

}  // namespace ts
