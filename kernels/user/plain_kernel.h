// plain_kernel.h — a CUDA file as written, to be launched once by tilescope
// (kernels/cuda/plain_file.h) and traced: the kernel, its launch shape, and
// its parameters bound by name. The binding needs no GPU (tested on the CPU).
//
// Binding, parameter by parameter (the list read from the source, as --arg's
// is: user_args.h):
//   - --arg NAME=VALUE: a scalar's value, checked for its type; a pointer's
//     is @A, @B or @C, the matrices tilescope allocated and filled;
//   - else a pointer named A, B or C (any case) is that matrix, and an
//     integer named M, N or K (any case) is that size;
//   - anything else unbound is an error that names it (a kernel's default
//     arguments do not exist at a driver launch).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/user/user_args.h"
#include "trace/dim3.h"

namespace ts {

struct PlainKernel {
  std::string file;
  std::string entry;                 // a __global__ function; a template's instance as "name<64>"
  std::vector<std::string> defines;  // NAME=VALUE (-D)
  std::vector<std::string> args;     // NAME=VALUE; pointers @A, @B, @C
  Dim3 grid, block;
  std::uint32_t dynamic_shared = 0;  // bytes
};

struct BoundParam {
  std::string name, type;
  char matrix = 0;     // 'A', 'B' or 'C' for a pointer; 0 for a scalar
  ScalarBytes value;   // a scalar's
  std::string shown;   // "@A", "64", "2": what it got, for messages
};

// The entry's parameters, bound. m, n, k: the sizes M, N, K bind to. Throws
// UserKernelError: BadSpec naming the parameter (unbound, an --arg naming none
// or given twice, a value its type cannot hold, a pointer bound to anything but
// @A, @B, @C, a type that is neither a supported scalar nor a pointer); NoFile;
// NoEntry (the source shows no such function).
std::vector<BoundParam> bind_plain_kernel(const PlainKernel& kernel, int m, int n, int k);

// The entry's name without template arguments: "sgemm<64>" -> "sgemm".
std::string plain_entry_base(const std::string& entry);

// Whether a bound parameter is named beta (C = alpha A B + beta C, BLAS's
// names): C then starts at 0, so that beta C adds nothing; and what C is held
// to: alpha (the value bound to a parameter named alpha) times A x B.
bool plain_kernel_takes_beta(const std::vector<BoundParam>& params);
double plain_kernel_alpha(const std::vector<BoundParam>& params);

// "XxY", "XxYxZ", "X,Y" or "X,Y,Z", each from 1: nullopt when malformed.
std::optional<Dim3> parse_dims(const std::string& text);

}  // namespace ts
