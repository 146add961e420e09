"""Triton on the same kernel sources, measured in the same run as mytriton's
benchmarks (the anchors in ../shared/anchors.md were measured this way).

    python3 bench/triton_bench.py test/conformance/kernels

Needs torch and triton with a GPU; prints one line per figure.
"""
import importlib.util
import sys
import time

import torch
import triton
from triton.testing import do_bench


def load(root, name):
    spec = importlib.util.spec_from_file_location(name, f"{root}/{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "test/conformance/kernels"
    vector_add = load(root, "vector_add")
    softmax = load(root, "softmax")
    matmul = load(root, "matmul")
    print(f"triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}")

    n = 1 << 26
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    t = do_bench(lambda: out.copy_(x))
    print(f"triton-run copy (torch copy_) 2^26 fp32: {t:.3f} ms, {2 * n * 4 / t / 1e6:.0f} GB/s")
    grid = (triton.cdiv(n, 1024),)
    t = do_bench(lambda: vector_add.add_kernel[grid](x, y, out, n, BLOCK=1024))
    assert torch.allclose(out, x + y)
    print(f"triton vector_add n=2^26 BLOCK=1024: {t:.3f} ms, {3 * n * 4 / t / 1e6:.0f} GB/s")

    rows, cols = 65536, 1024
    xs = torch.randn(rows, cols, device="cuda")
    o2 = torch.empty_like(xs)
    t = do_bench(lambda: softmax.softmax_kernel[(rows,)](xs, o2, cols, BLOCK=1024))
    assert torch.allclose(o2, torch.softmax(xs, dim=1), atol=1e-5)
    print(f"triton softmax 65536x1024: {t:.3f} ms, {2 * rows * cols * 4 / t / 1e6:.0f} GB/s")

    M = N = K = 4096
    a = torch.randn(M, K, device="cuda")
    b = torch.randn(K, N, device="cuda")
    c = torch.empty(M, N, device="cuda")
    for bm in (16, 32, 64):
        g = (triton.cdiv(M, bm), triton.cdiv(N, bm))
        t = do_bench(lambda: matmul.matmul_runtime_k_kernel[g](a, b, c, M, N, K, BM=bm, BN=bm), rep=300)
        print(f"triton matmul_runtime_k 4096^3 BM=BN={bm}: {t:.3f} ms, {2 * M * N * K / t / 1e9:.1f} TFLOP/s")
    t = do_bench(lambda: torch.matmul(a, b))
    print(f"torch.matmul (cuBLAS, default precision) 4096^3: {t:.3f} ms, {2 * M * N * K / t / 1e9:.1f} TFLOP/s")

    small = torch.rand(1024, device="cuda")
    so = torch.empty_like(small)
    for _ in range(10):
        vector_add.add_kernel[(8,)](small, small, so, 1024, BLOCK=128)
    torch.cuda.synchronize()
    reps = 2000
    t0 = time.perf_counter()
    for _ in range(reps):
        vector_add.add_kernel[(8,)](small, small, so, 1024, BLOCK=128)
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    print(f"triton launch from Python (tiny vector add): {(t1 - t0) / reps * 1e6:.1f} us per call")


if __name__ == "__main__":
    main()
