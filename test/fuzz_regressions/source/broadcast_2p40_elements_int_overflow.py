#mt|kernel=k|sig=*fp32, i32
import triton
import triton.language as tl


@triton.jit
def k(x, n):
    o = tl.arange(0, 1048576)[:, None] + tl.arange(0, 1048576)[None, :]
    tl.store(x + o, 1.0)
