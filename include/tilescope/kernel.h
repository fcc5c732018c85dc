// tilescope/kernel.h — what a kernel of your own is written in: the vocabulary
// of tilescope's kernels (kernels/kernel_api.h), re-exported for one file.
//
//   #include <tilescope/kernel.h>
//   TS_DEVICE void my_matmul(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {
//     TS_SHARED(float, As, TILE, TILE);   // shared tiles are named As and Bs
//     ... threadIdx, blockIdx, blockDim, gridDim, __syncthreads(),
//         float4 / load4 / store4, float2 / load2 / store2,
//         cp_async4 / cp_async16 / cp_async*_zero / cp_async*_or_zero / cp_async_commit / cp_async_wait<N> ...
//   }
//
// Record it with
//   tilescope record --kernel-file my.cu --entry my_matmul --block 16x16 -D TILE=16 --size 100
// and see examples/kernels/README.md. tilescope compiles the file in one of its
// recording modes and places the kernel in that mode's namespace, exactly as
// the project's own kernel headers are placed; compile-time constants come
// from -D NAME=VALUE, and scalar parameters after M, N, K (float alpha, int
// lda, ...) from --arg NAME=VALUE. Include nothing else: the file is compiled
// by the system C++ compiler for the emulator and by NVRTC for the GPU.
//
// Which mode: TILESCOPE_MODE_RECORDED (instrumented CUDA, set by the GPU
// recorder), else the CPU emulator. Opened on its own (an editor's code model),
// the header defaults to the emulator and brings its names into scope.
#pragma once

#if defined(TILESCOPE_MODE_RECORDED)
#include "kernels/cuda/mode_recorded.cuh"
#include "kernels/cuda/recorded_thread.cuh"
#else
#include "kernels/emu/mode_emulator.h"
#endif
#include "kernels/kernel_api.h"

#if !defined(TILESCOPE_USER_KERNEL_WRAPPED)
// Not inside tilescope's wrapper: a user file parsed by itself (an editor).
using namespace TS_KERNEL_NS;
#endif
