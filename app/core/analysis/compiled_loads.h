// compiled_loads.h — a warp's shared loads as the compiler issues them.
//
// The trace records each float the source reads: `As[ty][k]` in an unrolled
// k loop is one 4-byte load per k. ptxas reads four adjacent words of one
// thread with one LDS.128 (two with LDS.64) when it can see that they are
// adjacent and 16- (8-) byte aligned, which is what Nsight Compute counts.
// The model of that, the same here and in the GPU's counting build
// (kernels/cuda/mode_counted.cuh):
//
// Per warp, barrier epoch and shared array, the epoch's first 4-byte load of
// the array sets a family: its lanes and their words b[l]. A later 4-byte
// load of the array joins the family when it has the same lanes and its words
// are b[l] + d for one d (the same base register and an immediate offset, as
// the compiler sees it), with |d| < 2^15 words, d not yet in the family and
// fewer than kFamilyLoads offsets in it. At the end of the epoch the family's
// offsets are read in ascending order: four offsets d..d+3 whose words are
// 16-byte aligned in every lane (b[l] + d a multiple of 4, counted from the
// start of the array: the compiler places a shared array at a 16-byte
// boundary) become one 16-byte load, two whose words are 8-byte aligned one
// 8-byte load, and any other offset stays a 4-byte load. Every other shared load (vector loads, loads
// that do not join) is counted as it is.
//
// A model, not the compiler: it does not know what ptxas can prove (a dynamic
// index that happens to be aligned is merged here; the compiler may not) or
// where it stops unrolling.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "app/core/analysis/warp_requests.h"

namespace ts {

// The most offsets a family holds, and the largest offset (in words, either way).
inline constexpr std::uint32_t kFamilyLoads = 128;
inline constexpr std::int32_t kFamilyReach = 32767;

// A shared load as compiled: the request (width and iter set), its lanes' byte
// addresses and lane numbers.
using CompiledLoadSink = std::function<void(const WarpRequest& request, std::span<const std::uint64_t> addresses,
                                            std::span<const std::uint32_t> lanes)>;

// Calls sink for every shared load of the warp that `aligner` aligned, as compiled.
void compiled_shared_loads(const WarpAligner& aligner, const CompiledLoadSink& sink);

}  // namespace ts
