// kernel_api.h — what every kernel header may use, whichever way it is compiled.
//
// A kernel family is written once, as a function template in a kernel header,
// inside `namespace TS_KERNEL_NS`. The includer picks the mode first:
//   kernels/cuda/mode_plain.cuh      plain CUDA: raw pointers, __shared__ arrays;
//   kernels/cuda/mode_recorded.cuh   instrumented CUDA: every access is recorded;
//   kernels/emu/mode_emulator.h      the CPU emulator (threads as fibers).
// Each mode defines, in its namespace: InMatrix / OutMatrix (the types of A, B
// and C), TS_SHARED(type, name, rows, cols) (a block's shared tile;
// TS_SHARED_ALIGNED for one read or written as float4), and the
// CUDA built-ins the kernels use (threadIdx, blockIdx, blockDim, __syncthreads),
// and the pieces real GEMM kernels use, with the same names in every mode:
// float4/float2, load4/store4, load2/store2 (kernels/api/vector.h) and
// cp_async4/16, cp_async4/16_zero, cp_async_commit, cp_async_wait<N>
// (kernels/api/async_copy.h), FragA/B/C, load_matrix_a/b and mma_tf32
// (kernels/api/mma.h); the plain versions are in mode_plain.cuh.
// TS_SHARED_DYNAMIC(type, name, rows, cols, first_word) is a 16-byte aligned
// tile that a plain launch may put in dynamic shared memory, from word
// first_word on (past the 48 KB of static shared memory; mode_plain.cuh says
// how); every other build declares it statically.
#pragma once

#if defined(__CUDACC__)
#define TS_HD __host__ __device__
#define TS_DEVICE __device__
#define TS_INLINE __forceinline__
#else
#define TS_HD
#define TS_DEVICE
#define TS_INLINE inline __attribute__((always_inline))
#endif

// Unroll the loop that follows in the CUDA builds (the trip count is a
// compile-time constant); the emulator's compiler decides for itself.
#if defined(__CUDACC__)
#define TS_UNROLL _Pragma("unroll")
#else
#define TS_UNROLL
#endif

#if !defined(TS_KERNEL_NS)
#error "include a mode header (plain, recorded or emulator) before a kernel header"
#endif
