"""A Triton matmul, to record with tilescope's tracer like any program:

    PYTORCH_NO_CUDA_MEMORY_CACHING=1 tilescope record --exec --m 128 --n 128 --k 128 \
        --kernel-name matmul -o triton.tstrace -- python3 examples/triton/matmul.py 128

PYTORCH_NO_CUDA_MEMORY_CACHING=1 makes PyTorch allocate each tensor by itself
(its caching allocator would carve A, B and C out of one larger block, and the
tracer finds the matrices by their allocations). A, B and C are row-major
float32, allocated in that order; the product is accumulated in FP32
(input_precision "ieee": no TF32), and checked against torch.matmul in float64.
"""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rows[:, None] * K + ks[None, :],
                    mask=(rows[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + cols[None, :],
                    mask=(ks[:, None] < K) & (cols[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc,
             mask=(rows[:, None] < M) & (cols[None, :] < N))


def main():
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 128
    m = n = k = size
    torch.manual_seed(0)
    a = torch.rand((m, k), device="cuda", dtype=torch.float32) * 2 - 1
    b = torch.rand((k, n), device="cuda", dtype=torch.float32) * 2 - 1
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    grid = (triton.cdiv(m, 32), triton.cdiv(n, 32))
    matmul_kernel[grid](a, b, c, m, n, k, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    err = ((c.double() - ref).norm() / ref.norm()).item()
    print(f"triton matmul {m}x{n}x{k}: relative error {err:.3e}")
    sys.exit(0 if err < 1e-5 else 1)


if __name__ == "__main__":
    main()
