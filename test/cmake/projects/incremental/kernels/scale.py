import triton
import triton.language as tl


@triton.jit
def scale_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    values = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, values * 2.0, mask=mask)
