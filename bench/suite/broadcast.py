# Broadcasting kernels of the benchmark suite: a row vector (bias) or a
# column vector (per-row scale) against a tile, and an outer product.
import triton
import triton.language as tl


@triton.jit
def bias_relu_kernel(x_ptr, bias_ptr, out_ptr, M, N, stride_xm, stride_om,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    x = tl.load(x_ptr + offs_m[:, None] * stride_xm + offs_n[None, :], mask=mask, other=0.0)
    b = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)
    y = tl.maximum(x + b[None, :], 0.0)
    tl.store(out_ptr + offs_m[:, None] * stride_om + offs_n[None, :], y, mask=mask)


@triton.jit
def row_scale_kernel(x_ptr, scale_ptr, out_ptr, M, N, stride_xm, stride_om,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # out[m, n] = x[m, n] * scale[m]: a column vector broadcast along rows.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    x = tl.load(x_ptr + offs_m[:, None] * stride_xm + offs_n[None, :], mask=mask, other=0.0).to(tl.float32)
    s = tl.load(scale_ptr + offs_m, mask=offs_m < M, other=0.0)
    y = x * s[:, None]
    tl.store(out_ptr + offs_m[:, None] * stride_om + offs_n[None, :], y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def outer_kernel(a_ptr, b_ptr, out_ptr, M, N, stride_om, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    a = tl.load(a_ptr + offs_m, mask=offs_m < M, other=0.0)
    b = tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(out_ptr + offs_m[:, None] * stride_om + offs_n[None, :], a[:, None] * b[None, :], mask=mask)
