import triton
import triton.language as tl


# out = x + TAG: the output tells which config ran.
@triton.jit
def tagged_kernel(x, out, n, BLOCK: tl.constexpr, TAG: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask, other=0.0) + TAG, mask=mask)


# out += x: reads and writes out, so tuning must run on a scratch copy.
@triton.jit
def accumulate_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.load(out + offs, mask=mask, other=0.0)
    tl.store(out + offs, acc + tl.load(x + offs, mask=mask, other=0.0), mask=mask)
