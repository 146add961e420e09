#mt|kernel=k|sig=*fp32, i32|D=BLOCK=64|grid=cdiv(n, BLOCK)
import triton
import triton.language as tl

# A kernel defined inside a module-level try (and a helper in an if) was
# "not found"; Python binds it there.
try:
    from triton.language.extra.libdevice import rsqrt
except ImportError:
    rsqrt = tl.rsqrt

if triton.__version__ >= "3.0":
    @triton.jit
    def scale(v):
        return v * 2.0

try:
    @triton.jit
    def k(x, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        v = tl.load(x + offs, mask=offs < n, other=1.0)
        tl.store(x + offs, scale(rsqrt(v)), mask=offs < n)
except ImportError:
    pass
