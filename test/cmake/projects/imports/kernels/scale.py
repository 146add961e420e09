import triton
import triton.language as tl
from common import scale


@triton.jit
def scale_kernel(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    values = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, scale(values), mask=mask)
