#mt|kernel=k|sig=*fp32, i32|D=BLOCK=64|D=ACT='a/*b??/c*/d??=e??(f'|grid=cdiv(n, BLOCK)
import triton
import triton.language as tl


# A string constexpr is printed in comments and string literals of the
# generated code: "/*", "*/" and trigraphs ("??/") warned or broke them.
@triton.jit
def k(x, n, BLOCK: tl.constexpr, ACT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n)
    if ACT == "relu":
        v = tl.maximum(v, 0.0)
    tl.store(x + offs, v, mask=offs < n)
