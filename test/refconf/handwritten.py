# Hand-written cases of the reference corpus: the three differences of
# issue 17 (lazy loads in a static_range accumulation, a constant 0 on the
# left of +, tl.full with an integer literal), a store-load hazard, and the
# i32 max/min reductions.
import triton
import triton.language as tl


@triton.jit
def unrolled_dot_kernel(a, b, out, K: tl.constexpr):
    acc = 0.0
    for k in tl.static_range(0, K):
        acc += tl.load(a + k) * tl.load(b + k)
    tl.store(out, acc)


@triton.jit
def zero_left_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    z = 0
    one = 1
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    tl.store(out + offs, v + (z + offs) * one + 0 * offs, mask=(0 + offs) < n)


@triton.jit
def full_literal_kernel(out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    two = tl.full((BLOCK,), 2, tl.float32)
    half = tl.full((BLOCK,), 0.5, tl.float32)
    three = tl.full((BLOCK,), 3, tl.int32)
    tl.store(out + offs, two * half + three)


@triton.jit
def loads_then_stores_kernel(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    c = a * b + 1.0
    tl.store(out + offs, tl.maximum(c, a - b))


@triton.jit
def int_extrema_kernel(out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = offs * 3 - n
    tl.store(out, tl.max(v) + tl.min(v) + 0.0)
