// mode_plain.cuh — compile the kernel headers as plain CUDA: raw pointers and
// __shared__ arrays, nothing recorded. These are the kernels the benchmark times.
#pragma once

#define TS_KERNEL_NS ts::plain
#define TS_SHARED(type, name, rows, cols) __shared__ type name[rows][cols]

namespace ts::plain {
using InMatrix = const float* __restrict__;
using OutMatrix = float* __restrict__;
}  // namespace ts::plain
