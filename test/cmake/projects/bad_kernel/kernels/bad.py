import triton
import triton.language as tl


@triton.jit
def bad_kernel(x, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    with pid < n:
        tl.store(x + pid * BLOCK + tl.arange(0, BLOCK), 1.0)
