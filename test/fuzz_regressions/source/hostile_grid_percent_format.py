#mt|kernel=k|sig=*fp32, i32, i32|D=BLOCK=64|grid=n % s + (n % BLOCK)
import triton
import triton.language as tl


# The grid's text was part of a printf format in every launcher's message:
# "% s" read a pointer that was never passed, "% B" and "% 6" warned.
@triton.jit
def k(x, n, s, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, 1.0, mask=offs < n)
