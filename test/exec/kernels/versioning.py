# Runtime loops that load and store (issue 14; DESIGN 13b): at -O2 the CUDA
# backend runs them in two versions, groups of iterations whose loads go
# ahead of their stores where a run-time test finds the stored and the
# loaded bytes disjoint, else the loop as written. The tests run them on
# separate buffers and on overlapping ones (Y = X + k: a later iteration
# loads what an earlier one stored, so only program order is right).
import triton
import triton.language as tl


@triton.jit
def layer_norm_loops_kernel(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    # The benchmark suite's layer_norm_fwd_kernel (bench/suite/norms.py),
    # Triton's tutorial: mean, variance, then a loop loading X, W and B and
    # storing Y.
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def running_sum_kernel(X, Y, n, step, xs, BLOCK: tl.constexpr):
    # Y[i + l] = sum over the iterations up to i of X[(i + l) * xs]: a
    # runtime step, a runtime (possibly negative) stride, a carried value
    # stored every iteration.
    lanes = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n, step):
        idx = i + lanes
        acc += tl.load(X + idx * xs, mask=idx < n, other=0.)
        tl.store(Y + idx, acc, mask=idx < n)
