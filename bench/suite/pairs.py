# Pairs of the benchmark suite: complex numbers stored as (re, im) pairs,
# interleaved with tl.interleave and taken apart with tl.split (a row's
# pair held by one thread: register moves, no shared memory).
import triton
import triton.language as tl


@triton.jit
def interleave_kernel(re_ptr, im_ptr, z_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    o = pid * BLOCK + tl.arange(0, BLOCK)
    re = tl.load(re_ptr + o, mask=o < n)
    im = tl.load(im_ptr + o, mask=o < n)
    p = 2 * pid * BLOCK + tl.arange(0, 2 * BLOCK)
    tl.store(z_ptr + p, tl.interleave(re, im), mask=p < 2 * n)


@triton.jit
def magnitude_kernel(z_ptr, mag_ptr, conj_ptr, n, BLOCK: tl.constexpr):
    # |z|^2 of each pair, and the conjugate pairs
    pid = tl.program_id(0)
    o = pid * BLOCK + tl.arange(0, BLOCK)
    t = tl.arange(0, 2)
    m = (o[:, None] < n) & (t[None, :] < 2)
    z = tl.load(z_ptr + o[:, None] * 2 + t[None, :], mask=m)
    re, im = tl.split(z)
    tl.store(mag_ptr + o, re * re + im * im, mask=o < n)
    tl.store(conj_ptr + o[:, None] * 2 + t[None, :], tl.join(re, -im), mask=m)
